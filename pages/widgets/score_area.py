"""The Compare page's Scores section: what the numbers mean, cautions, the table and both radars.

With "Blind" ticked (:mod:`pages.widgets.rating`) everything under the "Scores" heading is
hidden, captions and help included (they stood over empty space), and one plain line says why
in their place (:data:`BLIND_NOTE`). The page hides each reply panel's safety verdict with them
(its status line shows without it): until every reply on screen is rated, or Blind is unticked.
A new comparison holds them back again while Blind stays ticked: its replies are not rated yet.
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
    "*Scores and safety verdicts are hidden while Blind is ticked: rate every reply to see "
    "them (or untick Blind).*"
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


def scores_shown(shown: bool, hidden: int = 3, notes: int = 1) -> list[dict]:
    """The ``hidden`` parts Blind hides shown (or hidden), then the ``notes`` shown in their
    place (the line saying why, each panel's status line without its safety verdict) hidden
    (or shown).

    >>> [u["visible"] for u in scores_shown(False, 2)]
    [False, False, True]
    >>> [u["visible"] for u in scores_shown(True, 1, notes=2)]
    [True, False, False]
    """
    return [gr.update(visible=shown)] * hidden + [gr.update(visible=not shown)] * notes


def replies_on_screen(saved: dict | None) -> dict[str, str]:
    """Each reply on screen (``saved``: the page's replies state) by its responder id."""
    replies = (saved or {}).get("replies", {})
    return {rid: r["text"] for rid, r in replies.items() if r.get("text")}


def all_rated(saved: dict | None, rated: list | None) -> bool:
    """Whether every reply on screen is rated: ``rated`` holds (reply id, reply text) pairs, so
    a new comparison's reply is not rated yet, even where its responder's last reply was.

    >>> on_screen = {"replies": {"a": {"text": "new words"}}}
    >>> all_rated(on_screen, [["a", "old words"]]), all_rated(on_screen, [("a", "new words")])
    (False, True)
    """
    done = [list(pair) for pair in rated or []]
    return all([rid, text] in done for rid, text in replies_on_screen(saved).items())


def blind_updates(on: bool, hidden: int = 3, notes: int = 1) -> list[dict]:
    """Blind ticked: the ``hidden`` parts (scores, safety verdicts) hidden and the ``notes`` in
    their place shown (:func:`scores_shown`); unticked: the scores shown again. The rating box
    is opened in the browser (:data:`pages.widgets.rating.OPEN_BOX`), never by an update from
    here: Gradio 6 can take a box opened that way as open while it looks closed, so the first
    click on it does nothing visible (gradio-app/gradio#13881).

    >>> [u.get("visible") for u in blind_updates(True, 1)]
    [False, True]
    >>> any("open" in u for u in blind_updates(True, 1) + blind_updates(False, 1))
    False
    """
    return scores_shown(not on, hidden, notes)


#: Get replies pressed: while Blind is ticked the scores and safety verdicts are hidden again,
#: as ticking it hides them (the last comparison's ratings revealed them; the new replies are
#: not rated yet).
comparison_started = blind_updates


def comparison_ended(
    saved: dict | None, rated: list | None, blind: bool, hidden: int = 3, notes: int = 1
) -> list[dict]:
    """A run, rescore or refusal ended: the scores shown unless Blind is ticked and a reply on
    screen is not rated yet (a refused message leaves the rated replies, and their scores).

    >>> on_screen = {"replies": {"a": {"text": "new words"}}}
    >>> [u["visible"] for u in comparison_ended(on_screen, [["a", "old words"]], True, 1)]
    [False, True]
    >>> [u["visible"] for u in comparison_ended(on_screen, [["a", "new words"]], True, 1)]
    [True, False]
    """
    return scores_shown(not blind or all_rated(saved, rated), hidden, notes)


@dataclass
class Blinded:
    """What Blind hides on the page, and what it shows in their place."""

    #: The scores section's parts, and each reply panel's status line with its safety verdict.
    hidden: list[gr.components.Component]
    #: The line saying why, and each panel's status line without its verdict.
    notes: list[gr.components.Component]

    def sizes(self) -> dict[str, int]:
        """How many of each, as :func:`scores_shown` takes them."""
        return {"hidden": len(self.hidden), "notes": len(self.notes)}


def wire_blind(
    blind: gr.Checkbox,
    saved: gr.State,
    rated: gr.State,
    parts: Blinded,
    after: list,
    starts: tuple = (),
    js: str | None = None,
) -> None:
    """When Blind hides ``parts``: ticked (``js`` run in the browser first), at once; a click of
    ``starts`` (a new comparison) hides them again while it is ticked; once each event of
    ``after`` ends, they show only if every reply on screen is rated (``rated``) or it is
    unticked. Revealing after the last rating is :func:`pages.widgets.rating.after_save`'s."""
    outputs, sizes = [*parts.hidden, *parts.notes], parts.sizes()
    quiet = {"api_name": False, "show_progress": "hidden"}
    blind.change(lambda on: blind_updates(on, **sizes), blind, outputs, js=js, **quiet)
    for button in starts:
        # Outside the queue: it must not hold up the run the same press starts.
        button.click(
            lambda on: comparison_started(on, **sizes), blind, outputs, queue=False, **quiet
        )
    for event in after:
        event.then(
            lambda state, done, on: comparison_ended(state, done, on, **sizes),
            [saved, rated, blind],
            outputs,
            **quiet,
        )
