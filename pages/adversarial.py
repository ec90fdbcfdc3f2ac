"""Adversarial lab: perturb a reply, watch every score move; robustness over many replies.

Runs alone with ``python -m pages.adversarial``. Fast by default: fixed-rule
rewrites and the empathy head (about a second on a CPU); LLM rewrites and the
local judge are one tick away, with their cost stated. The bundled examples
show precomputed results at once and are recomputed live on request.
"""

from __future__ import annotations

import json

import gradio as gr
import plotly.graph_objects as go

from config import BUNDLED_DATA_DIR
from core.conversation import parse_conversation
from core.flags import FlagLog, FlagLogError, FlagRecord
from core.textinput import InputError, clean_text
from pages.widgets.notice import reports_problems
from pages.widgets.progress import gradio_progress
from pages.widgets.robustness_report import report_section
from pages.widgets.scores import names
from perturbations.registry import PERTURBATIONS, resolve
from reports.lab import change_chart, lab_table, same_score_note
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
    try:
        reply = clean_text(reply, limit=20_000, what="reply")
    except InputError as exc:
        raise gr.Error(str(exc)) from None
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
    return _lab_outputs(originals, rows, message, note)


def at_the_top(originals: dict[str, Score]) -> str:
    """A sentence naming the scorers that rated the original at the top already ('' if none).

    >>> at_the_top({"s": Score.from_components("s", 3, 3, 3)})[:48]
    ' s rated the original 3 (the top of the scale): '
    >>> at_the_top({"s": Score.from_components("s", 3, 2, 3)})
    ''
    """
    top = [sid for sid, score in originals.items() if score.ok and score.overall >= 3 - 1e-9]
    if not top:
        return ""
    return (
        f" {', '.join(names(s) for s in top)} rated the original 3 (the top of the scale): "
        "a score there cannot rise, so a +0.00 for *judge-injection* says nothing about "
        "resisting it. Try a reply scored lower."
    )


def _lab_outputs(
    originals: dict[str, Score], rows: list[rb.VariantScores], message: str, note: str
) -> tuple[str, go.Figure, list[dict], gr.Dropdown, str]:
    """Table, chart, flaggable rows, the row picker and the note for one lab result. The note
    says why a variant that changed nothing is left out, and names a scorer that gave every
    version the same score, with its reasons."""
    shown = [row for row in rows if not _why_unchanged(row)]
    state = [
        {
            "variant": row.variant.to_dict(),
            "message": message,
            "scores": [c.after.to_dict() for c in row.changes.values()],
        }
        for row in shown
    ]
    choices = [row.variant.perturbation_id for row in shown]
    return (
        lab_table(originals, shown, names),
        change_chart(shown, names),
        state,
        gr.Dropdown(choices=choices, value=choices[0] if choices else None),
        note + same_score_note(originals, shown, names) + nothing_to_measure(rows),
    )


def _why_unchanged(row: rb.VariantScores) -> str:
    perturbation = PERTURBATIONS.get(row.variant.perturbation_id)
    return perturbation.why_unchanged(row.variant) if perturbation else ""


def nothing_to_measure(rows: list[rb.VariantScores]) -> str:
    """Plain words for each variant that cannot show a change: one that left the reply word
    for word as it was (it is left out of the table and chart), or one that left nothing.

    >>> from perturbations.registry import get_perturbation
    >>> row = rb.VariantScores(get_perturbation("strip-empathy")("Book it by Friday.", seed=0), {})
    >>> print(nothing_to_measure([row]))
    <BLANKLINE>
    <BLANKLINE>
    *strip-empathy* changed nothing, so it is not in the table or the chart: this reply has no empathic language to remove.
    """
    said = []
    for row in rows:
        pid = row.variant.perturbation_id
        perturbation = PERTURBATIONS.get(pid)
        if perturbation is None:
            continue
        if why := perturbation.why_unchanged(row.variant):
            said.append(f"*{pid}* changed nothing, so it is not in the table or the chart: {why}.")
        elif why := perturbation.why_empty(row.variant):
            said.append(f"*{pid}* left nothing of the reply, so its row is unscored: {why}.")
    return "".join(f"\n\n{line}" for line in said)


