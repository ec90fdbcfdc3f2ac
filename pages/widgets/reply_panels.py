"""The Compare page's reply panels: one per offered responder, shown when ticked.

Each panel has its reply (Markdown, streamed), a status line, and its flag controls
(note + button) right beside it, shown only once there is a reply to flag. With them sits
"Try this reply in the Adversarial lab", hidden unless the app shows the lab as a tab
(:mod:`pages.widgets.send_to_lab`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import gradio as gr

from pages.widgets.keys import typed_keys
from pages.widgets.send_to_lab import BUTTON as LAB_BUTTON
from responders.registry import (
    availability,
    default_responder_ids,
    get_responder,
    responder_class,
)

RESPONDER_IDS = default_responder_ids()
PER_ROW = 3


def responder_choices(*key_values: str) -> list[tuple[str, str]]:
    """Every offered responder as (readable name, id); the name says what a missing one needs.

    >>> dict((v, k) for k, v in responder_choices())["openai/gpt-4o"]
    'OpenAI: gpt-4o — needs OPENAI_API_KEY'
    """
    status = availability(typed_keys(*key_values))
    return [
        (get_responder(r).display_name + (f" — {why.split(':')[0]}" if why else ""), r)
        for r, why in status.items()
    ]


def refresh_choices(*key_values: str) -> gr.CheckboxGroup:
    """Update the responder list after a key was typed."""
    return gr.CheckboxGroup(choices=responder_choices(*key_values))


def panel_id(responder_id: str) -> str:
    """The HTML id of a responder's reply panel: ``reply-local-qwen2-5-coder-1-5b``."""
    return "reply-" + re.sub(r"\W+", "-", responder_id.replace("_", "-"))


def initial_status(responder_id: str) -> str:
    """A panel's line before any run: what the responder needs, if anything."""
    reason = availability()[responder_id]
    return "not run yet" if reason is None else f"unavailable: {reason}"


def default_selection() -> list[str]:
    """Responders ticked when the page opens: those ready that need no key (the local
    model, the therapist, an OpenAI-compatible server the operator set up)."""
    ready = [rid for rid, reason in availability().items() if reason is None]
    return [rid for rid in ready if not responder_class(rid).needs_key] or ready


def panel_visibility(selected: list[str]) -> list[gr.Column]:
    """Show the panels of ticked responders only."""
    return [gr.Column(visible=rid in (selected or [])) for rid in RESPONDER_IDS]


class FlagControls(NamedTuple):
    """A panel's flag controls: the group (hidden while the panel has no reply), the note, the
    button, the answer below them, and the button sending the reply to the lab."""

    row: gr.Column
    note: gr.Textbox
    button: gr.Button
    status: gr.Markdown
    to_lab: gr.Button


def reply_panels() -> tuple[list[gr.Column], list[gr.components.Component], dict]:
    """A column per offered responder (visible when ticked): its name, reply, status line and
    flag controls; returns the columns, the (reply, status) outputs and each one's flag controls.
    """
    columns: list[gr.Column] = []
    outputs: list[gr.components.Component] = []
    flags: dict[str, FlagControls] = {}
    ticked = default_selection()
    for start in range(0, len(RESPONDER_IDS), PER_ROW):
        with gr.Row(equal_height=False):
            for rid in RESPONDER_IDS[start : start + PER_ROW]:
                with gr.Column(visible=rid in ticked, min_width=280) as column:
                    gr.Markdown(f"**{get_responder(rid).display_name}** <small>`{rid}`</small>")
                    text = gr.Markdown(
                        "",
                        elem_id=panel_id(rid),
                        elem_classes=["reply-panel"],
                        min_height=80,
                        max_height=420,
                    )
                    status = gr.Markdown(initial_status(rid))
                    with gr.Column(visible=False, elem_classes=["flag-row"]) as row:
                        with gr.Row():
                            note = gr.Textbox(
                                placeholder="Why flag it? (optional)", show_label=False
                            )
                            button = gr.Button("Flag this reply", size="sm")
                        flag_status = gr.Markdown()
                        to_lab = gr.Button(LAB_BUTTON, size="sm", visible=False)
                columns.append(column)
                outputs += [text, status]
                flags[rid] = FlagControls(row, note, button, flag_status, to_lab)
    return columns, outputs, flags
