"""Key boxes and the responder availability table, shared by every page that calls models.

Keys typed here travel with that browser session's requests only: they are
never stored on the server, logged, or seen by other visitors.
"""

from __future__ import annotations

import gradio as gr

from config import KEY_ENV_VARS, SETTINGS, Keys
from responders.registry import availability, get_responder


def typed_keys(*key_values: str | None) -> Keys:
    """The keys one request may use: the server's own, with the keys typed in this session over them.

    ``key_values`` are the key boxes' values in :data:`KEY_ENV_VARS` order (blank boxes
    change nothing). Every handler that calls a model reads its keys here, once.

    >>> import config
    >>> typed_keys("sk-typed")[config.KEY_ENV_VARS[0]]
    'sk-typed'
    >>> typed_keys(None, "  ") == typed_keys()
    True
    """
    typed = {name: str(value or "") for name, value in zip(KEY_ENV_VARS, key_values, strict=False)}
    return SETTINGS.keys.merged(typed)


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
        # value "": a caller of the web API may leave the keys out (the server's own then)
        boxes = [gr.Textbox("", label=name, type="password") for name in KEY_ENV_VARS]
        table = gr.Markdown(availability_markdown())
    for box in boxes:
        box.change(availability_markdown, boxes, table, api_name=False)
    return boxes, table
