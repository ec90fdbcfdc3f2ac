"""Cold walk (issue 30, points 11-13) in a real headless Chromium at 1280 and 390 px: on the
Adversarial page alone, a bundled example's precomputed results show at once (no model runs).
The lab table fits a phone (no sideways swipe: each change's text is a row under its scores),
the "Rewrites … by" label and its choice are shown whole, and the robustness section's scorer names get the
page's width. Screenshots go to ``/tmp/lab_readability/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import require_chromium, served

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/lab_readability")
EXAMPLE = "Study-style example (opening quoted from the reference study)"

require_chromium()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from pages import adversarial

    with served(adversarial.build()) as address:
        yield address


def overflow(element) -> int:  # type: ignore[no-untyped-def]
    """How many pixels ``element``'s content is wider than its box (0: nothing hidden)."""
    return element.evaluate("e => e.scrollWidth - e.clientWidth")


def test_the_lab_reads_without_a_sideways_swipe(url, tab):
    from playwright.sync_api import expect

    tab.goto(url)
    tab.get_by_label("Example reply").click()
    tab.get_by_role("option", name=EXAMPLE).click()
    table = tab.locator("table.lab-table")
    expect(table).to_be_visible(timeout=20_000)
    expect(table.locator("tr.lab-text").first).to_contain_text("Changed text:")
    tab.screenshot(path=str(SHOTS / f"lab-{tab.width}-full.png"), full_page=True)
    table.locator("tr.lab-text").nth(3).scroll_into_view_if_needed()
    tab.screenshot(path=str(SHOTS / f"lab-{tab.width}-table.png"))
    assert overflow(table.locator("xpath=..")) <= 1  # its scroll box: nothing off to the side
    assert tab.evaluate("document.documentElement.scrollWidth") <= tab.width
    reorder = table.locator("tr.lab-text").filter(has_text="the same sentences in a new order")
    expect(reorder.locator("sup").first).to_be_visible()


def test_the_controls_read_whole_on_every_width(url, tab):
    from playwright.sync_api import expect

    tab.goto(url)
    rewrites = tab.get_by_text("Rewrites (shortened, elevated, casual) by", exact=True)
    expect(rewrites).to_be_visible(timeout=20_000)
    rewrites.scroll_into_view_if_needed()
    tab.screenshot(path=str(SHOTS / f"controls-{tab.width}.png"))
    assert overflow(rewrites) <= 1, "the label is cut"
    chosen = tab.get_by_label("Rewrites (shortened, elevated, casual) by")
    expect(chosen).to_have_value("fixed rules (instant)")
    assert overflow(chosen) <= 1, "the choice shown is cut ('fixed rules (insta')"
    scorers = tab.get_by_text("Scorers", exact=True).last  # the robustness section's group
    scorers.scroll_into_view_if_needed()
    tab.screenshot(path=str(SHOTS / f"robustness-{tab.width}.png"))
    box = tab.get_by_label("Empathy head, raw (no defences; teaching)", exact=True).last
    label = box.locator("xpath=ancestor::label[1]")
    assert label.bounding_box()["width"] >= min(300, tab.width - 80), "scorer names squeezed"
