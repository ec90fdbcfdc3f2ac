"""Newcomer walk (issue 51, points 5 and 6), the Compare page in a real headless Chromium.

After one reply (the therapist has no answer to a pasted message), "Keep this reply as the
supporter's turn" holds that reply, picked, and offers no responder that never replied; the
"Added: … 3 turns" line stays while the box holds that conversation and goes when the message
is typed over. A rating saved on the page then comes with "Download this comparison"
(``ratings.csv``). Screenshots go to ``test-artifacts/newcomer/``.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from config import ROOT
from core import flags as flagging
from core.ratings import RatingLog
from pages.widgets.scores import names
from tests.compare.test_compare_replies_to_line_and_empty_panels_browser import (
    COMPAT,
    FIRST,
    HUMAN,
    compare_page,
)
from tests.conftest import browser_page, require_chromium
from tests.fake_providers import Stream

pytestmark = pytest.mark.slow
SHOTS = ROOT / "test-artifacts" / "newcomer"
CARRY = "Carry the conversation on (turn by turn)"

require_chromium()


@pytest.fixture(scope="module")
def page_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The Compare page, the fake writer and the therapist ticked, ratings in a temporary
    folder; yields its address and that folder."""
    folder = tmp_path_factory.mktemp("ratings")
    patch = pytest.MonkeyPatch()
    patch.setattr(flagging, "SETTINGS", dataclasses.replace(flagging.SETTINGS, flag_dir=folder))
    try:
        for address in compare_page([COMPAT, HUMAN], [Stream(["I hear ", "you."])] * 4):
            yield address, folder
    finally:
        patch.undo()


def shot(tab, locator, name: str) -> None:  # type: ignore[no-untyped-def]
    locator.evaluate("b => b.scrollIntoView({block: 'center'})")
    tab.wait_for_timeout(300)
    tab.screenshot(path=str(SHOTS / f"{name}.png"))


def rate_first_reply(tab) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    tab.get_by_text("Your rating: rate a reply yourself").click()
    tab.get_by_label("Your name or initials").fill("AB")
    for group in tab.locator("#rate-box fieldset").all()[:3]:
        group.get_by_text("3", exact=True).click()
    tab.get_by_role("button", name="Save my rating").click()
    expect(tab.get_by_text("Saved:")).to_be_visible(timeout=20_000)


def test_carry_on_offers_the_one_reply_and_the_download_keeps_the_rating(page_url) -> None:
    from playwright.sync_api import expect

    url, folder = page_url
    SHOTS.mkdir(parents=True, exist_ok=True)
    with browser_page(1280, 900) as tab:
        tab.goto(url)
        tab.get_by_label("Message").fill(FIRST)  # pasted: the therapist has no answer to it
        tab.get_by_role("button", name="Get replies").click()
        expect(tab.locator("#compare-progress")).to_contain_text("Done.", timeout=30_000)
        tab.get_by_text(CARRY).click()
        menu = tab.get_by_label("Keep this reply as the supporter's turn")
        expect(menu).to_have_value(names(COMPAT), timeout=5_000)  # picked: the only reply
        menu.click()
        options = tab.get_by_role("option")
        expect(options).to_have_count(1)
        expect(options.first).to_contain_text(names(COMPAT))
        shot(tab, menu, "carry-on-only-replies")
        menu.press("Escape")
        tab.get_by_label("What the person says next").fill("Every single day.")
        tab.get_by_role("button", name="Add both to the conversation").click()
        added = tab.get_by_text("Added: the message box now holds 3 turns")
        expect(added).to_be_visible(timeout=10_000)
        tab.wait_for_timeout(1_500)  # the box's change event has run: the line stays
        expect(added).to_be_visible()
        shot(tab, added, "carry-on-added")
        tab.get_by_label("Message").press("End")
        tab.get_by_label("Message").press_sequentially(" Always.")
        expect(added).to_be_hidden(timeout=5_000)
        shot(tab, tab.get_by_role("button", name="Add both to the conversation"), "carry-on-typed")

        rate_first_reply(tab)
        tab.get_by_role("button", name="Download this comparison (CSV and JSON)").click()
        ratings_file = tab.locator("a[download='ratings.csv']")  # beside the comparison
        expect(ratings_file).to_be_visible(timeout=15_000)
        shot(tab, ratings_file, "download-with-ratings")
        written = tab.request.get(ratings_file.get_attribute("href") or "").text()
        (row,) = csv.DictReader(io.StringIO(written))
        assert (row["responder_id"], row["rater"], row["overall"]) == (COMPAT, "AB", "3.0")
    assert [r["rater"] for r in RatingLog(folder).read()] == ["AB"]
