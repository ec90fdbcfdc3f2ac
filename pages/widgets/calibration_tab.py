"""The Trust page's "Calibration" tab: a calibration fitted on part of the rows of the last
agreement report, tested on the rest, and saved on request."""

from __future__ import annotations

import gradio as gr

from pages.widgets.api_names import named
from pages.widgets.notice import notice_box, scroll_cue, with_notice
from pages.widgets.trust import TABLE_HEADERS, fit_after, meanings, result_table, table_frame
from scorers.calibration import CalibrationError, save_calibration
from studies import alignment


def run_calibration(state: dict | None, test_share: float, save: bool):  # type: ignore[no-untyped-def]
    """Fit on part of the last report's rows; before/after on the rest; optionally save."""
    if not state:
        raise gr.Error(
            "Run “Compare with people” on the first tab first: the calibration is fitted on "
            "the rows of that report."
        )
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


def calibration_tab(state: gr.State) -> None:
    """The "Calibration" tab, fitted on the rows of the last agreement report."""
    with gr.Tab("Calibration"):
        gr.Markdown(
            "Scorers, LLM judges above all, often rate higher or lower than people. A calibration learns, per component, how the scorer's values map onto people's (identity, linear, isotonic or ordinal, chosen by cross-validation) on part of the rows of the last report, and is tested on the rows it never saw. It only ever applies to the same scorer and prompt version."
        )
        with gr.Row():
            share = gr.Slider(
                0.2, 0.8, value=0.5, step=0.05, label="Share of rows kept for testing"
            )
            keep = gr.Checkbox(label="Save it (usable as SCORER+calibrated:NAME)")
        go_cal = gr.Button("Fit and test a calibration", variant="primary")
        notice = notice_box()
        cal_text = gr.Markdown()
        cue = scroll_cue()
        before, after = (
            result_table(TABLE_HEADERS, "Before, on unseen rows"),
            result_table(TABLE_HEADERS, "After, same rows"),
        )
        meanings()
    calibrated = go_cal.click(
        named(with_notice(run_calibration, 3, clears=True), "alignment", "test_share", "save"),
        [state, share, keep],
        [notice, cal_text, before, after],
        api_name="calibrate",
    )
    fit_after(calibrated, [before, after], cue)
