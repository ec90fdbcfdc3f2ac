"""Trust: how far can a scorer be trusted? Agreement with people, calibration, pairwise, panel.

Runs alone with ``python -m pages.trust``. Every number comes from
:mod:`studies.alignment`, :mod:`studies.pairwise` and :mod:`studies.panel`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import gradio as gr
import pandas as pd

from commands.align import parse_mapping, parse_scale
from commands.common import read_csv
from config import SETTINGS
from pages.widgets.keys import key_boxes, typed_keys
from pages.widgets.progress import gradio_progress
from reports import alignment as charts
from responders.registry import default_responder_ids
from scorers.calibration import CalibrationError, save_calibration
from scorers.registry import SAMPLED_JUDGE, get_scorer, offered_scorer_ids
from studies import alignment, panel
from studies.labelled import BUNDLED, from_rows, load_bundled, subset, without_ids

EXPLAINER = "\n".join(
    f"- **{k}**: {v}" for k, v in charts.EXPLAIN.items() if k in charts.TABLE_KEYS
)
UPLOAD = "my CSV file"
#: Gradio fills a parameter whose default is a gr.Progress with the request's progress bar.
_PROGRESS = gr.Progress()


def _scorer(scorer_id: str, keys: tuple[str, ...]):  # type: ignore[no-untyped-def]
    try:
        scorer = get_scorer(scorer_id, keys=typed_keys(*keys))
    except (KeyError, CalibrationError) as exc:
        raise gr.Error(str(exc.args[0])) from None
    reason = scorer.unavailable_reason()
    if reason:
        raise gr.Error(f"{scorer_id} cannot run now: {reason}")
    return scorer


def load_data(
    source: str, upload: str | None, mapping: str, scale: str, sample: float, rubric_id: str
):  # type: ignore[no-untyped-def]
    """The labelled set the page's controls describe (gr.Error on bad input)."""
    try:
        if source != UPLOAD:
            return load_bundled(source, int(sample) or None, 0)
        if not upload:
            raise ValueError("upload a CSV file with a 'reply' column and your rating columns")
        pairs = [p.strip() for p in mapping.replace(";", ",").split(",") if p.strip()]
        data = from_rows(
            read_csv(upload),
            parse_mapping(pairs),
            scale=parse_scale(scale.strip()),
            rubric_id=rubric_id,
            name=Path(upload).name,
        )
        return subset(data, int(sample), 0) if sample else data
    except ValueError as exc:
        raise gr.Error(str(exc)) from None


def table_frame(components: dict) -> pd.DataFrame:
    """The statistics table with a plain-language column."""
    rows = charts.table_rows(components)
    frame = pd.DataFrame(rows, columns=["statistic", *components])
    frame["what it means"] = [charts.EXPLAIN.get(r[0], "") for r in rows]
    return frame


def summary_markdown(report: dict) -> str:
    """One paragraph a clinician can read: who, on what, how many, and the headline."""
    overall = report["components"].get("overall") or next(iter(report["components"].values()))
    d = overall["cohens_d"]
    lean = (
        "rates higher than people"
        if d > 0.2
        else "rates lower than people"
        if d < -0.2
        else "is about as high as people"
    )
    skipped = "; ".join(f"{n} unscored ({why})" for why, n in report["unscored"].items())
    return (
        f"**{report['scorer']}** on **{report['data']}** ({report['note']}): "
        f"{report['n_scored']} of {report['n_rows']} replies scored{'; ' + skipped if skipped else ''}. "
        f"Overall it {lean} (Cohen's d {charts.fmt(d, 2)}); Krippendorff's α with people "
        f"{charts.fmt(overall['krippendorff_alpha'], 2)}; Spearman ρ {charts.fmt(overall['spearman_rho'], 2)}. "
        "Intervals in brackets are 95 % bootstrap intervals."
    )


def run_align(scorer_id, source, upload, mapping, scale, sample, boot, *keys, progress=_PROGRESS):  # type: ignore[no-untyped-def]
    """Score, compare, draw; returns the page's outputs and the state for calibration."""
    scorer = _scorer(scorer_id, keys)
    data = without_ids(
        load_data(source, upload, mapping, scale, sample, scorer.rubric_id), scorer.seen_ids()
    )
    report = alignment.run_alignment(
        data, scorer, n_boot=int(boot), progress=gradio_progress(progress)
    )
    if report["n_scored"] == 0:
        raise gr.Error(f"Nothing could be scored: {report['unscored']}")
    names = list(report["components"])
    folder = Path(tempfile.mkdtemp(prefix="alignment-"))
    (folder / "report.json").write_text(
        charts.report_json(report["components"], scorer=scorer.id, data=data.name), encoding="utf-8"
    )
    charts.write_html(folder / "report.html", report)
    figures = (
        charts.scatter(report["rows"], names, data.low, data.high),
        charts.distributions(report["rows"], names, data.low, data.high),
        charts.mean_shift(report["components"]),
    )
    files = [str(folder / "report.json"), str(folder / "report.html")]
    return (
        summary_markdown(report),
        table_frame(report["components"]),
        *figures,
        files,
        {"data": data, "report": report},
    )


