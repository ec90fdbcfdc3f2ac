"""Cold walk (issue 30, point 13): a student who opens a round's link and then the Results tab
finds the round's code already in its box, so "Show results" shows that round, not every
round. In a real headless Chromium at 390 px (the phone a student holds)."""

from __future__ import annotations

import pytest

from studies.votes.rounds import Entry, create_round
from tests.conftest import browser_page, require_chromium

pytestmark = pytest.mark.slow
require_chromium()


def test_the_results_tab_holds_the_code_of_the_round_opened_by_its_link(vote_url, vote_folder):
    from playwright.sync_api import expect

    entries = [Entry("human/counselchat", "Grief shows at night."), Entry("x#a", "That is hard.")]
    rnd = create_round("I can't sleep since my dad died.", entries, folder=vote_folder)
    with browser_page(390, 844) as tab:
        tab.goto(f"{vote_url}/?round={rnd.code}")
        expect(tab.get_by_text("Reply A", exact=True).first).to_be_visible(timeout=30_000)
        tab.get_by_role("tab", name="Results").click()
        box = tab.get_by_label("Round code (blank = every round)")
        expect(box).to_have_value(rnd.code, timeout=10_000)
