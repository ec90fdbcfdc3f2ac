"""The operator's box under a shared log: a token, a button, and the whole log to download.

On a public server the flag and vote logs are the operator's (:mod:`core.visitors`); a
visitor downloads their own rows beside this box. The token is checked when the button is
pressed (or Enter typed), never on a stray blur.
"""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr

from core.visitors import is_operator, may_read_all
from pages.widgets.kept_words import NOT_OPERATOR, OPERATOR_HELP


def for_operator(token: str | None, whole: Callable[[], str | None]) -> str | None:
    """``whole()`` (the path of the whole log) for the operator's token, or anyone on a local
    run of one's own; None for an empty box; anyone else is refused with :class:`gr.Error`.

    >>> for_operator("", lambda: "log.csv") in (None, "log.csv")
    True
    """
    if not (token or "").strip() and not may_read_all():
        return None
    if not (is_operator(token) or may_read_all()):
        raise gr.Error(NOT_OPERATOR)
    return whole()


def operator_box(heading: str, what: str, whole: Callable[[], str | None]) -> None:
    """The folded box (``heading``), its button "Get every ``what`` (CSV)" and the file it
    gives: ``whole()`` when the token is the operator's."""
    with gr.Accordion(heading, open=False):
        gr.Markdown(OPERATOR_HELP)
        with gr.Row():
            token = gr.Textbox(label="Operator token", type="password", scale=3)
            get = gr.Button(f"Get every {what} (CSV)", scale=1)
        every = gr.File(label=f"Every {what} (CSV)")
    for press in (token.submit, get.click):
        press(lambda typed: for_operator(typed, whole), token, every, api_name=False)
