"""Buttons that cannot be pressed while the work they start is going.

A press while a run is going used to be ignored silently (Gradio runs one event of a button at
a time), so the message box could show a new message under the replies to the old one. Now the
buttons are greyed out from the press until the work ends; Stop gives them back at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import gradio as gr

if TYPE_CHECKING:
    from gradio.events import Dependency


def busy(buttons: list[gr.Button]) -> list[dict]:
    """``buttons`` greyed out: not clickable."""
    return [gr.update(interactive=False) for _ in buttons]


def idle(buttons: list[gr.Button]) -> list[dict]:
    """``buttons`` clickable again."""
    return [gr.update(interactive=True) for _ in buttons]


def busy_while(
    trigger: gr.Button,
    buttons: list[gr.Button],
    handler: Callable[..., Any],
    inputs: list[Any],
    outputs: list[Any],
    api_name: str,
) -> Dependency:
    """``handler`` run by ``trigger``'s click (at most 4 at once across visitors), with
    ``buttons`` not clickable from the press until it ends; returns the handler's event (what
    Stop cancels)."""
    starting = trigger.click(
        lambda: busy(buttons), None, buttons, api_name=False, show_progress="hidden"
    )
    event = starting.then(handler, inputs, outputs, api_name=api_name, concurrency_limit=4)
    event.then(lambda: idle(buttons), None, buttons, api_name=False, show_progress="hidden")
    return event
