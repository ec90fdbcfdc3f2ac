"""Compare page: one message, several responders, replies streamed side by side.

Runs alone with ``python -m pages.compare``. The page only turns inputs into
calls of :func:`compare.stream_round` and its panels and scores into
component updates. Keys typed here travel with each request of this browser
session and are never stored on the server.
"""

from __future__ import annotations

from collections.abc import Iterator

import gradio as gr

from config import DEFAULT_MAX_TOKENS, DEFAULT_SYSTEM_PROMPT, DEFAULT_TEMPERATURE, KEY_ENV_VARS
from core.flags import FlagLog, FlagLogError, FlagRecord
from core.questions import by_label, load_questions
from core.textinput import InputError
from pages.widgets.judge import judge_controls, judge_options
from pages.widgets.keys import key_boxes, typed_keys
from reports.charts import SCORE_COLUMNS, radar_by_responder, radar_by_scorer, score_rows
from responders.registry import availability, default_responder_ids, get_responder
from scorers.registry import DEFAULT_SCORERS, get_scorer, offered_scorer_ids
from studies.rounds import Panel, Round, stream_round

RESPONDER_IDS = default_responder_ids()
SCORER_IDS = offered_scorer_ids()
#: Panels per row on wide screens.
PER_ROW = 3


def initial_status(responder_id: str) -> str:
    """A panel's line before any run: what the responder needs, if anything."""
    reason = availability()[responder_id]
    return "not run yet" if reason is None else f"unavailable: {reason}"


def default_selection() -> list[str]:
    """Responders ticked when the page opens: those that can run without input."""
    return [rid for rid, reason in availability().items() if reason is None]


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
    scorer_ids: list[str],
    system: str,
    max_tokens: float,
    temperature: float,
    *rest: object,
) -> Iterator[list[object]]:
    """Stream every selected responder's reply into its panel, then its scores.

    ``rest`` holds the key boxes, then (optionally) the six judge controls.
    """
    if not selected:
        raise gr.Error("Tick at least one responder.")
    key_values, judge_values = rest[: len(KEY_ENV_VARS)], rest[len(KEY_ENV_VARS) :]
    keys = typed_keys(*key_values)
    options = judge_options(*judge_values) if len(judge_values) == 6 else {}
    responders = [get_responder(rid) for rid in selected if rid in RESPONDER_IDS]
    scorers = [
        get_scorer(sid, keys=keys, **options) for sid in scorer_ids or [] if sid in SCORER_IDS
    ]
    try:
        rounds = stream_round(
            message,
            responders,
            scorers,
            system=system,
            max_tokens=int(max_tokens),
            temperature=float(temperature),
            keys=keys,
        )
        first = next(rounds)
    except InputError as exc:
        raise gr.Error(str(exc)) from None
    shown_scores = -1
    state = first
    for state in [first, *rounds]:
        fresh = len(state.scores) != shown_scores
        shown_scores = len(state.scores)
        yield _round_updates(state, with_scores=fresh)
    yield _round_updates(state, with_scores=True)  # the final word holds everything


def _round_updates(state: Round, *, with_scores: bool) -> list[object]:
    """Component updates for one moment of a round (scores redrawn only when asked)."""
    saved: dict[str, dict] = {
        "replies": {rid: p.reply.to_dict() for rid, p in state.panels.items() if p.reply},
        "scores": {},
    }
    for (rid, _), score in state.scores.items():
        saved["scores"].setdefault(rid, []).append(score.to_dict())
    if with_scores:
        table: object = score_rows(state.scores)
        plots: list[object] = [radar_by_scorer(state.scores), radar_by_responder(state.scores)]
    else:
        table, plots = gr.skip(), [gr.skip(), gr.skip()]
    progress = f"{len(state.scores)} scores ready, {state.pending} on their way"
    return [*_panel_updates(state.panels), table, *plots, progress, saved]


def flag_reply(responder_id: str, state: dict, note: str, *key_values: str) -> str:
    """Append ``responder_id``'s latest reply and its scores to the flag log."""
    reply = (state or {}).get("replies", {}).get(responder_id)
    if not reply or not reply.get("text"):
        return f"Nothing to flag for `{responder_id}` yet: run the comparison first."
    record = FlagRecord.from_reply(
        "compare", reply, state.get("scores", {}).get(responder_id, []), note or ""
    )
    try:
        FlagLog().append(record, secrets=[v for v in key_values if v])
    except FlagLogError as exc:
        raise gr.Error(str(exc)) from None
    return f"Flagged `{responder_id}`'s reply. See the Flags tab."


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
                scorer_box = gr.CheckboxGroup(
                    choices=SCORER_IDS, value=list(DEFAULT_SCORERS), label="Scorers"
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
        judge_boxes = judge_controls()
        keys_in, _ = key_boxes()
        outputs: list[gr.components.Component] = []
        flag_buttons: dict[str, gr.Button] = {}
        for start in range(0, len(RESPONDER_IDS), PER_ROW):
            with gr.Row(equal_height=False):
                for rid in RESPONDER_IDS[start : start + PER_ROW]:
                    with gr.Column():
                        text = gr.Textbox(label=rid, lines=8, max_lines=24, interactive=False)
                        status = gr.Markdown(initial_status(rid))
                        flag_buttons[rid] = gr.Button("Flag this reply", size="sm")
                        outputs += [text, status]
        with gr.Row():
            flag_note = gr.Textbox(label="Note for a flag (optional)", scale=3)
            flag_status = gr.Markdown()
        gr.Markdown(
            "### Scores\nRubric: Cognitive, Emotional, Behavioral, 1–3 each; overall = mean. "
            "Scores appear as each reply finishes (the local judge takes a few seconds per reply)."
        )
        score_status = gr.Markdown("")
        score_table = gr.Dataframe(headers=SCORE_COLUMNS, interactive=False, wrap=True)
        with gr.Row():
            by_scorer = gr.Plot(label="By scorer")
            by_responder = gr.Plot(label="By responder")
        replies = gr.State({})

        picker.change(question_text, picker, message, api_name=False)
        run.click(
            run_compare,
            [
                message,
                selected,
                scorer_box,
                system,
                max_tokens,
                temperature,
                *keys_in,
                *judge_boxes,
            ],
            [*outputs, score_table, by_scorer, by_responder, score_status, replies],
            api_name="compare",
            concurrency_limit=4,
        )
        for rid, button in flag_buttons.items():
            button.click(
                lambda state, note, *keys, rid=rid: flag_reply(rid, state, note, *keys),
                [replies, flag_note, *keys_in],
                flag_status,
                api_name=f"flag_{rid.split('/')[0].replace('-', '_')}",
            )
    return page


demo = build()

if __name__ == "__main__":
    demo.launch()
