"""Issue 30, the whole app in a real headless Chromium: on a 390 px phone six of the eight
page tabs hid behind Gradio's "•••" menu. The tab names now wrap onto a second line there;
at 1280 px they stay on one line where they were. Screenshots go to
``test-artifacts/issue30/``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from config import ROOT
from tests.conftest import browser_page, require_chromium, served

pytestmark = pytest.mark.slow
SHOTS = ROOT / "test-artifacts" / "issue30"

require_chromium()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """Every page as a tab of one app, with the app's CSS."""
    import app

    with served(app.build_app()) as address:
        yield address


@pytest.mark.parametrize("width", [1280, 390])
def test_every_page_tab_is_in_the_tab_bar_without_a_more_menu(url, width):
    from app import PAGES

    SHOTS.mkdir(parents=True, exist_ok=True)
    with browser_page(width, 900) as tab:
        tab.goto(url)
        bar = tab.locator("#page-tabs > .tab-wrapper")
        bar.get_by_role("tab", name="Compare").wait_for(timeout=60_000)
        tab.wait_for_timeout(800)  # Gradio measures the bar after it is drawn
        tab.screenshot(path=str(SHOTS / f"app-tabs-{width}.png"))
        assert not bar.get_by_role("button", name="More tabs").is_visible()
        # Gradio 6 draws its page navbar ("Home") though app.py asks for none (gradio #12532):
        # the tabs are the navigation, and a "Home" link to this very page only puzzled people.
        assert (
            tab.locator(".nav-holder").count() == 0 or not tab.locator(".nav-holder").is_visible()
        )
        tops = set()
        for title, _ in PAGES:
            button = bar.get_by_role("tab", name=title, exact=True)
            box = button.bounding_box()
            assert button.is_visible() and box and box["x"] + box["width"] <= width, title
            tops.add(round(box["y"]))
        assert len(tops) == (1 if width == 1280 else 2), tops  # one line wide, two on a phone
        bar.get_by_role("tab", name="Resonance").click()  # the last one opens its page
        tab.get_by_text("would these two storytellers understand each other").wait_for(
            timeout=10_000
        )


@pytest.mark.parametrize("route", ["vote", "compare"])
def test_a_page_opened_by_its_own_address_says_it_is_for_study_not_care(url, route):
    """A student's /vote link (and /compare) showed no title and no crisis line (cold walk)."""

    with browser_page(390, 844) as tab:
        tab.goto(url.rstrip("/") + f"/{route}")
        line = tab.locator(".care-line", has_text="for study, not care").first
        line.wait_for(timeout=60_000)
        assert "crisis line" in line.inner_text()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_page_opened_by_its_own_address_links_to_the_others(url, width):
    """Cold walk 3: /vote (a student's link) had no way to the rest of the app."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with browser_page(width, 844) as tab:
        tab.goto(url.rstrip("/") + "/vote")
        nav = tab.locator(".care-line", has_text="Other pages").first
        nav.wait_for(timeout=60_000)
        tab.screenshot(path=str(SHOTS / f"vote-alone-nav-{width}.png"))
        box = nav.bounding_box()
        assert box and box["x"] + box["width"] <= width + 1  # no sideways scroll on a phone
        nav.get_by_role("link", name="Compare", exact=True).click()
        tab.wait_for_url("**/compare")
        tab.get_by_role("button", name="Get replies").first.wait_for(timeout=60_000)
