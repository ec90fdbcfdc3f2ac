"""Adversarial lab: perturb a reply, watch every score move; robustness over many replies.

Runs alone with ``python -m pages.adversarial``. Fast by default: fixed-rule
rewrites and the empathy head (about a second on a CPU); LLM rewrites and the
local judge are one tick away, with their cost stated. It opens on the first
bundled example; each shows precomputed results at once, recomputed live on request.
"""

from __future__ import annotations

import json

import gradio as gr
import plotly.graph_objects as go

from config import BUNDLED_DATA_DIR
from core.conversation import parse_conversation
from core.textinput import InputError, clean_text
from pages.widgets.api_names import VISITOR, named
from pages.widgets.kept_words import FLAG_KEPT
from pages.widgets.lab_results import at_the_top, flag_row, kept_note, lab_outputs
from pages.widgets.notice import REFUSALS, problem
from pages.widgets.pace import judge_speed
from pages.widgets.progress import gradio_progress
from pages.widgets.robustness_report import report_section
from pages.widgets.scores import names
from pages.widgets.send_to_lab import LabInputs
from pages.widgets.visitor import on_load, visitor_state
from perturbations.registry import PERTURBATIONS, resolve
from responders.registry import default_responder_ids, get_responder
from scorers.base import Score
from scorers.registry import DEFAULT_JUDGE, SAMPLED_JUDGE, get_scorer
from studies import robustness as rb

EXAMPLES = json.loads((BUNDLED_DATA_DIR / "adversarial_examples.json").read_text(encoding="utf-8"))
PRECOMPUTED = json.loads(
    (BUNDLED_DATA_DIR / "adversarial_precomputed.json").read_text(encoding="utf-8")
)
SCORER_CHOICES = [
    "bert-head",
    "bert-head-raw",
    "bert-head+normalize",
    "bert-head-raw+normalize",
    DEFAULT_JUDGE,
    SAMPLED_JUDGE,
    f"{SAMPLED_JUDGE}+normalize",
]
RULES_ONLY = "fixed rules (instant)"
#: The example the lab opens on, its precomputed results shown (:data:`OPENING_SHOWN`).
OPENING = EXAMPLES[0]["name"]
#: What the lab says when the Reply box is empty (it perturbs a reply, not a question).
EMPTY_REPLY = "The reply is empty: paste the reply to perturb in the Reply box."
#: ``/lab``'s parameters (the last, the rows on screen, a state the API does not show).
LAB_NAMES = ("reply", "message", "perturbations", "scorers", "seed", "rewriter", "rows_shown")
REWRITER_CHOICES = [
    (RULES_ONLY, RULES_ONLY),
    *(
        (f"{get_responder(rid).display_name} (minutes on a CPU)", rid)
        for rid in default_responder_ids()
        if get_responder(rid).can_judge
    ),
]


def _rewriter(choice: str):  # type: ignore[no-untyped-def]
    return rb.find_rewriter(None if choice == RULES_ONLY else choice)[0]


def run_lab(
    reply: str,
    message: str,
    perturbation_ids: list[str],
    scorer_ids: list[str],
    seed: float,
    rewriter: str,
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
) -> tuple[str, go.Figure, list[dict], gr.Dropdown, str]:
    """Perturb the reply, score everything, and return the table, chart, rows and a note."""
    reply = _checked_reply(reply)
    if not perturbation_ids:
        raise gr.Error("Pick at least one perturbation.")
    if not scorer_ids:
        raise gr.Error("Pick at least one scorer.")
    try:  # a conversation stays as it is: only the reply (its next turn) is perturbed
        said = parse_conversation(message) if message.strip() else None
    except InputError as exc:
        raise gr.Error(str(exc)) from None
    progress(0.05, desc="perturbing (LLM rewrites take minutes on a CPU)")
    scorers = [get_scorer(s) for s in scorer_ids]
    originals, rows = rb.perturb_one(
        reply,
        said.message if said else None,
        resolve(",".join(perturbation_ids)),
        scorers,
        seed=int(seed),
        rewriter=_rewriter(rewriter),
        progress=gradio_progress(progress),
        history=said.history if said else (),
    )
    progress(1.0, desc="done")
    note = f"Computed live: seed {int(seed)}, {len(rows)} perturbations." + at_the_top(originals)
    return lab_outputs(originals, rows, message, note)


