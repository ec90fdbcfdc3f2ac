"""Adversarial lab: perturb a reply, watch every score move; robustness over many replies.

Runs alone with ``python -m pages.adversarial``.
"""

from __future__ import annotations

import difflib
import html
import json
import tempfile

import gradio as gr
import plotly.graph_objects as go

from config import BUNDLED_DATA_DIR
from pages.widgets.progress import gradio_progress
from reports.charts import robustness_heatmap
from studies import robustness as rb
from core.flags import FlagLog, FlagLogError, FlagRecord
from perturbations.registry import PERTURBATIONS, resolve
from perturbations.rewrite import find_rewriter
from core.questions import load_questions
from responders.registry import default_responder_ids
from scorers.base import ScoreItem
from scorers.registry import DEFAULT_JUDGE, SAMPLED_JUDGE, get_scorer
from core.textinput import InputError, clean_text

EXAMPLES = json.loads((BUNDLED_DATA_DIR / "adversarial_examples.json").read_text(encoding="utf-8"))
SCORER_CHOICES = [
    "bert-head",
    "bert-head-raw",
    "bert-head+normalize",
    "bert-head-raw+normalize",
    DEFAULT_JUDGE,
    SAMPLED_JUDGE,
    f"{SAMPLED_JUDGE}+normalize",
]
RULES_ONLY = "rules only"
REWRITER_CHOICES = [
    RULES_ONLY,
    *(rid for rid in default_responder_ids() if not rid.startswith("human/")),
]


def diff_html(before: str, after: str) -> str:
    """``after`` with inserted text marked and deleted text struck through (escaped)."""
    out = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            out.append(html.escape(after[b0:b1]))
            continue
        if a1 > a0:
            out.append(f"<del style='color:#b00'>{html.escape(before[a0:a1])}</del>")
        if b1 > b0:
            out.append(f"<mark>{html.escape(after[b0:b1])}</mark>")
    return "".join(out).replace("\n", "<br>")


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def lab_table(originals: dict, rows: list[rb.VariantScores]) -> str:
    """The study-style table as HTML: modification, modified text, scores and changes."""
    scorer_ids = list(originals)
    head = "".join(
        f"<th>{html.escape(s)}<br><small>C / E / B / overall (Δ overall)</small></th>"
        for s in scorer_ids
    )
    body = []
    original_cells = "".join(
        f"<td>{' / '.join(_fmt(v) for v in originals[s].components().values())}</td>"
        for s in scorer_ids
    )
    body.append(f"<tr><td><b>original</b></td><td></td><td></td>{original_cells}</tr>")
    for row in rows:
        cells = []
        for s in scorer_ids:
            change = row.changes[s]
            if not change.ok:
                reason = change.after.reason or change.before.reason or "unscored"
                cells.append(f"<td>unscored: {html.escape(reason)}</td>")
                continue
            values = " / ".join(_fmt(v) for v in change.after.components().values())
            delta = change.delta("overall")
            colour = "#b00" if delta < -0.25 else "#070" if delta > 0.25 else "inherit"
            cells.append(f"<td>{values} <b style='color:{colour}'>({delta:+.2f})</b></td>")
        variant = row.variant
        body.append(
            f"<tr><td><b>{html.escape(variant.perturbation_id)}</b></td>"
            f"<td><small>{html.escape(variant.method)}</small></td>"
            f"<td style='max-width:40em'>{diff_html(variant.source, variant.text)}</td>"
            + "".join(cells)
            + "</tr>"
        )
    return (
        "<table><tr><th>modification</th><th>method</th><th>modified text</th>"
        f"{head}</tr>{''.join(body)}</table>"
    )


def change_chart(rows: list[rb.VariantScores]) -> go.Figure:
    """Δ overall per perturbation, one bar per scorer."""
    fig = go.Figure()
    scorer_ids = list(rows[0].changes) if rows else []
    for sid in scorer_ids:
        fig.add_bar(
            name=sid,
            x=[r.variant.perturbation_id for r in rows],
            y=[r.changes[sid].delta("overall") if r.changes[sid].ok else None for r in rows],
        )
    fig.update_layout(
        barmode="group",
        title="Change in overall score per perturbation",
        yaxis_title="Δ overall (after − before)",
        height=420,
    )
    return fig


def _rewriter(choice: str):  # type: ignore[no-untyped-def]
    return find_rewriter(None if choice == RULES_ONLY else choice)[0]


def run_lab(
    reply: str,
    message: str,
    perturbation_ids: list[str],
    scorer_ids: list[str],
    seed: float,
    rewriter: str,
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
) -> tuple[str, go.Figure, list[dict], gr.Dropdown]:
    """Perturb the reply, score everything, and return the table, chart and rows."""
    try:
        reply = clean_text(reply, limit=20_000, what="reply")
    except InputError as exc:
        raise gr.Error(str(exc)) from None
    if not perturbation_ids:
        raise gr.Error("Pick at least one perturbation.")
    if not scorer_ids:
        raise gr.Error("Pick at least one scorer.")
    progress(0.1, desc="perturbing (LLM rewrites take a while on a CPU)")
    scorers = [get_scorer(s) for s in scorer_ids]
    originals, rows = rb.perturb_one(
        reply,
        message.strip() or None,
        resolve(",".join(perturbation_ids)),
        scorers,
        seed=int(seed),
        rewriter=_rewriter(rewriter),
        progress=gradio_progress(progress),
    )
    progress(1.0, desc="done")
    state = [
        {
            "variant": row.variant.to_dict(),
            "message": message,
            "scores": [c.after.to_dict() for c in row.changes.values()],
        }
        for row in rows
    ]
    choices = [row.variant.perturbation_id for row in rows]
    return (
        lab_table(originals, rows),
        change_chart(rows),
        state,
        gr.Dropdown(choices=choices, value=choices[0] if choices else None),
    )


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


