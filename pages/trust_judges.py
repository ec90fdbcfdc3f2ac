"""The Trust page's judge tabs: pairwise judging in both orders, and a panel of judges.

Every number comes from :mod:`studies.pairwise` and :mod:`studies.panel`.
"""

from __future__ import annotations

import textwrap

import gradio as gr
import pandas as pd

from core.numbers import fmt
from pages.widgets.api_names import KEYS, named
from pages.widgets.keys import typed_keys
from pages.widgets.names import responder_choices, responder_name, scorer_choices
from pages.widgets.notice import notice_box, reports_problems, scroll_cue, with_notice
from pages.widgets.pace import judging_time
from pages.widgets.progress import gradio_progress
from pages.widgets.trust import (
    TABLE_HEADERS,
    checked_scorer,
    fit_after,
    labelled_set,
    meanings,
    result_table,
    table_frame,
)
from responders.registry import LOCAL_DEFAULT, THERAPIST, default_responder_ids
from scorers.registry import SAMPLED_JUDGE, sampled_judge_ids
from studies import alignment, panel
from studies.labelled import bundled_choices, unseen_by

#: Gradio fills a parameter whose default is a gr.Progress with the request's progress bar.
_PROGRESS = gr.Progress()
BIAS_HEADERS = ["component", "flip rate", "first shown wins", "longer wins", "final verdicts"]
RANK_HEADERS = ["rank", "item", "strength", "low", "high", "wins", "losses"]
PAIR_HEADERS = [
    "question",
    "first reply",
    "second reply",
    "cognitive",
    "emotional",
    "behavioral",
    "overall",
    "problem",
]
PANEL_HEADERS = [
    "component",
    "panel mean",
    "mean sd between judges",
    "mean range",
    "share split by ≥ 1 point",
]


def _verdict_counts(final: dict[str, int]) -> str:
    """``{"a": 2, "inconsistent": 1}`` → "first reply better 2, inconsistent 1"."""
    words = {"a": "first reply better", "b": "second reply better", "tie": "tie"}
    return ", ".join(f"{words.get(k, k)} {n}" for k, n in sorted(final.items())) or "none"


def _ranking_frame(ranking: list[dict]) -> pd.DataFrame:
    """The Bradley–Terry table with readable names, two decimals, '–' where no interval exists."""
    rows = [
        {
            "rank": r["rank"],
            "item": responder_name(r["item"]),
            "strength": fmt(r["strength"], 2),
            "low": fmt(r["low"], 2),
            "high": fmt(r["high"], 2),
            "wins": r["wins"],
            "losses": r["losses"],
        }
        for r in ranking
    ]
    return pd.DataFrame(rows, columns=RANK_HEADERS)


def _pairs_frame(rows: list[dict]) -> pd.DataFrame:
    """Every pair: who, the agreed verdict per component, or the error."""
    out = [
        {
            "question": textwrap.shorten(r["message"], 160, placeholder=" …"),
            "first reply": responder_name(r["reply_a_source"]),
            "second reply": responder_name(r["reply_b_source"]),
            **{n: r[f"{n}_final"] for n in ("cognitive", "emotional", "behavioral", "overall")},
            "problem": r["error"],
        }
        for r in rows
    ]
    return pd.DataFrame(out, columns=PAIR_HEADERS)