def _checked_reply(reply: str) -> str:
    """The reply cleaned, or gr.Error saying what to paste (a reply, never "a question")."""
    try:
        return clean_text(reply, limit=20_000, what="reply")
    except InputError as exc:
        empty = str(exc).startswith("The reply is empty")
        raise gr.Error(EMPTY_REPLY if empty else str(exc)) from None


def lab_on_page(
    *inputs: object,
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
) -> tuple[object, ...]:
    """:func:`run_lab` as the Perturb button runs it: its last input is the rows of the
    result on screen (None before any). A refusal leaves the chart and table as they are
    and says why in the note above them; when a result is on screen, it says plainly that
    it is the previous one, so it is never read as the answer to the new request."""
    *arguments, shown = inputs
    try:
        return run_lab(*arguments, progress=progress)  # type: ignore[arg-type]
    except REFUSALS as exc:
        return (gr.skip(),) * 4 + (kept_note(problem(exc), shown),)


def example_names() -> list[str]:
    """Names of the bundled example replies."""
    return [e["name"] for e in EXAMPLES]


def pick_example(name: str) -> tuple[object, ...]:
    """A bundled example's reply and message, with its precomputed results shown at once."""
    example = next((e for e in EXAMPLES if e["name"] == name), None)
    done = PRECOMPUTED.get(name)
    if example is None or done is None:
        return (gr.skip(),) * 7
    originals = {sid: Score.from_dict(d) for sid, d in done["originals"].items()}
    rows = [rb.VariantScores.from_dict(r) for r in done["rows"]]
    note = (
        f"Precomputed (fixed rules, {names(done['scorer'])}, seed {done['seed']}). "
        "Press **Perturb and score** to recompute live with your settings."
    ) + at_the_top(originals)
    return (
        example["reply"],
        example["message"],
        *lab_outputs(originals, rows, example["message"], note),
    )


def opening_shown() -> dict[str, object]:
    """The lab's first look, as its boxes' starting values: the :data:`OPENING` example's
    reply, message, table, chart, flaggable rows and note. Starting values, not a load
    event: the page alone and as a tab of app.py's app open filled, and what a visitor types
    at once is never overwritten by a late load. Made once at import, outside any page (the
    row picker :func:`pick_example` makes would be drawn on a page being built)."""
    reply, message, table, chart, rows, _picker, note = pick_example(OPENING)
    fields = ("reply", "message", "table", "chart", "rows", "note")
    return dict(zip(fields, (reply, message, table, chart, rows, note), strict=True))


def _lab_section(visitor: gr.BrowserState) -> LabInputs:
    """One reply perturbed every way, its table, chart and flag row (flags are ``visitor``'s);
    returns what another page may fill (:data:`LAB_INPUTS`). It opens on :data:`OPENING`."""
    first = OPENING_SHOWN
    with gr.Row():
        with gr.Column(scale=3):
            example, reply, message = _lab_reply(first)
        with gr.Column(scale=2):
            settings, run, stop = _lab_settings()
    lab_note = gr.Markdown(first["note"])
    # The chart first (the summary, then the table's detail), and the run's progress shown
    # on it alone: every output drew its own progress line, and the empty note's and
    # table's, having no height, overlapped each other on the chart's top edge.
    chart = gr.Plot(first["chart"], label="Change in overall score per perturbation")
    table = gr.HTML(first["table"])
    rows_state = gr.State(first["rows"])  # the shown result's flaggable rows (None: none)
    picks = [row["variant"]["perturbation_id"] for row in first["rows"]]  # type: ignore[union-attr]
    with gr.Row(equal_height=True):  # the button as tall as the boxes beside it
        flag_pick = gr.Dropdown(picks, value=(picks or [None])[0], label="Row to flag")
        flag_note = gr.Textbox(label="Note (optional)", info=FLAG_KEPT)
        flag_button = gr.Button("Flag this row")
    flag_status = gr.Markdown()
    shown = [table, chart, rows_state, flag_pick, lab_note]
    example.change(pick_example, example, [reply, message, *shown], api_name=False)
    lab_event = run.click(
        named(lab_on_page, *LAB_NAMES),
        [reply, message, *settings, rows_state],
        shown,
        api_name="lab",
        show_progress_on=[chart],
    )
    stop.click(
        lambda: "Stopped: nothing was kept from this run (a chart below is the run before).",
        None,
        lab_note,
        cancels=[lab_event],
        api_name=False,
    )
    flag_button.click(
        named(flag_row, "rows_shown", "perturbation_id", "note", VISITOR),
        [rows_state, flag_pick, flag_note, visitor],
        flag_status,
        api_name="flag_lab_row",
    )
    return LabInputs(example, reply, message, lab_note, rows_state)


