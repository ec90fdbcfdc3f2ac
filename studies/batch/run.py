"""Batch experiments: N questions × M responders × prompt strategies × scorers, resumable.

:func:`run_batch` plans every row (see :mod:`studies.batch.plan`), skips the
rows its run folder already holds as ``ok`` (never asked again: never paid
twice), retries failed ones, and runs the rest with a per-provider
concurrency limit on local threads or on a Ray cluster
(:mod:`studies.batch.engine`). Each row is made by :func:`studies.batch.row.run_row`: ask the
responder, keep the reply the strategy defines, price it, score it with every
scorer. Rows go to the run's append-only ``results.csv`` in plan order.

>>> from studies.batch.plan import BatchQuestion, BatchSettings
>>> import tempfile
>>> from core.questions import load_questions
>>> q = load_questions()[0]
>>> settings = BatchSettings(("human/counselchat",), ("study",), ())
>>> folder = tempfile.mkdtemp()
>>> outcome = run_batch(folder, [BatchQuestion("1", q.question)], settings)
>>> outcome.done, outcome.failed, run_batch(folder, [BatchQuestion("1", q.question)], settings).skipped
(1, 0, 1)
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from config import Keys
from core.progress import Progress, silent
from responders.registry import get_responder
from studies.batch.plan import (
    BatchQuestion,
    BatchSettings,
    plan_rows,
    row_key,
    with_as_written,
)
from studies.batch.row import ResponderFactory
from studies.batch.store import RunFolder


@dataclass(frozen=True)
class BatchOutcome:
    """How a run went: rows made now, failed now, skipped (already ok) and not run (stopped)."""

    folder: Path
    total: int
    done: int
    failed: int
    skipped: int
    not_run: int

    @property
    def complete(self) -> bool:
        """True when every planned row is stored as ok."""
        return self.failed == 0 and self.not_run == 0


def check_ready(
    responders: Sequence[str], scorers: Sequence[str], keys: Mapping[str, str] | None = None
) -> str | None:
    """Why a batch cannot start (an unavailable responder or scorer, with the fix), or None.

    Raises KeyError for an unknown id.
    """
    from config import SETTINGS
    from scorers.registry import get_scorer

    merged = SETTINGS.keys.merged(keys)
    for rid in responders:
        reason = get_responder(rid).unavailable_reason(merged)
        if reason:
            return f"{rid} is unavailable: {reason}"
    for sid in scorers:
        reason = get_scorer(sid, keys=merged).unavailable_reason()
        if reason:
            return f"{sid} is unavailable: {reason}"
    return None


def estimate(questions: list[BatchQuestion], settings: BatchSettings, concurrency: int = 4) -> str:
    """What a run of this plan will take, in one plain line (see :mod:`studies.batch.eta`).

    >>> from studies.batch.plan import BatchQuestion, BatchSettings
    >>> estimate([BatchQuestion("1", "I feel alone.")], BatchSettings(("human/counselchat",), ("study",), ()))
    '1 reply planned. Expect about a minute or less.'
    """
    from studies.batch.engine import provider_limits
    from studies.batch.eta import plan_estimate

    tasks = plan_rows(questions, with_as_written(settings))
    limits = provider_limits("local", concurrency)
    return plan_estimate([t.provider for t in tasks], limits, settings.max_tokens)


def run_batch(
    folder: str | Path,
    questions: list[BatchQuestion],
    settings: BatchSettings,
    *,
    engine: str = "local",
    address: str | None = None,
    concurrency: int = 4,
    keys: Keys | Mapping[str, str] | None = None,
    stop: threading.Event | None = None,
    progress: Progress = silent,
    make_responder: ResponderFactory = get_responder,
) -> BatchOutcome:
    """Run (or continue) the batch in ``folder``; see the module docstring.

    Raises :class:`studies.batch.store.RunMismatch` when the folder was made
    for other scorers, :class:`studies.batch.store.RunBusy` while another run of
    the same folder is going or still finishing after a stop, KeyError for an
    unknown strategy or responder.
    """
    from studies.batch.engine import Scheduler, make_engine

    if not questions:
        raise ValueError("the batch has no questions")
    settings = with_as_written(settings, make_responder)
    tasks = plan_rows(questions, settings)
    run = RunFolder(folder)
    with run.exclusive():  # raises RunBusy while another run of this folder is still writing
        log = run.open(questions, settings, engine)
        finished = {k for k, row in run.latest_rows().items() if row["status"] == "ok"}
        todo = [t for t in tasks if row_key(t.__dict__) not in finished]
        scheduler = Scheduler(
            make_engine(engine, address=address, concurrency=concurrency),
            log,
            concurrency=concurrency,
            stop=stop or threading.Event(),
            progress=progress,
            secrets=Keys(dict(keys or {})).secrets(),
            max_tokens=settings.max_tokens,
        )
        counts = scheduler.run(todo, len(tasks), (list(settings.scorers), keys, make_responder))
    return BatchOutcome(
        Path(folder),
        len(tasks),
        counts["done"],
        counts["failed"],
        len(tasks) - len(todo),
        counts["not_run"],
    )
