"""Trust: how far can a scorer be trusted? Agreement with people, calibration, pairwise, panel.

Runs alone with ``python -m pages.trust``. Every number comes from
:mod:`studies.alignment`, :mod:`studies.pairwise` and :mod:`studies.panel`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import gradio as gr

from core.ratings import ratings_of
from core.visitors import reader_of
from pages import trust_judges
from pages.widgets.api_names import KEYS, VISITOR, named
from pages.widgets.calibration_tab import calibration_tab
from pages.widgets.calibration_tab import run_calibration as run_calibration  # the page's API
from pages.widgets.keys import key_boxes
from pages.widgets.names import scorer_choices
from pages.widgets.notice import notice_box, scroll_cue, with_notice
from pages.widgets.pace import judge_speed, judging_time
from pages.widgets.progress import gradio_progress
from pages.widgets.trust import (
    TABLE_HEADERS,
    UPLOAD,
    checked_scorer,
    fit_after,
    labelled_set,
    meanings,
    phone_titles,
    result_table,
    statistics_table,
)
from pages.widgets.trust import table_frame as table_frame  # the full table, as before
from pages.widgets.trust_notes import trust_note
from pages.widgets.trust_summary import summary_markdown
from pages.widgets.visitor import keys_and_visitor, on_load, visitor_state
from reports import alignment as charts
from scorers.registry import offered_scorer_ids
from studies import alignment
from studies.experts_card import markdown as experts_markdown
from studies.experts_card import read_card
from studies.labelled import bundled_choices, unseen_by
from studies.ratings import load_ratings, rater_agreement

#: Gradio fills a parameter whose default is a gr.Progress with the request's progress bar.
_PROGRESS = gr.Progress()


#: The ``/align`` endpoint's parameters before the key boxes: :func:`run_align`'s.
ALIGN_NAMES = ("scorer_id", "source", "upload", "mapping", "scale", "sample", "boot")


def run_align(scorer_id, source, upload, mapping, scale, sample, boot, *keys, progress=_PROGRESS):  # type: ignore[no-untyped-def]
    """Score, compare, draw; returns the page's outputs and the state for calibration.

    ``keys``: the key boxes, then this browser's visitor id: on a public server "Ratings made
    here" are the visitor's own (:func:`core.ratings.ratings_of`).
    """
    keys, visitor = keys_and_visitor(keys)
    with ratings_of(reader_of(visitor)):
        return _align(scorer_id, source, upload, mapping, scale, sample, boot, keys, progress)


def _align(scorer_id, source, upload, mapping, scale, sample, boot, keys, progress):  # type: ignore[no-untyped-def]
    """:func:`run_align` for the ratings this request may read."""
    try:
        n_boot = alignment.checked_resamples(boot)  # before a long run, not during it
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    scorer = checked_scorer(scorer_id, keys)
    data = labelled_set(source, upload, mapping, scale, sample, scorer.rubric_id)
    try:
        data = unseen_by(data, [scorer])
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    report = alignment.run_alignment(
        data, scorer, n_boot=n_boot, progress=gradio_progress(progress)
    )
    if report["n_scored"] == 0:
        raise gr.Error(f"Nothing could be scored: {report['unscored']}")
    if data.name == "ratings-here":  # people rated here together: their own agreement
        report["raters_alpha"] = rater_agreement(load_ratings())
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
        statistics_table(report),
        *map(phone_titles, figures),
        files,
        {"data": data, "report": report},
    )


def build() -> gr.Blocks:
    """The Trust page."""
    return _build()[0]


def _build() -> tuple[gr.Blocks, gr.Radio]:
    """The Trust page, and its choice of labelled set (see :func:`refresh_on_select`)."""
    scorers = offered_scorer_ids()
    with gr.Blocks(title="Empathy Lab · Trust") as page:
        gr.Markdown(
            "## How far can a scorer be trusted?\nCompare a scorer with people's ratings, "
            "correct its bias, test a judge for position and length bias, and see where several "
            f"judges disagree. {judge_speed()} With a local judge picked, a line under the sample "
            "size says how long that sample takes."
        )
        keys, _ = key_boxes()
        visitor = visitor_state()
        on_load(page, visitor)
        # Four long tab names: on a phone Gradio's default hid three behind a "⋯" menu.
        with gr.Tabs(overflow_behavior="wrap"):
            state, source = _agreement_tab(scorers, keys, visitor)
            calibration_tab(state)
            trust_judges.pairwise_tab(scorers, keys)
            trust_judges.panel_tab(scorers, keys)
            with gr.Tab("Conversations: experts"):
                gr.Markdown(experts_markdown(read_card()), elem_id="experts-conversations")
        # Which sets are installed is read when the page opens: ratings saved since the
        # server started count ("Ratings made here" was "not installed" until a restart).
        page.load(fresh_sources, None, source, api_name=False)
    return page, source


def fresh_sources() -> dict:
    """The agreement tab's labelled sets as installed now."""
    return gr.update(choices=_sources())


