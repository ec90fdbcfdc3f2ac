"""Blind holds across comparisons ("What people type stays theirs").

With Blind ticked, a rater who rated every reply saw the scores, rightly; but the next "Get
replies" showed the new replies' score table and charts at once, with Blind still ticked: the
visibility the last rating set stayed. Now a new comparison hides the scores again until each of
its own replies is rated (the rated list holds (reply id, text) pairs: new texts are not rated).
Checked on the handlers, then on the Compare page's own wiring (the functions its events run).
"""

from __future__ import annotations

import gradio as gr
import pytest

from pages.widgets.rating import after_save
from pages.widgets.score_area import all_rated, comparison_ended, comparison_started

FIRST = {"replies": {"a": {"text": "A first"}, "b": {"text": "B first"}}}
SECOND = {"replies": {"a": {"text": "A second"}, "b": {"text": "B second"}}}
SAVED = "Saved: DW rated it 2/2/2."


def shown(updates: list, hidden: int) -> bool:
    """Whether ``updates`` (hidden parts, then the notes in their place) show the scores."""
    visible = [u["visible"] for u in updates]
    on = bool(visible[0])
    assert visible == [on] * hidden + [not on] * (len(visible) - hidden), visible
    return on


def rate_all_blind(saved: dict, rated: list, hidden: int = 3, notes: int = 1) -> tuple[list, list]:
    """Rate each reply on screen in turn with Blind ticked; returns the rated list and the last
    save's visibility updates."""
    out: list = []
    for rid in saved["replies"]:
        out = after_save(saved, rated, rid, True, SAVED, hidden=hidden, notes=notes)
        if out[hidden + notes] != gr.skip():
            rated = out[hidden + notes]
    return rated, out[: hidden + notes]


def test_a_new_comparison_hides_the_scores_again_until_its_replies_are_rated() -> None:
    rated, last = rate_all_blind(FIRST, [])
    assert shown(last, 3), "every reply rated: the scores show"
    assert all_rated(FIRST, rated)
    assert not shown(comparison_started(True, 3), 3), "Get replies pressed, Blind still ticked"
    assert not all_rated(SECOND, rated)  # same responders, new texts: not rated yet
    assert not shown(comparison_ended(SECOND, rated, True, 3), 3), "the run ended: still hidden"
    one = after_save(SECOND, rated, "a", True, SAVED, hidden=3)
    assert one[:4] == [gr.skip()] * 4, "one of two new replies rated: the scores stay hidden"
    rated, last = rate_all_blind(SECOND, rated)
    assert shown(last, 3), "each new reply rated: the scores show"


def test_unblind_or_a_refused_message_keeps_the_scores_shown() -> None:
    rated, _ = rate_all_blind(FIRST, [])
    assert shown(comparison_started(False, 3), 3)
    assert shown(comparison_ended(SECOND, [], False, 3), 3)
    # A refused message leaves the rated replies on screen: the run's end shows their scores.
    assert shown(comparison_ended(FIRST, rated, True, 3), 3)


@pytest.fixture(scope="module")
def page() -> gr.Blocks:
    from pages import compare

    return compare.build()


def _block(page: gr.Blocks, **attrs: object) -> gr.components.Component:
    return next(
        b for b in page.blocks.values() if all(getattr(b, k, None) == v for k, v in attrs.items())
    )


def test_the_compare_page_hides_the_scores_when_a_new_comparison_starts_and_ends(page) -> None:
    """The page's own events: Get replies hides them at once while Blind is ticked, and the
    run's end keeps them hidden while a reply on screen is not rated."""
    table = _block(page, elem_id="scores-table")
    blind = _block(page, elem_id="rate-blind")
    run = _block(page, value="Get replies")
    compare = next(f for f in page.fns.values() if f.api_name == "compare")
    on_click = [
        f for f in page.fns.values() if (run._id, "click") in f.targets and table in f.outputs
    ]
    assert len(on_click) == 1, "Get replies sets the scores' visibility"
    (start,) = on_click
    assert start.inputs == [blind]
    updates = dict(zip(start.outputs, start.fn(True), strict=True))
    assert updates[table]["visible"] is False
    ends = [f for f in page.fns.values() if f.trigger_after == compare._id and table in f.outputs]
    assert len(ends) == 1, "the run's end sets the scores' visibility"
    (end,) = ends
    rated, _ = rate_all_blind(FIRST, [])
    updates = dict(zip(end.outputs, end.fn(SECOND, rated, True), strict=True))
    assert updates[table]["visible"] is False, "new replies, not rated: hidden"
    updates = dict(zip(end.outputs, end.fn(FIRST, rated, True), strict=True))
    assert updates[table]["visible"] is True, "the rated replies still on screen: shown"
