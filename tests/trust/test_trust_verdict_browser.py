"""The Trust page's "Compare with people" in a headless Chromium at 1280 and 390 px: the plain
verdict comes first, above the figures and the table; the statistics table fits the screen
(at 390 px its "what it means" column ran 800 px off the edge, a sideways swipe for every row:
a phone folds it away, its words one tap below under "What do these numbers mean?"); the
swipe cue shows only for a table with more columns of numbers than a phone fits. The scorer
is a fast stand-in, so no model runs. Screenshots go to ``/tmp/trust_verdict/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scorers.base import Score, Scorer
from tests.conftest import require_chromium, served

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/trust_verdict")

require_chromium()


class Varied(Scorer):
    """Scores that differ from reply to reply (by length)."""

    id = "varied"

    def _score_batch(self, items):
        values = [1 + (len(item.reply) % 21) / 10 for item in items]
        return [Score.from_components(self.id, v, v, v) for v in values]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from pages import trust

    patch = pytest.MonkeyPatch()
    patch.setattr(trust, "checked_scorer", lambda *a: Varied())
    try:
        with served(trust.build()) as address:
            yield address
    finally:
        patch.undo()


#: How far the page and the statistics table reach sideways, past what shows.
WIDTHS_JS = """() => {
  const view = [...document.querySelectorAll('.virtual-table-viewport')].find(v => v.offsetParent);
  return {page: document.documentElement.scrollWidth, table: view.scrollWidth - view.clientWidth};
}"""


def compare(tab, address: str, source: str):  # type: ignore[no-untyped-def]
    """Run "Compare with people" on ``source``; returns the verdict's paragraph."""
    tab.goto(address)
    tab.locator(f"input[value='{source}']").check()
    tab.get_by_role("button", name="Compare with people").click()
    tab.get_by_text("replies scored").first.wait_for(timeout=120_000)
    tab.wait_for_timeout(1_500)  # the table's widths and the cue come in a step of their own
    return tab.locator("p").filter(has_text="In plain words").first


def test_the_verdict_leads_and_the_table_needs_no_sideways_swipe(url, tab):
    from playwright.sync_api import expect

    verdict = compare(tab, url, "welivita")
    expect(verdict).to_contain_text("In plain words: it agrees with people")
    expect(verdict).to_contain_text("How far people agree with each other is not known here")
    table = tab.locator(".table-wrap").first
    figures = tab.locator("p").filter(has_text="replies scored").first
    assert verdict.bounding_box()["y"] < figures.bounding_box()["y"] < table.bounding_box()["y"]
    verdict.scroll_into_view_if_needed()
    tab.screenshot(path=SHOTS / f"verdict-{tab.width}.png")
    table.scroll_into_view_if_needed()
    tab.screenshot(path=SHOTS / f"table-{tab.width}.png")
    widths = tab.evaluate(WIDTHS_JS)
    assert widths["page"] <= tab.width and widths["table"] <= 1, widths
    meaning = table.locator("th").filter(has_text="what it means")
    cue = tab.get_by_text("swipe it sideways")
    expect(cue).to_be_hidden()  # one column of numbers: nothing to swipe to
    if tab.width == 1280:
        expect(meaning).to_be_visible()
        return
    expect(meaning).to_be_hidden()  # folded away on a phone; its words are one tap below
    tab.get_by_text("What do these numbers mean?").first.click()
    said = tab.locator("li").filter(has_text="does the scorer rank replies as people do?")
    expect(said.first).to_be_visible()
    tab.screenshot(path=SHOTS / "meanings-390.png")


def test_on_a_phone_the_cue_shows_only_when_numbers_need_a_swipe(url, tab):
    from playwright.sync_api import expect

    if tab.width == 1280:
        pytest.skip("the cue is for phones only")
    verdict = compare(tab, url, "rubric-labels")
    expect(verdict).to_contain_text("In plain words: it agrees with the LLM annotators")
    expect(verdict).to_contain_text("not by people")
    cue = tab.get_by_text("swipe it sideways")
    expect(cue).to_be_visible()  # four columns of numbers are wider than a phone
    cue.scroll_into_view_if_needed()
    tab.screenshot(path=SHOTS / "four-parts-390.png")
    meaning = tab.locator(".table-wrap th").filter(has_text="what it means")
    expect(meaning).to_be_hidden()