def run_report(
    count: float,
    scorer_ids: list[str],
    seed: float,
    progress: gr.Progress = gr.Progress(),  # noqa: B008
) -> tuple[go.Figure, list[list[object]], str]:
    """The robustness report over bundled replies: heatmap, table and a CSV file."""
    if not scorer_ids:
        raise gr.Error("Pick at least one scorer.")
    questions = load_questions()[: int(count)]
    items = [ScoreItem(q.answer, q.question) for q in questions]
    perturbations = list(PERTURBATIONS.values())

    scorers = [get_scorer(s) for s in scorer_ids]
    report = rb.run_robustness(
        items, perturbations, scorers, seed=int(seed), progress=gradio_progress(progress)
    )
    fig = robustness_heatmap(report, f"{len(items)} replies, seed {int(seed)}")
    table = [
        [
            r["perturbation"],
            r["scorer"],
            r["component"],
            round(r["mean_change"], 3),
            round(r["mean_abs_change"], 3),
            round(r["share_overall_moved"], 2),
            r["n"],
        ]
        for r in report
    ]
    with tempfile.NamedTemporaryFile(suffix="-robustness.csv", delete=False) as fh:
        path = fh.name
    rb.write_report(report, path)
    return fig, table, path


def example_names() -> list[str]:
    """Names of the bundled example replies."""
    return [e["name"] for e in EXAMPLES]


def pick_example(name: str) -> tuple[str, str]:
    """(reply, message) of a bundled example."""
    example = next((e for e in EXAMPLES if e["name"] == name), None)
    return (example["reply"], example["message"]) if example else (gr.skip(), gr.skip())


def build() -> gr.Blocks:
    """Build the adversarial page."""
    with gr.Blocks(title="Empathy Lab · Adversarial") as page:
        gr.Markdown(
            "## Adversarial lab\nPerturb a reply in ways that keep its meaning (and two "
            "controls that should not) and see how each scorer's Cognitive, Emotional, "
            "Behavioral and overall scores move. A good scorer holds still on the first "
            "nine, falls for *strip-empathy* (and on Cognitive for *wrong-message*), and does "
            "not rise for *judge-injection*."
        )
        with gr.Row():
            with gr.Column(scale=3):
                example = gr.Dropdown(example_names(), value=None, label="Example reply")
                reply = gr.Textbox(label="Reply", lines=6)
                message = gr.Textbox(label="The message it answers (optional)", lines=2)
            with gr.Column(scale=2):
                perturbation_box = gr.CheckboxGroup(
                    list(PERTURBATIONS), value=list(PERTURBATIONS), label="Perturbations"
                )
                scorer_box = gr.CheckboxGroup(
                    SCORER_CHOICES,
                    value=["bert-head", DEFAULT_JUDGE],
                    label="Scorers (the local judge needs ~10–30 s per text on a CPU)",
                )
                with gr.Row():
                    seed = gr.Number(0, precision=0, label="Seed")
                    rewriter = gr.Dropdown(
                        REWRITER_CHOICES, value=REWRITER_CHOICES[1], label="Rewrites by"
                    )
                run = gr.Button("Perturb and score", variant="primary")
        table = gr.HTML()
        chart = gr.Plot()
        rows_state = gr.State([])
        with gr.Row():
            flag_pick = gr.Dropdown([], label="Row to flag")
            flag_note = gr.Textbox(label="Note (optional)")
            flag_button = gr.Button("Flag this row")
        flag_status = gr.Markdown()

        gr.Markdown(
            "### Robustness over many replies (bundled therapist answers, rule-based rewrites)"
        )
        with gr.Row():
            count = gr.Slider(5, 100, value=100, step=5, label="Replies")
            report_scorers = gr.CheckboxGroup(
                SCORER_CHOICES, value=["bert-head", "bert-head-raw"], label="Scorers"
            )
            report_seed = gr.Number(0, precision=0, label="Seed")
            report_run = gr.Button("Run the report")
        heatmap = gr.Plot()
        report_table = gr.Dataframe(
            headers=[
                "perturbation",
                "scorer",
                "component",
                "mean Δ",
                "mean |Δ|",
                "share moved > 0.25",
                "n",
            ],
            interactive=False,
        )
        report_file = gr.File(label="Report (CSV)")

        example.change(pick_example, example, [reply, message], api_name=False)
        run.click(
            run_lab,
            [reply, message, perturbation_box, scorer_box, seed, rewriter],
            [table, chart, rows_state, flag_pick],
            api_name="lab",
        )
        flag_button.click(
            flag_row, [rows_state, flag_pick, flag_note], flag_status, api_name="flag_lab_row"
        )
        report_run.click(
            run_report,
            [count, report_scorers, report_seed],
            [heatmap, report_table, report_file],
            api_name="robustness",
        )
    return page


demo = build()

if __name__ == "__main__":
    demo.launch()
