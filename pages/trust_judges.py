"""The Trust page's judge tabs: pairwise judging in both orders, and a panel of judges.

Every number comes from :mod:`studies.pairwise` and :mod:`studies.panel`.
"""

from __future__ import annotations

import gradio as gr
import pandas as pd

from config import SETTINGS
from pages.widgets.keys import typed_keys
from pages.widgets.progress import gradio_progress
from pages.widgets.trust import TABLE_HEADERS, checked_scorer, labelled_set, table_frame
from reports import alignment as charts
from responders.registry import default_responder_ids
from scorers.registry import SAMPLED_JUDGE
from studies import alignment, panel
from studies.labelled import BUNDLED, unseen_by

#: Gradio fills a parameter whose default is a gr.Progress with the request's progress bar.
_PROGRESS = gr.Progress()
BIAS_HEADERS = ["component", "flip rate", "first shown wins", "longer wins", "final verdicts"]
RANK_HEADERS = ["rank", "item", "strength", "low", "high", "wins", "losses"]
PANEL_HEADERS = [
    "component",
    "panel mean",
    "mean sd between judges",
    "mean range",
    "share split by ≥ 1 point",
]


def run_pairwise(judge_id, responder_ids, n, *keys, progress=_PROGRESS):  # type: ignore[no-untyped-def]
    """Replies to the first ``n`` bundled questions, every pair judged in both orders."""
    from commands.pairwise import collect_replies, judge_responder
    from core.questions import load_questions
    from scorers.judge.pairwise import PairwiseJudge
    from studies.pairwise import run_pairwise as study

    if len(responder_ids or []) < 2:
        raise gr.Error("Pick at least two responders.")
    judge = PairwiseJudge(judge_responder(judge_id), keys=SETTINGS.keys.merged(typed_keys(*keys)))
    reason = judge.unavailable_reason()
    if reason:
        raise gr.Error(f"{judge_id} cannot judge now: {reason}")
    messages = [q.question for q in load_questions()[: int(n)]]
    report = gradio_progress(progress)
    replies = collect_replies(messages, list(responder_ids), 300, report)
    result = study(messages, replies, judge, progress=report)
    bias = pd.DataFrame(
        [
            {
                "component": k,
                "flip rate": charts.fmt(v["flip_rate"], 2),
                "first shown wins": charts.fmt(v["first_wins"], 2),
                "longer wins": charts.fmt(v["longer_wins"], 2),
                "final verdicts": str(v["final"]),
            }
            for k, v in result["summary"].items()
        ]
    )
    ranking = pd.DataFrame(result["ranking"], columns=RANK_HEADERS)
    return bias, ranking, pd.DataFrame(result["rows"])


def run_panel(judge_ids, source, sample, *keys, progress=_PROGRESS):  # type: ignore[no-untyped-def]
    """Several judges on a bundled sample: their means, spread, and the panel mean's agreement."""
    if not judge_ids:
        raise gr.Error("Pick at least one judge.")
    scorers = [checked_scorer(j, keys) for j in judge_ids]
    data = labelled_set(source, None, "", "1:3", sample or 20, scorers[0].rubric_id)
    try:
        data = unseen_by(data, scorers)
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    result = panel.run_panel(data.items, scorers, progress=gradio_progress(progress))
    rows = [
        {
            "component": n,
            "panel mean": charts.fmt(s["panel_mean"], 2),
            "mean sd between judges": charts.fmt(s["mean_sd"], 2),
            "mean range": charts.fmt(s["mean_range"], 2),
            "share split by ≥ 1 point": charts.fmt(s["split_share"], 2),
            **{j: charts.fmt(m, 2) for j, m in s["judge_means"].items()},
        }
        for n, s in result["summary"].items()
    ]
    values = panel.panel_values(result, list(data.human))
    report = alignment.report_from_values(data, "panel mean", "panel", values, n_boot=200)
    return pd.DataFrame(rows), table_frame(report["components"])


def pairwise_tab(scorers: list[str], keys: list[gr.Textbox]) -> None:
    """The "Pairwise, both orders" tab and its event."""
    with gr.Tab("Pairwise, both orders"):
        gr.Markdown(
            "A judge compares two replies to the same question twice, with their places swapped. A verdict counts only when both orders agree; otherwise it is 'inconsistent'. Flip rate, first-position and longer-reply win shares show position and length bias."
        )
        with gr.Row():
            pjudge = gr.Dropdown(
                [s for s in scorers if s.startswith("judge/")],
                value=SAMPLED_JUDGE,
                label="Judge",
            )
            presp = gr.CheckboxGroup(
                default_responder_ids(),
                value=["human/counselchat", "local/qwen2.5-coder-1.5b"],
                label="Responders",
            )
            pn = gr.Slider(1, 20, value=2, step=1, label="Bundled questions")
        go_pair = gr.Button("Compare in both orders", variant="primary")
        bias, ranking, pair_rows = (
            gr.Dataframe(headers=BIAS_HEADERS, label="Position and length bias"),
            gr.Dataframe(headers=RANK_HEADERS, label="Bradley–Terry ranking (agreed verdicts)"),
            gr.Dataframe(label="Every pair", wrap=True),
        )
    go_pair.click(
        run_pairwise,
        [pjudge, presp, pn, *keys],
        [bias, ranking, pair_rows],
        api_name="pairwise",
    )


def panel_tab(scorers: list[str], keys: list[gr.Textbox]) -> None:
    """The "Judge panel" tab and its event."""
    with gr.Tab("Judge panel"):
        gr.Markdown(
            "Several judges on the same replies: their mean per component and how far apart they are."
        )
        with gr.Row():
            pj = gr.CheckboxGroup(scorers, value=["bert-head"], label="Judges")
            psource = gr.Dropdown(list(BUNDLED), value="welivita", label="Labelled replies")
            psample = gr.Number(value=10, precision=0, label="Sample size")
        go_panel = gr.Button("Run the panel", variant="primary")
        panel_table, panel_align = (
            gr.Dataframe(headers=PANEL_HEADERS, label="Panel", wrap=True),
            gr.Dataframe(headers=TABLE_HEADERS, label="Panel mean against people", wrap=True),
        )
    go_panel.click(
        run_panel, [pj, psource, psample, *keys], [panel_table, panel_align], api_name="panel"
    )
