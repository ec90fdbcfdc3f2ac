"""The Adversarial page's robustness study over many bundled replies: controls and run.

The section builds inside the page's ``gr.Blocks``; :func:`run_report` is its handler
(the heatmap, the table and a CSV file).
"""

from __future__ import annotations

import tempfile

import gradio as gr
import plotly.graph_objects as go

from core.numbers import cell
from core.questions import load_questions
from pages.widgets.progress import gradio_progress
from pages.widgets.scores import names
from perturbations.registry import PERTURBATIONS
from reports.charts import robustness_heatmap
from scorers.base import ScoreItem
from scorers.registry import get_scorer
from studies import robustness as rb

COLUMNS = ["perturbation", "scorer", "component", "mean Δ", "mean |Δ|", "share moved > 0.25", "n"]


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
            cell(r["mean_change"], 3),
            cell(r["mean_abs_change"], 3),
            cell(r["share_overall_moved"], 2),
            r["n"],
        ]
        for r in report
    ]
    with tempfile.NamedTemporaryFile(suffix="-robustness.csv", delete=False) as fh:
        path = fh.name
    rb.write_report(report, path)
    return fig, table, path


def report_section(scorer_choices: list[str]) -> None:
    """The robustness study over many bundled replies (built inside the page's Blocks)."""
    gr.Markdown("### Robustness over many replies (bundled therapist answers, rule-based rewrites)")
    # The scorers get the page's width: beside the slider, a phone squeezed their long names
    # to a word a line. The slider and seed sit side by side where there is room.
    with gr.Row():
        count = gr.Slider(5, 100, value=20, step=5, label="Replies", min_width=240)
        seed = gr.Number(0, precision=0, label="Seed", min_width=160)
    scorers = gr.CheckboxGroup(
        [(names(s), s) for s in scorer_choices],
        value=["bert-head", "bert-head-raw"],
        label="Scorers",
    )
    with gr.Row():
        run = gr.Button("Run the report")
        stop = gr.Button("Stop", variant="secondary")
    heatmap = gr.Plot()
    table = gr.Dataframe(headers=COLUMNS, interactive=False)
    report_file = gr.File(label="Report (CSV)")
    event = run.click(
        run_report, [count, scorers, seed], [heatmap, table, report_file], api_name="robustness"
    )
    stop.click(None, None, None, cancels=[event], api_name=False)
