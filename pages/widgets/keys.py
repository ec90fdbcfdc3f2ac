"""Key boxes and the responder availability table, shared by every page that calls models.

Keys typed here travel with that browser session's requests only: they are
never stored on the server, logged, or seen by other visitors.
"""

from __future__ import annotations

import gradio as gr

from config import KEY_ENV_VARS
from responders.registry import availability, get_responder


def typed_keys(*key_values: str) -> dict[str, str]:
    """``{env var name: typed value}`` from the key boxes' values, in :data:`KEY_ENV_VARS` order."""
    return {name: value for name, value in zip(KEY_ENV_VARS, key_values, strict=False) if value}


def availability_markdown(*key_values: str) -> str:
    """A table of every offered responder with 'ready' or what it needs."""
    rows = ["| responder | status |", "|---|---|"]
    for rid, reason in availability(typed_keys(*key_values)).items():
        responder = get_responder(rid)
        status = reason or ("ready for " + responder.scope if responder.scope else "ready")
        rows.append(f"| {responder.display_name} <small>`{rid}`</small> | {status} |")
    return "\n".join(rows)


def key_boxes() -> tuple[list[gr.Textbox], gr.Markdown]:
    """The key boxes (inside an accordion) and the availability table they update."""
    with gr.Accordion("API keys (kept in this browser session only)", open=False):
        gr.Markdown(
            "Keys typed here are sent with your requests and used for them alone: "
            "never logged, never saved, never seen by other visitors."
        )
        boxes = [gr.Textbox(label=name, type="password") for name in KEY_ENV_VARS]
        table = gr.Markdown(availability_markdown())
    for box in boxes:
        box.change(availability_markdown, boxes, table, api_name=False)
    return boxes, table
