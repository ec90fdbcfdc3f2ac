"""What every launch tells Gradio (the largest upload, the one folder it may serve), and what
``python app.py`` tells the operator once it serves (:func:`serve`).

``app.py`` and each page run alone (``python -m pages.batch``) launch with
:func:`launch_options`, so a page on its own keeps the same limits:

- ``max_file_size``: an upload over the operator's ``EMPATHY_LAB_MAX_UPLOAD_MB``
  is refused by Gradio before it reaches a page;
- ``allowed_paths``: the visitors' part of the runs folder (``EMPATHY_LAB_RUNS_DIR``
  ``/visitors``), so a batch's report and results are served wherever the operator keeps
  runs. A visitor's runs live under ``visitors/<digest of their id>/``
  (:mod:`core.visitors`), so a file there is reachable only by who knows that digest;
  runs made on the command line, beside it, are never served.
- ``run_history``: off. Gradio 6 otherwise keeps every call's inputs, typed keys
  and messages included, in the browser's storage and lists them at ``/gradio_api/runs``.
- ``app_kwargs``: a cap on every request's body (:mod:`pages.widgets.body_cap`).
- ``i18n``: words Gradio's own English lacks (:data:`GRADIO_WORDS`), so its status tracker
  never puts a bare key such as ``common.complete`` on the page.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from typing import Any

import config
from core.visitors import EVERY_INTERFACE

#: Words Gradio 6 (6.31) asks its translations for but its English lacks: when a run ends its
#: status tracker announces ``i18n("common.complete")`` in a hidden live region (a screen
#: reader read out "common.complete"). Any browser language falls back to these English words.
GRADIO_WORDS = {"common.complete": "Done"}


def launch_options() -> dict[str, object]:
    """Keyword arguments for :meth:`gradio.Blocks.launch` (read from :mod:`config` now).

    >>> sorted(launch_options())
    ['allowed_paths', 'app_kwargs', 'i18n', 'max_file_size', 'run_history']
    >>> launch_options()["run_history"]
    False
    """
    import gradio as gr
    from starlette.middleware import Middleware

    from pages.widgets.body_cap import BodyCap

    settings = config.SETTINGS
    cap = Middleware(  # type: ignore[arg-type]
        BodyCap, max_bytes=settings.max_request_bytes, upload_bytes=settings.max_upload_bytes
    )
    return {
        "max_file_size": settings.max_upload_bytes,
        "allowed_paths": [str(config.RUNS_DIR / "visitors")],
        "i18n": gr.I18n(en=GRADIO_WORDS),
        "run_history": False,
        "app_kwargs": {"middleware": [cap]},
    }


def cache_retention() -> tuple[int, int]:
    """Gradio's ``delete_cache``: (how often, after how long) its copies of files served to
    visitors are removed, in seconds: the operator's ``EMPATHY_LAB_KEEP_DAYS``, at most a day.

    >>> cache_retention()
    (3600, 86400)
    """
    age = int(min(config.SETTINGS.keep_days, 1.0) * 86400)
    return min(3600, age), age


def running_line(url: str, host: str = "", note: str = "") -> str:
    """The one line that says where the app serves (and why on that port, if not the one
    asked for).

    >>> running_line("http://127.0.0.1:7861/", note="port 7860 was busy, so it took 7861")
    'Empathy Lab is running on http://127.0.0.1:7861/ (port 7860 was busy, so it took 7861). Open it in a browser; Ctrl+C stops it.'
    """
    notes = [note] if note else []
    if host in EVERY_INTERFACE:
        notes.append("listening on every network interface: other machines use this one's address")
    said = f" ({'; '.join(notes)})" if notes else ""
    return f"Empathy Lab is running on {url}{said}. Open it in a browser; Ctrl+C stops it."


def line_writer() -> Callable[[str], None]:
    """A writer of whole lines to standard output as it is now, each written at once.

    Take it before the local model loads: llama.cpp points standard output at /dev/null while
    it loads (to hide its own messages), from the warm-up thread, so a line the server printed
    meanwhile was lost; this writer keeps its own copy of the output.
    """
    try:
        out = os.dup(sys.stdout.fileno())
    except (AttributeError, OSError, io.UnsupportedOperation):  # no real file behind stdout
        return lambda line: print(line, flush=True)

    def write(line: str) -> None:
        os.write(out, f"{line}\n".encode())

    return write


def serve(
    demo: Any, note: str = "", say: Callable[[str], None] | None = None, **launch: Any
) -> None:
    """Launch ``demo`` (a :class:`gradio.Blocks`) with ``launch``, write :func:`running_line`
    at once with ``say`` (a log file or a pipe shows it now, not when the server stops), then
    wait until it stops, unless ``launch`` says ``prevent_thread_lock``.

    Gradio's own start-up lines are left out (``quiet``): this one line says it all.
    """
    from core.visitors import served_on

    wait = not launch.pop("prevent_thread_lock", False)
    served_on(str(launch.get("server_name") or os.environ.get("GRADIO_SERVER_NAME", "")))
    if getattr(demo, "delete_cache", None) is None:
        demo.delete_cache = cache_retention()
    try:
        demo.launch(**{"quiet": True, **launch, "prevent_thread_lock": True})
    except OSError as exc:  # the port was taken between the check and the start
        raise SystemExit(f"Empathy Lab cannot start: {exc}") from None
    if demo.local_url:
        line = running_line(demo.local_url, str(launch.get("server_name") or ""), note)
        (say or line_writer())(line)
    if wait:
        demo.block_thread()  # returns at once when nothing was launched