def flag_row(rows: list[dict], perturbation_id: str, note: str) -> str:
    """Append one lab row (variant, seed, method, scores) to the flag log."""
    row = next((r for r in rows or [] if r["variant"]["perturbation_id"] == perturbation_id), None)
    if row is None:
        return "Run the lab first, then pick a row to flag."
    variant = row["variant"]
    record = FlagRecord(
        page="adversarial",
        message=row["message"],
        reply=variant["text"],
        scores=row["scores"],
        perturbation_id=variant["perturbation_id"],
        perturbation_seed=variant["seed"],
        perturbation_method=variant["method"],
        original_reply=variant["source"],
        note=note or "",
    )
    try:
        FlagLog().append(record)
    except FlagLogError as exc:
        raise gr.Error(str(exc)) from None
    return f"Flagged the `{perturbation_id}` row. See the Flags tab."


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
        *_lab_outputs(originals, rows, example["message"], note),
    )


def _lab_section() -> None:
    """One reply perturbed every way, its table, chart and flag row."""
    with gr.Row():
        with gr.Column(scale=3):
            example = gr.Dropdown(example_names(), value=None, label="Example reply")
            reply = gr.Textbox(label="Reply", lines=6)
            message = gr.Textbox(
                label="The message it answers, or the conversation before it (optional)",
                info="A conversation: 'Seeker:' / 'Supporter:' lines ending on the seeker; "
                "the reply is perturbed as the next turn and the conversation stays as it is.",
                lines=2,
            )
        with gr.Column(scale=2):
            perturbation_box = gr.CheckboxGroup(
                list(PERTURBATIONS), value=list(PERTURBATIONS), label="Perturbations"
            )
            scorer_box = gr.CheckboxGroup(
                [(names(s), s) for s in SCORER_CHOICES],
                value=["bert-head"],
                label="Scorers",
                info="The empathy head takes about a second; the local judge about "
                "10–30 s per text on a CPU (12 texts: several minutes).",
            )
            with gr.Row():
                seed = gr.Number(0, precision=0, label="Seed (same seed, same variants)")
                rewriter = gr.Dropdown(
                    REWRITER_CHOICES,
                    value=RULES_ONLY,
                    label="Rewrites (shortened, elevated, casual) by",
                )
            with gr.Row():
                run = gr.Button("Perturb and score", variant="primary")
                stop = gr.Button("Stop", variant="secondary")
    lab_note = gr.Markdown()
    # The chart first (the summary, then the table's detail), and the run's progress shown
    # on it alone: every output drew its own progress line, and the empty note's and
    # table's, having no height, overlapped each other on the chart's top edge.
    chart = gr.Plot(label="Change in overall score per perturbation")
    table = gr.HTML()
    rows_state = gr.State([])
    with gr.Row():
        flag_pick = gr.Dropdown([], label="Row to flag")
        flag_note = gr.Textbox(label="Note (optional)")
        flag_button = gr.Button("Flag this row")
    flag_status = gr.Markdown()
    shown = [table, chart, rows_state, flag_pick, lab_note]
    example.change(pick_example, example, [reply, message, *shown], api_name=False)
    lab_event = run.click(
        reports_problems(len(shown) - 1, at=shown.index(lab_note))(run_lab),
        [reply, message, perturbation_box, scorer_box, seed, rewriter],
        shown,
        api_name="lab",
        show_progress_on=[chart],
    )
    stop.click(
        lambda: "Stopped: nothing was kept from this run.",
        None,
        lab_note,
        cancels=[lab_event],
        api_name=False,
    )
    flag_button.click(
        flag_row, [rows_state, flag_pick, flag_note], flag_status, api_name="flag_lab_row"
    )


def build() -> gr.Blocks:
    """Build the adversarial page."""
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
        _lab_section()
        report_section(SCORER_CHOICES)
    return page


demo = build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
