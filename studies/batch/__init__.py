"""Batch experiments, one module per step.

- :mod:`studies.batch.plan`: the settings and the rows a run will ask;
- :mod:`studies.batch.run`: :func:`~studies.batch.run.run_batch`, resumable, stoppable;
- :mod:`studies.batch.engine`: where rows run (local threads or a Ray cluster);
- :mod:`studies.batch.row`: one row (ask, keep, price, score, screen);
- :mod:`studies.batch.store`: the run folder (append-only ``results.csv``, lock);
- :mod:`studies.batch.eta`: time left from the run's own pace;
- :mod:`studies.batch.summary`: paired comparisons of the finished rows.
"""
