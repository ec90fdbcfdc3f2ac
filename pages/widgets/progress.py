"""Turning a study's progress callback into Gradio's progress bar."""

from __future__ import annotations

import gradio as gr

from core.progress import Progress


def gradio_progress(progress: gr.Progress) -> Progress:
    """A :data:`core.progress.Progress` callback that drives ``progress`` (done/total + text)."""

    def report(done: int, total: int, what: str) -> None:
        progress((done, total) if total else None, desc=what)

    return report