def run_calibration(state: dict | None, test_share: float, save: bool):  # type: ignore[no-untyped-def]
    """Fit on part of the last report's rows; before/after on the rest; optionally save."""
    if not state:
        raise gr.Error("Run an alignment report first: the calibration is fitted on its rows.")
    try:
        study = alignment.calibration_study(
            state["data"], state["report"], test_share=float(test_share), n_boot=200
        )
    except (CalibrationError, ValueError) as exc:
        raise gr.Error(str(exc)) from None
    cal = study["calibration"]
    text = (
        f"Calibration **{cal.name}**: fitted on {len(study['fit_rows'])} rows, tested on "
        f"{len(study['test_rows'])} rows it never saw. Chosen per component by cross-validation: "
        + ", ".join(f"{k}: {v}" for k, v in cal.methods.items())
        + "."
    )
    if save:
        from config import USER_CALIBRATIONS_DIR

        path = save_calibration(cal, USER_CALIBRATIONS_DIR)
        text += (
            f" Saved as `{path.name}`; use the scorer id `{cal.scorer_id}+calibrated:{cal.name}`."
        )
    return text, table_frame(study["before"]), table_frame(study["after"])


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
    ranking = pd.DataFrame(result["ranking"])
    return bias, ranking, pd.DataFrame(result["rows"])


def run_panel(judge_ids, source, sample, *keys, progress=_PROGRESS):  # type: ignore[no-untyped-def]
    """Several judges on a bundled sample: their means, spread, and the panel mean's agreement."""
    if not judge_ids:
        raise gr.Error("Pick at least one judge.")
    scorers = [_scorer(j, keys) for j in judge_ids]
    data = load_data(source, None, "", "1:3", sample or 20, scorers[0].rubric_id)
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


def build() -> gr.Blocks:
    """The Trust page."""
    scorers = offered_scorer_ids()
    sources = [*BUNDLED, UPLOAD]
    with gr.Blocks(title="Empathy Lab · Trust") as page:
        gr.Markdown(
            "## How far can a scorer be trusted?\nCompare a scorer with people's ratings, correct its bias, test a judge for position and length bias, and see where several judges disagree. The local judge takes seconds per reply on a CPU: start with a small sample."
        )
        keys, _ = key_boxes()
        with gr.Tab("Agreement with people"):
            with gr.Row():
                scorer = gr.Dropdown(
                    scorers, value="bert-head", label="Scorer", allow_custom_value=True
                )
                source = gr.Dropdown(sources, value="rubric-labels", label="Labelled replies")
                sample = gr.Number(value=40, precision=0, label="Sample size (0 = all)")
                boot = gr.Number(value=200, precision=0, label="Bootstrap resamples")
            with gr.Row():
                upload = gr.File(
                    label="Your CSV (reply, message, rating columns)",
                    file_types=[".csv"],
                    type="filepath",
                )
                mapping = gr.Textbox(
                    label="Which column holds which rating",
                    value="overall=rating",
                    info="e.g. overall=rating, emotional=warmth",
                )
                scale = gr.Textbox(
                    label="Your rating scale",
                    value="1:5",
                    info="bottom:top; mapped linearly onto the scorer's 1–3",
                )
            go_align = gr.Button("Compare with people", variant="primary")
            summary = gr.Markdown()
            table = gr.Dataframe(label="Agreement (95 % bootstrap intervals)", wrap=True)
            with gr.Accordion("What do these numbers mean?", open=False):
                gr.Markdown(EXPLAINER)
            scatter, dist, shift = gr.Plot(), gr.Plot(), gr.Plot()
            files = gr.File(label="report.json and report.html", file_count="multiple")
            state = gr.State()
        with gr.Tab("Calibration"):
            gr.Markdown(
                "Judges often overrate. A calibration learns, per component, how the scorer's values map onto people's (identity, linear, isotonic or ordinal, chosen by cross-validation) on part of the rows of the last report, and is tested on the rows it never saw. It only ever applies to the same scorer and prompt version."
            )
            with gr.Row():
                share = gr.Slider(
                    0.2, 0.8, value=0.5, step=0.05, label="Share of rows kept for testing"
                )
                keep = gr.Checkbox(label="Save it (usable as SCORER+calibrated:NAME)")
            go_cal = gr.Button("Fit and test a calibration", variant="primary")
            cal_text = gr.Markdown()
            before, after = (
                gr.Dataframe(label="Before, on unseen rows", wrap=True),
                gr.Dataframe(label="After, same rows", wrap=True),
            )
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
                gr.Dataframe(label="Position and length bias"),
                gr.Dataframe(label="Bradley–Terry ranking (agreed verdicts)"),
                gr.Dataframe(label="Every pair", wrap=True),
            )
        with gr.Tab("Judge panel"):
            gr.Markdown(
                "Several judges on the same replies: their mean per component and how far apart they are."
            )
            with gr.Row():
                pj = gr.CheckboxGroup(scorers, value=["bert-head"], label="Judges")
                psource = gr.Dropdown(
                    list(BUNDLED), value="rubric-labels", label="Labelled replies"
                )
                psample = gr.Number(value=10, precision=0, label="Sample size")
            go_panel = gr.Button("Run the panel", variant="primary")
            panel_table, panel_align = (
                gr.Dataframe(label="Panel", wrap=True),
                gr.Dataframe(label="Panel mean against people", wrap=True),
            )
        go_align.click(
            run_align,
            [scorer, source, upload, mapping, scale, sample, boot, *keys],
            [summary, table, scatter, dist, shift, files, state],
            api_name="align",
        )
        go_cal.click(
            run_calibration, [state, share, keep], [cal_text, before, after], api_name="calibrate"
        )
        go_pair.click(
            run_pairwise,
            [pjudge, presp, pn, *keys],
            [bias, ranking, pair_rows],
            api_name="pairwise",
        )
        go_panel.click(
            run_panel, [pj, psource, psample, *keys], [panel_table, panel_align], api_name="panel"
        )
    return page


demo = build()

if __name__ == "__main__":
    demo.launch()