def _sources() -> list[tuple[str, str]]:
    """The labelled sets to choose from, each marked when not installed, and an upload."""
    return [*bundled_choices(), ("my CSV file (upload below)", UPLOAD)]


def _agreement_tab(
    scorers: list[str], keys: list[gr.Textbox], visitor: gr.BrowserState
) -> tuple[gr.State, gr.Radio]:
    """The "Agreement with people" tab and its event (``visitor``: whose ratings made here it
    reads on a public server); returns the report's state and the choice of labelled set."""
    sources = _sources()
    with gr.Tab("Agreement with people"):
        with gr.Row():  # the long names get room: a dropdown cuts what does not fit
            scorer = gr.Dropdown(
                scorer_choices(scorers),
                value="bert-head",
                label="Scorer",
                allow_custom_value=True,
                scale=2,
                min_width=320,
            )
            sample = gr.Number(value=40, precision=0, label="Sample size (0 = all)")
            boot = gr.Number(
                value=200,
                precision=0,
                minimum=0,
                maximum=alignment.MAX_BOOT,
                label=f"Bootstrap resamples (0–{alignment.MAX_BOOT:,})",
            )
        timing = gr.Markdown(judging_time(["bert-head"], 40))
        note, measured = _trust_note_box("bert-head")
        source = gr.Radio(  # a long name wraps here; a dropdown cut it off
            sources,
            value="welivita",
            label="Labelled replies",
            info="people's ratings the scorer never saw; the head trained on the rubric labels",
        )
        upload_row, upload, mapping, scale = _upload_row()
        go_align = gr.Button("Compare with people", variant="primary")
        notice = notice_box()
        summary = gr.Markdown()
        cue = scroll_cue()
        table = result_table(TABLE_HEADERS, "Agreement (95 % bootstrap intervals)")
        meanings()
        scatter, dist, shift = (
            gr.Plot(label="People (across) against the scorer (up)"),
            gr.Plot(label="How the two sets of scores are spread"),
            gr.Plot(label="How far the scorer's mean sits from people's"),
        )
        files = gr.File(label="report.json and report.html", file_count="multiple")
        state = gr.State()
    source.change(lambda s: gr.update(visible=s == UPLOAD), source, upload_row, api_name=False)
    scorer.change(
        lambda sid: trust_note(sid) if sid else ("", ""), scorer, [note, measured], api_name=False
    )
    for box in (scorer, sample):
        box.change(_timing, [scorer, sample], timing, api_name=False, show_progress="hidden")
    aligned = go_align.click(
        named(with_notice(run_align, 7, clears=True), *ALIGN_NAMES, *KEYS, VISITOR),
        [scorer, source, upload, mapping, scale, sample, boot, *keys, visitor],
        [notice, summary, table, scatter, dist, shift, files, state],
        api_name="align",
    )
    fit_after(aligned, [table], cue)
    return state, source


def _timing(scorer_id: str | None, sample: float | None) -> str:
    """What the chosen scorer takes on the chosen sample (a line only for a local judge)."""
    return judging_time([scorer_id or ""], int(sample or 0))


def _trust_note_box(scorer_id: str) -> tuple[gr.Markdown, gr.Markdown]:
    """The chosen scorer's trust note: what people would likely give for one of its scores,
    and its statistics one click away."""
    lead, how = trust_note(scorer_id)
    note = gr.Markdown(lead, elem_id="trust-note")
    with gr.Accordion("How this was measured", open=False):
        measured = gr.Markdown(how)
    return note, measured


def _upload_row() -> tuple[gr.Row, gr.File, gr.Textbox, gr.Textbox]:
    """The controls for a CSV of one's own ratings, shown when that source is picked."""
    with gr.Row(visible=False) as row:
        upload = gr.File(
            label="Your CSV (reply, message, rating columns)", file_types=[".csv"], type="filepath"
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
    return row, upload, mapping, scale


demo, _SOURCE = _build()


def refresh_on_select(tab: gr.Tab) -> None:
    """Read the labelled sets again each time ``tab`` (the app's Trust tab, holding
    :data:`demo`) is selected: a rating saved on Compare is offered at once, where the page
    still said "Ratings made here — not installed" until it was reloaded."""
    tab.select(fresh_sources, None, _SOURCE, api_name=False, show_progress="hidden")


if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
