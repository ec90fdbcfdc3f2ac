"""What every launch tells Gradio: the largest upload, and the one folder it may serve.

``app.py`` and each page run alone (``python -m pages.batch``) launch with
:func:`launch_options`, so a page on its own keeps the same limits:

- ``max_file_size``: an upload over the operator's ``EMPATHY_LAB_MAX_UPLOAD_MB``
  is refused by Gradio before it reaches a page;
- ``allowed_paths``: the runs folder (``EMPATHY_LAB_RUNS_DIR``), so a batch's
  report and results are served wherever the operator keeps runs. A visitor's
  runs live under ``visitors/<digest of their id>/`` (:mod:`pages.widgets.visitor`),
  so a file there is reachable only by who knows that digest.
"""

from __future__ import annotations

import config


def launch_options() -> dict[str, object]:
    """Keyword arguments for :meth:`gradio.Blocks.launch` (read from :mod:`config` now)."""
    return {
        "max_file_size": config.SETTINGS.max_upload_bytes,
        "allowed_paths": [str(config.RUNS_DIR)],
    }
