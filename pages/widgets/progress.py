"""Turning a study's progress callback into Gradio's progress bar, and following a long study.

A study reports ``progress(done, total, what)`` when a step starts (a reply
to write, a scorer to run) and may report news of it (words written so far). A step can take minutes (the local model on a
2-core CPU), so :func:`follow` runs the study in a thread and says every second
which step it is on and how long that step has taken, and lets Stop end it.

>>> elapsed(42.4), elapsed(125)
('42 s', '2 min 05 s')
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Generator
from typing import Any, TypeVar

import gradio as gr

from core.progress import Progress

T = TypeVar("T")


class Stopped(Exception):
    """Raised in a followed study at its next progress report once the visitor stopped it."""


def gradio_progress(progress: gr.Progress) -> Progress:
    """A :data:`core.progress.Progress` callback that drives ``progress`` (done/total + text)."""

    def report(done: int, total: int, what: str) -> None:
        progress((done, total) if total else None, desc=what)

    return report


def elapsed(seconds: float) -> str:
    """``42 s`` under a minute, ``2 min 05 s`` from a minute on."""
    whole = int(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60:02d} s"


def follow(
    work: Callable[[Progress], T],
    progress: gr.Progress,
    every_s: float = 1.0,
    shown: Callable[[str], Any] = str,
) -> Generator[Any, None, T]:
    """Run ``work(report)`` in a thread; every ``every_s`` seconds move ``progress`` and yield
    ``shown(line)``, the line saying the step and its time so far; return what ``work``
    returned (or raise what it raised).

    Closing this generator (Gradio does when Stop cancels the event) makes ``work``'s next
    report raise :class:`Stopped`: the step under way finishes, no later step starts.

    >>> def page():
    ...     made = yield from follow(lambda report: report(0, 1, "counting") or 7, gr.Progress())
    ...     yield f"made {made}"
    >>> list(page())
    ['Counting… 0 s (0 s in all)', 'made 7']
    """
    step: list[Any] = [0, 0, "starting", time.monotonic()]  # done, total, what, since
    stop = threading.Event()
    outcome: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)

    def report(done: int, total: int, what: str) -> None:
        if stop.is_set():
            raise Stopped("stopped by the visitor")
        same = step[:2] == [done, total]  # news of the same step: its clock keeps running
        step[:] = [done, total, what, step[3] if same else time.monotonic()]

    def run() -> None:
        try:
            outcome.put((True, work(report)))
        except BaseException as exc:  # handed to the page's thread, which raises it
            outcome.put((False, exc))

    started = time.monotonic()
    threading.Thread(target=run, name="followed-study", daemon=True).start()
    try:
        while True:  # a first tick at once: from then on a Stop can close this generator
            done, total, what, since = step
            now = time.monotonic()
            progress((done, total) if total else None, desc=f"{what} · {elapsed(now - since)}")
            line = f"{what[:1].upper()}{what[1:]}… {elapsed(now - since)}"
            yield shown(f"{line} ({elapsed(now - started)} in all)")
            try:
                ok, value = outcome.get(timeout=every_s)
            except queue.Empty:
                continue
            if ok:
                return value  # type: ignore[no-any-return]
            raise value
    finally:
        stop.set()