def _lab_reply(first: dict[str, object]) -> tuple[gr.Dropdown, gr.Textbox, gr.Textbox]:
    """The example picker, the reply and the message it answers, filled with ``first``."""
    example = gr.Dropdown(example_names(), value=OPENING, label="Example reply")
    reply = gr.Textbox(first["reply"], label="Reply", lines=6)
    message = gr.Textbox(
        first["message"],
        label="The message it answers, or the conversation before it (optional)",
        info="A conversation: 'Seeker:' / 'Supporter:' lines ending on the seeker; "
        "the reply is perturbed as the next turn and the conversation stays as it is.",
        lines=2,
    )
    return example, reply, message


def _lab_settings() -> tuple[list[gr.components.Component], gr.Button, gr.Button]:
    """The perturbations, scorers, seed and rewriter (in :func:`run_lab`'s order), and the
    Perturb and Stop buttons."""
    perturbation_box = gr.CheckboxGroup(
        list(PERTURBATIONS), value=list(PERTURBATIONS), label="Perturbations"
    )
    scorer_box = gr.CheckboxGroup(
        [(names(s), s) for s in SCORER_CHOICES],
        value=["bert-head"],
        label="Scorers",
        info="The empathy head takes about a second. " + judge_speed(1 + len(PERTURBATIONS)),
    )
    with gr.Row():  # each wide enough for its label: on a phone they stack
        seed = gr.Number(0, precision=0, label="Seed (same seed, same variants)", min_width=260)
        rewriter = gr.Dropdown(
            REWRITER_CHOICES,
            value=RULES_ONLY,
            label="Rewrites (shortened, elevated, casual) by",
            min_width=300,
        )
    with gr.Row():
        run = gr.Button("Perturb and score", variant="primary")
        stop = gr.Button("Stop", variant="secondary")
    return [perturbation_box, scorer_box, seed, rewriter], run, stop


def build() -> gr.Blocks:
    """Build the adversarial page."""
    return _build()[0]


def _build() -> tuple[gr.Blocks, LabInputs]:
    """The adversarial page, and the boxes Compare's replies are sent to."""
    with gr.Blocks(title="Empathy Lab · Adversarial") as page:
        gr.Markdown(
            "## Adversarial lab\nPerturb a reply in ways that keep its meaning (and two "
            "controls that should not) and see how each scorer's Cognitive, Emotional, "
            "Behavioral and overall scores move. A good scorer holds still on the first "
            "nine, falls for *strip-empathy* (and on Cognitive for *wrong-message*), and does "
            "not rise for *judge-injection*. A score already at the top of the scale (3) "
            "cannot rise, so *judge-injection* tells you something only about a reply scored "
            "below 3: the *Formulaic positivity* example starts low (the local judge gave it "
            "1/1/1), leaving the injection room to lift it."
        )
        visitor = visitor_state()
        on_load(page, visitor)
        lab = _lab_section(visitor)
        report_section(SCORER_CHOICES)
    return page, lab


#: What the lab opens on (:func:`opening_shown`).
OPENING_SHOWN = opening_shown()
#: The page, and its boxes a reply on Compare is sent to (:mod:`pages.widgets.send_to_lab`).
demo, LAB_INPUTS = _build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
