"""Issue 30, the Stories page in a real headless Chromium: after "Rate the story" the results
sat below the fold at 1280 px, so a visitor saw nothing happen. Pressing either button now
brings the ratings table into view (checked with an empty story, refused at once, so no
judge runs). Screenshots go to ``test-artifacts/issue30/``.
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
    from pages import stories

    with served(stories.build()) as address:
        yield address


@pytest.mark.parametrize("width", [1280, 390])
def test_rating_a_story_brings_the_results_into_view(url, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with browser_page(width, 800) as page:
        page.goto(url)
        table = page.locator("#story-ratings")
        table.wait_for(timeout=30_000)
        assert table.bounding_box()["y"] > 400  # the lower half or below before the press
        page.get_by_role("button", name="Rate the story").click()
        page.wait_for_function(
            "() => { const r = document.getElementById('story-ratings').getBoundingClientRect();"
            " return r.top >= 0 && r.top < window.innerHeight * 0.25; }",
            timeout=10_000,
        )
        page.screenshot(path=str(SHOTS / f"stories-rated-{width}.png"))
