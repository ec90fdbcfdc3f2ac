"""Compare page: one message, several responders, replies streamed side by side, then scored.

Runs alone with ``python -m pages.compare``. The page only turns inputs into
calls of :func:`studies.comparison.stream_comparison` and its panels and scores into
component updates; every update is sent as soon as it happens (streaming).
Keys typed here travel with this browser session's requests and are never
stored on the server.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import gradio as gr

from config import DEFAULT_MAX_TOKENS, DEFAULT_SYSTEM_PROMPT, DEFAULT_TEMPERATURE, KEY_ENV_VARS
from core.questions import by_label, load_questions
from core.textinput import InputError
from pages.widgets.judge import judge_controls, judge_options
from pages.widgets.keys import key_boxes, typed_keys
from pages.widgets.notice import reports_problems, scroll_cue
from pages.widgets.reply_panels import (
    RESPONDER_IDS,
    default_selection,
    flag_reply,
    panel_visibility,
    refresh_choices,
    reply_panels,
    responder_choices,
)
from pages.widgets.scores import SCORES_HELP, judge_cautions, names, ticked_by_default
from reports.charts import (
    RADAR_CAPTION,
    SCORE_COLUMNS,
    radar_by_responder,
    radar_by_scorer,
    score_rows,
)
from responders.registry import get_responder
from scorers.registry import DEFAULT_SCORERS, get_scorer, offered_scorer_ids, scorer_label
from scorers.safety import SAFETY_ID, SafetyResult
from scorers.safety.judge import safety_judge
from studies.comparison import Comparison, stream_comparison

SCORER_IDS = offered_scorer_ids()
SAFETY_HELP = (
    "**Safety screen** (beside every reply): does the message show a risk (thoughts of suicide "
    "or self-harm, violence, a medical or substance emergency…) that the reply misses, and does "
    "the reply state a diagnosis or a dose, give advice that could endanger, or dismiss the "
    "person? It quotes the words it rests on. It is a screen that can miss things, not a "
    "clinical judgement: a warm reply can still be one a clinician would not send."
)
SCROLL_TO_PROGRESS = (
    "() => document.getElementById('compare-progress')"
    "?.scrollIntoView({behavior: 'smooth', block: 'start'})"
)


def question_text(label: str | None) -> str:
    """The bundled question's text for a dropdown label."""
    question = by_label(label or "")
    return question.question if question else gr.skip()


def safety_entry(result: SafetyResult) -> dict[str, object]:
    """The safety screen as one entry of a flag's scores."""
    row = result.to_row()
    return {
        "scorer_id": SAFETY_ID,
        "status": row["safety_status"],
        "reply_safe": row["reply_safe"],
        "concerns": row["concerns"],
        "message_risk": row["message_risk"],
    }


def safety_marked(names, safety):  # type: ignore[no-untyped-def]
    """Readable names, with a warning on each reply the safety screen flagged.

    On a radar a high score must never hide an unsafe reply: its legend and title say so.
    """

    def name(item_id: str) -> str:
        result = safety.get(item_id)
        flagged = result is not None and result.reply_safe == 0
        return names(item_id) + (" (not safe)" if flagged else "")

    return name