def run_pairwise(judge_id, responder_ids, n, *keys, progress=_PROGRESS):  # type: ignore[no-untyped-def]
    """Replies to the first ``n`` bundled questions, every pair judged in both orders."""
    from core.questions import load_questions
    from scorers.judge.pairwise import PairwiseJudge
    from scorers.registry import judge_responder
    from studies.pairwise import run_pairwise as study
    from studies.replies import collect_replies

    if len(responder_ids or []) < 2:
        raise gr.Error("Pick at least two responders.")
    session_keys = typed_keys(*keys)
    judge = PairwiseJudge(judge_responder(judge_id), keys=session_keys)
    reason = judge.unavailable_reason()
    if reason:
        raise gr.Error(f"{judge_id} cannot judge now: {reason}")
    messages = [q.question for q in load_questions()[: int(n)]]
    report = gradio_progress(progress)
    collected = collect_replies(messages, list(responder_ids), 300, report, keys=session_keys)
    result = study(messages, collected.replies, judge, progress=report)
    bias = pd.DataFrame(
        [
            {
                "component": k,
                "flip rate": fmt(v["flip_rate"], 2),
                "first shown wins": fmt(v["first_wins"], 2),
                "longer wins": fmt(v["longer_wins"], 2),
                "final verdicts": _verdict_counts(v["final"]),
            }
            for k, v in result["summary"].items()
        ],
        columns=BIAS_HEADERS,
    )
    note = f"{len(result['rows'])} pairs judged in both orders."
    if any(r["low"] != r["low"] for r in result["ranking"]):  # NaN: no interval
        note += " '–' in low/high: too few agreed verdicts for an interval."
    if collected.failures:
        note += " Left out: " + "; ".join(collected.failures)
    return note, bias, _ranking_frame(result["ranking"]), _pairs_frame(result["rows"])


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
            "panel mean": fmt(s["panel_mean"], 2),
            "mean sd between judges": fmt(s["mean_sd"], 2),
            "mean range": fmt(s["mean_range"], 2),
            "share split by ≥ 1 point": fmt(s["split_share"], 2),
            **{j: fmt(m, 2) for j, m in s["judge_means"].items()},
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
            pjudge = gr.Radio(  # a long name wraps here; a dropdown cut it off on a phone
                scorer_choices(s for s in scorers if s in sampled_judge_ids()),
                value=SAMPLED_JUDGE,
                label="Judge",
            )
            presp = gr.CheckboxGroup(
                responder_choices(default_responder_ids()),
                value=[THERAPIST, LOCAL_DEFAULT],
                label="Responders",
            )
            pn = gr.Slider(1, 20, value=2, step=1, label="Bundled questions")
        go_pair = gr.Button("Compare in both orders", variant="primary")
        notice = notice_box()
        scroll_cue()
        bias, ranking, pair_rows = (
            result_table(BIAS_HEADERS, "Position and length bias"),
            result_table(
                RANK_HEADERS,
                "Bradley–Terry ranking from agreed verdicts (strength: log-odds, mean 0; "
                "low–high: 95 % bootstrap interval)",
            ),
            result_table(PAIR_HEADERS, "Every pair"),
        )
    judged = go_pair.click(
        named(reports_problems(3)(run_pairwise), "judge_id", "responder_ids", "n", *KEYS),
        [pjudge, presp, pn, *keys],
        [notice, bias, ranking, pair_rows],
        api_name="pairwise",
    )
    fit_after(judged, [bias, ranking, pair_rows])


def panel_tab(scorers: list[str], keys: list[gr.Textbox]) -> None:
    """The "Judge panel" tab and its event."""
    with gr.Tab("Judge panel") as tab:
        gr.Markdown(
            "Several judges on the same replies: their mean per component and how far apart they are."
        )
        with gr.Row():
            pj = gr.CheckboxGroup(scorer_choices(scorers), value=["bert-head"], label="Judges")
            psource = gr.Radio(bundled_choices(), value="welivita", label="Labelled replies")
            psample = gr.Number(value=10, precision=0, label="Sample size")
        timing = gr.Markdown()
        go_panel = gr.Button("Run the panel", variant="primary")
        notice = notice_box()
        scroll_cue()
        panel_table, panel_align = (
            result_table(PANEL_HEADERS, "Panel"),
            result_table(TABLE_HEADERS, "Panel mean against people"),
        )
        meanings()
    paneled = go_panel.click(
        named(with_notice(run_panel, 2), "judge_ids", "source", "sample", *KEYS),
        [pj, psource, psample, *keys],
        [notice, panel_table, panel_align],
        api_name="panel",
    )
    fit_after(paneled, [panel_table, panel_align])
    for box in (pj, psample):
        box.change(
            lambda judges, n: judging_time(judges or [], int(n or 0)),
            [pj, psample],
            timing,
            api_name=False,
            show_progress="hidden",
        )
    # The sets are read again on opening the tab: a rating saved on Compare counts at once.
    tab.select(
        lambda: gr.update(choices=bundled_choices()),
        None,
        psource,
        api_name=False,
        show_progress="hidden",
    )
