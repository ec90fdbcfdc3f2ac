"""Newcomer walk, Vote page: after a reload a student who had voted saw closed, empty pickers
and an orange Vote button that still looked pressable. Now the button says "You have voted
in this round" and cannot be pressed (right after the vote and after a reload), and the
closed pickers hold the student's own picks. Issue 30: the "Why?" box stayed editable; it is
read-only too once they have voted, and after a reload holds the reason they gave.

The browser test takes screenshots at 1280x900 and 390x844 into ``test-artifacts/walk-fixes/``.
"""

from __future__ import annotations

from pathlib import Path

import gradio as gr
import pytest

from config import ROOT
from core.visitors import ensure_visitor, voter_id
from studies.votes import rounds as votes_module
from studies.votes.log import cast_vote
from studies.votes.rounds import Entry, VoteRound, create_round
from tests.conftest import CHROMIUM, browser_page

SHOTS = ROOT / "test-artifacts" / "walk-fixes"
VOTED = "You have voted in this round"


def three_replies(vote_folder: Path) -> VoteRound:
    entries = [Entry("a/x", "I hear you."), Entry("b/y", "Try yoga."), Entry("c/z", "Ok.")]
    return create_round("Nobody calls me any more.", entries, folder=vote_folder)


def test_the_vote_button_says_when_this_voter_has_voted(vote_folder):
    from pages.widgets.ballot import vote_button_for

    rnd = three_replies(vote_folder)
    before = vote_button_for(rnd.code, "student-1")
    assert before["value"] == "Vote" and before["interactive"] is True
    cast_vote(rnd, "student-1", "A", "B", folder=vote_folder)
    after = vote_button_for(rnd.code, "student-1")
    assert after["value"] == VOTED and after["interactive"] is False
    assert vote_button_for(rnd.code, "student-2")["interactive"] is True  # another voter
    assert vote_button_for("", "student-1")["interactive"] is False  # no round open


def test_the_why_box_is_read_only_once_this_voter_has_voted(vote_folder):
    """Issue 30: after voting (and after a reload) the "Why?" box stayed editable."""
    from pages.widgets.ballot import after_vote, reason_box_for

    rnd = three_replies(vote_folder)
    assert reason_box_for(rnd.code, "student-1") == {
        "__type__": "update", "value": "", "interactive": True,
    }  # fmt: skip
    _button, *open_ = after_vote(rnd.code, "student-1")  # a refused vote: left as it was
    assert all(update == gr.skip() for update in open_)
    cast_vote(rnd, "student-1", "A", "B", "A asks how I am.", folder=vote_folder)
    _button, most, least, why = after_vote(rnd.code, "student-1")
    assert most["interactive"] is least["interactive"] is why["interactive"] is False
    reloaded = reason_box_for(rnd.code, "student-1")  # the page opened again: their reason
    assert reloaded["value"] == "A asks how I am." and reloaded["interactive"] is False
    assert reason_box_for(rnd.code, "student-2")["interactive"] is True  # another voter


def test_a_reopened_round_shows_the_voters_own_picks_closed(vote_folder):
    from pages import vote

    rnd = three_replies(vote_folder)
    student_1, student_2 = ensure_visitor(None), ensure_visitor(None)  # ids the server issued
    cast_vote(rnd, voter_id(student_1), "B", "C", folder=vote_folder)
    _visitor, _code, header, *rest = vote.open_round(rnd.code, student_1)
    most, least = rest[votes_module.MAX_REPLIES : votes_module.MAX_REPLIES + 2]
    assert "already voted" in header
    assert (most["value"], least["value"]) == ("B", "C")
    assert most["interactive"] is False and least["interactive"] is False
    fresh = vote.open_round(rnd.code, student_2)[3 + votes_module.MAX_REPLIES]
    assert fresh["value"] is None and fresh["interactive"] is True


@pytest.mark.slow
@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_after_voting_and_after_a_reload_vote_cannot_be_pressed(
    vote_url, vote_folder, width, height
):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed here")
    from playwright.sync_api import expect

    rnd = three_replies(vote_folder)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with browser_page(width, height) as tab:
        tab.goto(f"{vote_url}/?round={rnd.code}")
        tab.get_by_text(f"Round {rnd.code}").wait_for(timeout=30_000)
        most = tab.locator("fieldset", has_text="Most empathetic reply")
        least = tab.locator("fieldset", has_text="Least empathetic reply")
        button = tab.get_by_role("button", name="Vote", exact=True)
        button.wait_for(timeout=30_000)
        tab.wait_for_timeout(500)
        assert button.is_enabled()
        most.get_by_label("A", exact=True).check()
        least.get_by_label("B", exact=True).check()
        why = tab.get_by_label("Why? (optional, a sentence)")
        why.fill("A asks how I am.")
        button.click()
        tab.get_by_text("Thank you").wait_for(timeout=30_000)
        voted = tab.get_by_role("button", name=VOTED)
        voted.wait_for(timeout=30_000)
        assert voted.is_disabled()
        expect(why).not_to_be_editable()  # issue 30: the reason is in, as cast
        voted.scroll_into_view_if_needed()
        tab.screenshot(path=str(SHOTS / f"vote-voted-{width}.png"))
        tab.reload()
        tab.get_by_text("You have already voted in this round.").wait_for(timeout=30_000)
        voted.wait_for(timeout=30_000)
        tab.wait_for_timeout(800)
        voted.scroll_into_view_if_needed()
        tab.screenshot(path=str(SHOTS / f"vote-after-reload-{width}.png"))
        assert voted.is_disabled()
        assert tab.get_by_role("button", name="Vote", exact=True).count() == 0
        assert most.get_by_label("A", exact=True).is_checked()  # the voter's own picks
        assert least.get_by_label("B", exact=True).is_checked()
        assert most.get_by_label("A", exact=True).is_disabled()
        expect(why).to_have_value("A asks how I am.")  # the voter's own reason, read-only
        expect(why).not_to_be_editable()
