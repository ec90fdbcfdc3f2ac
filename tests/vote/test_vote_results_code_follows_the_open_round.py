"""Newcomer walk (issue 51, point 3): "the Results tab's round code is not prefilled" (blank
means every round). It is, whenever a round is open: the open round (a state) fills the box on
every change, whether a link (``?round=``) opened it on load, the Open button or the Make
button. The walk's miss did not reproduce on Gradio 6.31, neither on the page alone
(``tests/vote/test_vote_results_round_code_and_tables_browser.py``: a link, then a made round)
nor here: in app.py's app, where the Vote page is a tab rendered again inside the app, for a
link and the Open button."""

from __future__ import annotations

import pytest

from studies.votes.rounds import Entry, VoteRound, create_round
from tests.conftest import browser_page, require_chromium, served

RESULTS_LABEL = "Round code (blank = every round)"


def _round(vote_folder, message: str) -> VoteRound:  # type: ignore[no-untyped-def]
    entries = [Entry("human/counselchat", "Grief shows at night."), Entry("x#a", "That is hard.")]
    return create_round(message, entries, folder=vote_folder)


def _filler(page):  # type: ignore[no-untyped-def]
    """The handler that writes the Results box, and where its answer for the box is."""
    (box,) = [b for b in page.blocks.values() if getattr(b, "label", None) == RESULTS_LABEL]
    (fn,) = [f for f in page.fns.values() if box in f.outputs]
    return fn, fn.outputs.index(box)


def test_the_open_round_is_written_into_the_results_box(vote_folder) -> None:
    from pages import vote

    rnd = _round(vote_folder, "I feel alone since the move.")
    fn, at = _filler(vote.build())
    assert fn.fn(rnd.code, "")[at] == rnd.code
    assert not isinstance(fn.fn("", "")[at], str)  # no round open: the box is left alone


@pytest.mark.slow
def test_in_the_app_the_results_box_holds_the_linked_then_the_opened_round(vote_folder) -> None:
    """The whole app, as ``python app.py`` serves it: a link to round A, then round B typed
    and opened with the button; each time the Results box holds the round on screen."""
    from playwright.sync_api import expect

    import app as app_module

    require_chromium()
    linked = _round(vote_folder, "I can't sleep since my dad died.")
    opened = _round(vote_folder, "My sister stopped talking to me.")
    with served(app_module.build_app()) as url, browser_page(1280, 900) as tab:
        tab.goto(f"{url.rstrip('/')}/?round={linked.code}")
        tab.get_by_role("tab", name="Vote", exact=True).first.click()
        expect(tab.get_by_text("Reply A", exact=True).first).to_be_visible(timeout=60_000)
        results_tab = tab.get_by_role("tab", name="Results", exact=True)
        results_tab.click()
        box = tab.get_by_label(RESULTS_LABEL, exact=True)
        expect(box).to_have_value(linked.code, timeout=10_000)
        tab.get_by_role("tab", name="Vote", exact=True).last.click()
        tab.get_by_label("Round code", exact=True).first.fill(opened.code)
        tab.get_by_role("button", name="Open round").first.click()
        expect(tab.get_by_text("My sister stopped talking to me.").first).to_be_visible(
            timeout=30_000
        )
        results_tab.click()
        expect(box).to_have_value(opened.code, timeout=10_000)
