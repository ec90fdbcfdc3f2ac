"""What every launch tells Gradio (the largest upload, the one folder it may serve), and what
``python app.py`` tells the operator once it serves (:func:`serve`).

``app.py`` and each page run alone (``python -m pages.batch``) launch with
:func:`launch_options`, so a page on its own keeps the same limits:

- ``max_file_size``: an upload over the operator's ``EMPATHY_LAB_MAX_UPLOAD_MB``
  is refused by Gradio before it reaches a page;
- ``allowed_paths``: the runs folder (``EMPATHY_LAB_RUNS_DIR``), so a batch's
  report and results are served wherever the operator keeps runs. A visitor's
  runs live under ``visitors/<digest of their id>/`` (:mod:`pages.widgets.visitor`),
  so a file there is reachable only by who knows that digest.
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

#: Words Gradio 6 (6.31) asks its translations for but its English lacks: when a run ends its
#: status tracker announces ``i18n("common.complete")`` in a hidden live region (a screen
#: reader read out "common.complete"). Any browser language falls back to these English words.
GRADIO_WORDS = {"common.complete": "Done"}
#: Hosts that mean "every network interface".
EVERY_INTERFACE = ("0.0.0.0", "::", "[::]")


def launch_options() -> dict[str, object]:
    """Keyword arguments for :meth:`gradio.Blocks.launch` (read from :mod:`config` now).

    >>> sorted(launch_options())
    ['allowed_paths', 'i18n', 'max_file_size']
    """
    import gradio as gr

    return {
        "max_file_size": config.SETTINGS.max_upload_bytes,
        "allowed_paths": [str(config.RUNS_DIR)],
        "i18n": gr.I18n(en=GRADIO_WORDS),
    }


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
    wait = not launch.pop("prevent_thread_lock", False)
    try:
        demo.launch(**{"quiet": True, **launch, "prevent_thread_lock": True})
    except OSError as exc:  # the port was taken between the check and the start
        raise SystemExit(f"Empathy Lab cannot start: {exc}") from None
    if demo.local_url:
        line = running_line(demo.local_url, str(launch.get("server_name") or ""), note)
        (say or line_writer())(line)
    if wait:
        demo.block_thread()  # returns at once when nothing was launched
