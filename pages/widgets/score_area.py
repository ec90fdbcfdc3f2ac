"""The Compare page's Scores section: what the numbers mean, cautions, the table and both radars.

With "Blind" ticked (:mod:`pages.widgets.rating`) everything under the "Scores" heading is
hidden, captions and help included (they stood over empty space), and one plain line says why
in their place (:data:`BLIND_NOTE`).
"""

from __future__ import annotations

from dataclasses import dataclass

import gradio as gr
import pandas as pd
from pandas.io.formats.style import Styler

from pages.widgets.notice import scroll_cue
from pages.widgets.safety_words import safety_look
from pages.widgets.scores import SCORES_HELP, judge_cautions, ticked_by_default
from reports.charts import RADAR_CAPTION, SCORE_COLUMNS
from scorers.registry import DEFAULT_SCORERS

#: What the Scores section says while Blind hides the numbers.
BLIND_NOTE = (
    "*Scores are hidden while Blind is ticked: rate every reply to see them (or untick Blind).*"
)


def coloured(rows: list[list[object]]) -> Styler:
    """The scores table's rows with each safety cell coloured by its verdict and numbers
    shown as a person reads them (two decimals, blank when there is none)."""
    frame = pd.DataFrame(rows, columns=SCORE_COLUMNS)
    styler = frame.style.map(safety_look, subset=["Safety screen"])
    return styler.format(precision=2, na_rep="")


@dataclass
class ScoreArea:
    """The section's parts: those the events fill, what Blind hides, and the note it shows."""

    cautions: gr.Markdown
    table: gr.Dataframe
    by_scorer: gr.Plot
    by_responder: gr.Plot
    #: Everything under the heading that Blind hides (the table and charts first).
    hidden: list[gr.components.Component]
    #: The line shown instead while Blind hides the rest.
    blind_note: gr.Markdown


def score_area(safety_help: str) -> ScoreArea:
    """The scores section, laid out where it is called (``safety_help``: what the safety screen
    beside every reply means)."""
    gr.Markdown("### Scores")
    blind_note = gr.Markdown(BLIND_NOTE, visible=False, elem_id="scores-blind-note")
    help_text = gr.Markdown(SCORES_HELP + "\n\n" + safety_help)
    cautions = gr.Markdown(
        judge_cautions(ticked_by_default(DEFAULT_SCORERS)[0]), elem_id="scorer-cautions"
    )
    cue = scroll_cue()
    table = gr.Dataframe(
        headers=SCORE_COLUMNS,
        interactive=False,
        elem_id="scores-table",
        wrap=True,
        # who, safety, overall, scorer, the three components, status, why (reports.charts):
        # on a 390 px phone the first three show without a swipe
        column_widths=["110px", "160px", "85px", "150px", "95px", "95px", "100px", "90px", "300px"],
    )
    by_scorer = gr.Plot(label="By scorer", elem_id="radar-by-scorer")
    caption = gr.Markdown(
        RADAR_CAPTION + " Colours stay the same for each responder on every chart."
    )
    by_responder = gr.Plot(label="By responder", elem_id="radar-by-responder")
    caption_2 = gr.Markdown(
        RADAR_CAPTION + " Here each colour is a scorer: shapes that overlap agree."
    )
    hidden = [table, by_scorer, by_responder, help_text, cautions, cue, caption, caption_2]
    return ScoreArea(cautions, table, by_scorer, by_responder, hidden, blind_note)
