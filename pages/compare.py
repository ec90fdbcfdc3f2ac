"""Compare page: one message, several responders, replies streamed side by side.

Runs alone with ``python -m pages.compare``. The page only turns inputs into
calls of :func:`compare.stream_replies` and panels into component updates.
Keys typed here travel with each request of this browser session and are
never stored on the server.
"""

from __future__ import annotations

from collections.abc import Iterator

import gradio as gr

from compare import Panel, stream_replies
from config import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_SYSTEM_PROMPT,
    DEFAULT_TEMPERATURE,
    KEY_ENV_VARS,
    SETTINGS,
)
from questions import by_label, load_questions
from responders.registry import default_responder_ids, get_responder
from textinput import InputError

RESPONDER_IDS = default_responder_ids()
#: Panels per row on wide screens.
PER_ROW = 3


def availability_markdown(*key_values: str) -> str:
    """A table of every responder with 'ready' or what it needs."""
    keys = SETTINGS.keys.merged(dict(zip(KEY_ENV_VARS, key_values, strict=False)))
    rows = ["| responder | status |", "|---|---|"]
    for rid in RESPONDER_IDS:
        responder = get_responder(rid)
        reason = responder.unavailable_reason(keys)
        if reason is None and responder.provider == "human":
            reason = "ready for the bundled questions only"
        rows.append(f"| `{rid}` | {'ready' if reason is None else reason} |")
    return "\n".join(rows)


def default_selection() -> list[str]:
    """Responders ticked when the page opens: those that can run without input."""
    return [rid for rid in RESPONDER_IDS if get_responder(rid).unavailable_reason() is None]


def question_text(label: str | None) -> str:
    """The bundled question's text for a dropdown label ('' when none)."""
    question = by_label(label or "")
    return question.question if question else gr.skip()


def _panel_updates(panels: dict[str, Panel]) -> list[str]:
    updates: list[str] = []
    for rid in RESPONDER_IDS:
        panel = panels.get(rid)
        if panel is None:
            updates += ["", "not selected"]
            continue
        status = panel.summary()
        if panel.reply is not None and panel.reply.attribution:
            status += f"\n\n<small>{panel.reply.attribution}</small>"
        updates += [panel.text, status]
    return updates


def run_compare(
    message: str,
    selected: list[str],
    system: str,
    max_tokens: float,
    temperature: float,
    *key_values: str,
) -> Iterator[list[object]]:
    """Stream every selected responder's reply into its panel."""
    if not selected:
        raise gr.Error("Tick at least one responder.")
    keys = dict(zip(KEY_ENV_VARS, key_values, strict=False))
    responders = [get_responder(rid) for rid in selected if rid in RESPONDER_IDS]
    try:
        snapshots = stream_replies(
            message,
            responders,
            system=system,
            max_tokens=int(max_tokens),
            temperature=float(temperature),
            keys=keys,
        )
        panels = next(snapshots)
    except InputError as exc:
        raise gr.Error(str(exc)) from None
    yield [*_panel_updates(panels), []]
    for panels in snapshots:
        replies = [p.reply.to_dict() for p in panels.values() if p.reply is not None]
        yield [*_panel_updates(panels), replies]


def build() -> gr.Blocks:
    """Build the compare page."""
    with gr.Blocks(title="Empathy Lab · Compare") as page:
        gr.Markdown(
            "## Compare replies\nPaste a therapy question or a personal story, or pick "
            "one of the bundled CounselChat questions (those also get the licensed "
            "therapist's real answer). Every ticked responder answers at once."
        )
        with gr.Row():
            with gr.Column(scale=3):
                picker = gr.Dropdown(
                    choices=[q.choice_label for q in load_questions()],
                    value=None,
                    label="Bundled question (CounselChat)",
                )
                message = gr.Textbox(
                    label="Message",
                    lines=6,
                    placeholder="I haven't been sleeping since my mother died…",
                )
            with gr.Column(scale=2):
                selected = gr.CheckboxGroup(
                    choices=RESPONDER_IDS, value=default_selection(), label="Responders"
                )
                run = gr.Button("Get replies", variant="primary")
        with gr.Accordion("Prompt and sampling", open=False):
            system = gr.Textbox(value=DEFAULT_SYSTEM_PROMPT, label="System prompt", lines=3)
            with gr.Row():
                max_tokens = gr.Slider(
                    16, 2048, value=DEFAULT_MAX_TOKENS, step=16, label="Max tokens"
                )
                temperature = gr.Slider(
                    0.0, 2.0, value=DEFAULT_TEMPERATURE, step=0.05, label="Temperature"
                )
        with gr.Accordion("API keys (kept in this browser session only)", open=False):
            gr.Markdown(
                "Keys typed here are sent with your requests and used for them alone: "
                "never logged, never saved, never seen by other visitors."
            )
            key_boxes = [gr.Textbox(label=name, type="password") for name in KEY_ENV_VARS]
            status_table = gr.Markdown(availability_markdown())
        outputs: list[gr.components.Component] = []
        for start in range(0, len(RESPONDER_IDS), PER_ROW):
            with gr.Row(equal_height=False):
                for rid in RESPONDER_IDS[start : start + PER_ROW]:
                    with gr.Column():
                        text = gr.Textbox(label=rid, lines=8, max_lines=24, interactive=False)
                        status = gr.Markdown("not run yet")
                        outputs += [text, status]
        replies = gr.State([])

        picker.change(question_text, picker, message, api_name=False)
        for box in key_boxes:
            box.change(availability_markdown, key_boxes, status_table, api_name=False)
        run.click(
            run_compare,
            [message, selected, system, max_tokens, temperature, *key_boxes],
            [*outputs, replies],
            api_name="compare",
            concurrency_limit=4,
        )
    return page


demo = build()

if __name__ == "__main__":
    demo.launch()