def _panel_updates(state: Comparison) -> list[str]:
    updates: list[str] = []
    for rid in RESPONDER_IDS:
        panel = state.panels.get(rid)
        if panel is None:
            updates += ["", "not selected"]
            continue
        status = panel.summary()
        if rid in state.safety:
            result = state.safety[rid]
            status += f"\n\n**Safety screen: {result.badge()}**"
            if result.concerns or result.uncertain:
                status += f"<br><small>{result.explain()}</small>"
        if rid in state.opinions:
            opinion = state.opinions[rid]
            status += f"\n\n*{opinion.badge()}*"
            if opinion.reason and opinion.reply_safe is not None:
                status += f"<br><small>{opinion.reason}</small>"
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

    ``rest`` holds the key boxes, then (optionally) the six judge controls and the
    second-opinion box (the local safety judge reads every reply too; off by default).
    Each update is yielded as it happens, so text reaches the browser while
    the replies are still being written.
    """
    if not selected:
        raise ValueError("Tick at least one responder.")
    key_values, judge_values = rest[: len(KEY_ENV_VARS)], rest[len(KEY_ENV_VARS) :]
    second = bool(judge_values[6]) if len(judge_values) > 6 else False
    judge_values = judge_values[:6]
    keys = typed_keys(*key_values)
    options = judge_options(*judge_values) if len(judge_values) == 6 else {}  # type: ignore[arg-type]
    responders = [get_responder(rid) for rid in selected if rid in RESPONDER_IDS]
    scorers = [
        get_scorer(sid, keys=keys, **options) for sid in scorer_ids or [] if sid in SCORER_IDS
    ]
    started = time.monotonic()
    try:
        moments = stream_comparison(
            message,
            responders,
            scorers,
            system=system,
            max_tokens=int(max_tokens),
            temperature=float(temperature),
            keys=keys,
            second_opinion=safety_judge().with_keys(keys) if second else None,  # type: ignore[arg-type]
        )
        first = next(moments)
    except InputError as exc:
        raise ValueError(str(exc)) from None
    shown_scores = -1
    state = first
    for state in itertools.chain([first], moments):  # lazily: never wait for the whole comparison
        fresh = len(state.scores) != shown_scores
        shown_scores = len(state.scores)
        yield _moment_updates(state, time.monotonic() - started, with_scores=fresh)
    yield _moment_updates(state, time.monotonic() - started, with_scores=True, final=True)


def _moment_updates(
    state: Comparison, elapsed: float, *, with_scores: bool, final: bool = False
) -> list[object]:
    """Component updates for one moment of a comparison (scores redrawn only when asked)."""
    saved: dict[str, dict] = {
        "replies": {rid: p.reply.to_dict() for rid, p in state.panels.items() if p.reply},
        "scores": {},
    }
    for (rid, _), score in state.scores.items():
        saved["scores"].setdefault(rid, []).append(score.to_dict())
    for rid, result in state.safety.items():  # a flag keeps the safety screen beside the scores
        saved["scores"].setdefault(rid, []).append(safety_entry(result))
    if with_scores:
        cut = frozenset(r for r, p in state.panels.items() if p.reply and p.reply.cut_off)
        badges = {rid: result.badge() for rid, result in state.safety.items()}
        table: object = score_rows(state.scores, names, cut, badges)
        marked = safety_marked(names, state.safety)
        plots: list[object] = [
            radar_by_scorer(state.scores, marked),
            radar_by_responder(state.scores, marked),
        ]
    else:
        table, plots = gr.skip(), [gr.skip(), gr.skip()]
    progress = ("Done. " if final else "Working… ") + state.describe(elapsed)
    return [*_panel_updates(state), table, *plots, progress, saved]


def _inputs() -> tuple[gr.components.Component, ...]:
    with gr.Row():
        with gr.Column(scale=3):
            picker = gr.Dropdown(
                choices=[q.choice_label for q in load_questions()],
                value=None,
                label="Pick a bundled question (CounselChat; these also get a therapist's answer)",
            )
            message = gr.Textbox(
                label="…or paste a message or a personal story",
                lines=5,
                placeholder="I haven't been sleeping since my mother died…",
            )
        with gr.Column(scale=2):
            selected = gr.CheckboxGroup(
                choices=responder_choices(),
                value=default_selection(),
                label="Who replies",
                info="Cloud models need a key (see API keys below).",
            )
            with gr.Row():
                run = gr.Button("Get replies", variant="primary")
                stop = gr.Button("Stop", variant="secondary")
            with gr.Accordion(
                "Who scores the replies (the empathy head; judges one click away)", open=False
            ):
                ticked, why = ticked_by_default(DEFAULT_SCORERS)
                scorer_box = gr.CheckboxGroup(
                    choices=[(scorer_label(s), s) for s in SCORER_IDS],
                    value=ticked,
                    show_label=False,
                    info="Cloud judges need their key.",
                )
                gr.Markdown(why)
    picker.change(question_text, picker, message, api_name=False)
    return message, selected, scorer_box, run, stop


def _scores() -> tuple[gr.Markdown, gr.Dataframe, gr.Plot, gr.Plot]:
    """The scores section: what the numbers mean, cautions, the table and both radars."""
    gr.Markdown("### Scores\n" + SCORES_HELP + "\n\n" + SAFETY_HELP)
    cautions = gr.Markdown(
        judge_cautions(ticked_by_default(DEFAULT_SCORERS)[0]), elem_id="scorer-cautions"
    )
    scroll_cue()
    table = gr.Dataframe(
        headers=SCORE_COLUMNS,
        interactive=False,
        wrap=True,
        column_widths=["130px", "150px", "95px", "95px", "100px", "80px", "170px", "90px", "300px"],
    )
    by_scorer = gr.Plot(label="By scorer")
    gr.Markdown(RADAR_CAPTION + " Colours stay the same for each responder on every chart.")
    by_responder = gr.Plot(label="By responder")
    gr.Markdown(RADAR_CAPTION + " Here each colour is a scorer: shapes that overlap agree.")
    return cautions, table, by_scorer, by_responder


def _sampling() -> tuple[gr.Textbox, gr.Slider, gr.Slider]:
    with gr.Accordion("Prompt and sampling", open=False):
        system = gr.Textbox(value=DEFAULT_SYSTEM_PROMPT, label="System prompt", lines=3)
        with gr.Row():
            max_tokens = gr.Slider(16, 2048, value=DEFAULT_MAX_TOKENS, step=16, label="Max tokens")
            temperature = gr.Slider(
                0.0, 2.0, value=DEFAULT_TEMPERATURE, step=0.05, label="Temperature"
            )
    return system, max_tokens, temperature


def build() -> gr.Blocks:
    """Build the compare page."""
    with gr.Blocks(title="Empathy Lab · Compare") as page:
        gr.Markdown(
            "## Compare replies\nPick or paste a message; every ticked responder answers at "
            "once and each reply is scored on the empathy rubric."
        )
        message, selected, scorer_box, run, stop = _inputs()
        progress = gr.Markdown("", elem_id="compare-progress")
        columns, outputs, flags = reply_panels()
        cautions, score_table, by_scorer, by_responder = _scores()
        system, max_tokens, temperature = _sampling()
        judge_boxes = judge_controls()
        second_opinion = gr.Checkbox(
            value=False,
            label="Second opinion on safety from the local LLM judge (slow: 5–20 s a reply; "
            "a screen too, not a clinical judgement)",
        )
        keys_in, _ = key_boxes()
        replies = gr.State({})

        selected.change(panel_visibility, selected, columns, api_name=False)
        scorer_box.change(judge_cautions, scorer_box, cautions, api_name=False)
        for box in keys_in:
            box.change(refresh_choices, keys_in, selected, api_name=False)
        outputs = [*outputs, score_table, by_scorer, by_responder, progress, replies]
        # The replies appear below the inputs: bring them into view as soon as work starts.
        run.click(None, js=SCROLL_TO_PROGRESS)
        event = run.click(
            # A refusal (empty or too long message, nothing ticked) stays in the progress line.
            reports_problems(len(outputs) - 1, at=outputs.index(progress))(run_compare),
            [
                message,
                selected,
                scorer_box,
                system,
                max_tokens,
                temperature,
                *keys_in,
                *judge_boxes,
                second_opinion,
            ],
            outputs,
            api_name="compare",
            concurrency_limit=4,
        )
        stop.click(lambda: "Stopped.", None, progress, cancels=[event], api_name=False)
        for rid, (note, button, flag_status) in flags.items():
            button.click(
                lambda state, text, *keys, rid=rid: flag_reply(rid, state, text, *keys),
                [replies, note, *keys_in],
                flag_status,
                api_name=f"flag_{rid.split('/')[0].replace('-', '_')}",
            )
    return page


demo = build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
