"""Issue 30, in a real headless Chromium: a newcomer saw the scores before rating. The rating
box already sat under the replies, but its "Blind" tick was the last line of a closed box,
so nobody found it before the scores below had come in. The tick now sits above the box,
in view right under the replies and above the scores; ticking it hides the scores and opens
the box. The therapist answers a bundled question at once: no model runs. Screenshots at
1280 and 390 px go to ``/tmp/lab_send/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import browser_page, require_chromium, served

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/lab_send")
LOCAL = "local/qwen2.5-coder-1.5b"

require_chromium()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from pages import compare

    with served(compare.build()) as address:
        yield address


def top(locator) -> float:  # type: ignore[no-untyped-def]
    box = locator.bounding_box()
    assert box is not None, locator
    return float(box["y"])


@pytest.mark.parametrize("width", [1280, 390])
def test_the_blind_tick_is_in_view_under_the_replies_above_the_scores(url, width):
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    with browser_page(width, 900) as tab:
        tab.goto(url)
        blind = tab.get_by_label("Blind: hide the scorers' numbers")
        expect(blind).to_be_visible(timeout=30_000)  # nothing to open first
        tab.get_by_label("Pick a bundled question").click()
        tab.get_by_role("option").nth(3).click()
        tab.locator(f"input[type=checkbox][name='{LOCAL}']").uncheck()
        tab.get_by_text("Who scores the replies").click()
        tab.locator("input[type=checkbox][name='bert-head']").uncheck()
        tab.get_by_role("button", name="Get replies").click()
        expect(tab.locator("#compare-progress")).to_contain_text("Done.", timeout=60_000)

        replies = tab.locator("#reply-human-counselchat")
        rating = tab.get_by_text("Your rating: rate a reply yourself")
        scores = tab.get_by_role("heading", name="Scores", exact=True)
        table = tab.locator(".table-wrap").first
        assert top(replies) < top(blind) < top(rating) < top(scores) < top(table)
        blind.scroll_into_view_if_needed()
        tab.wait_for_timeout(300)
        tab.screenshot(path=str(SHOTS / f"rating-place-{width}.png"))

        blind.check()
        expect(table).to_be_hidden(timeout=10_000)
        expect(tab.get_by_label("Your name or initials")).to_be_visible()  # the box opened
        rating.scroll_into_view_if_needed()
        tab.wait_for_timeout(300)
        tab.screenshot(path=str(SHOTS / f"rating-blind-open-{width}.png"))
        blind.uncheck()
        expect(table).to_be_visible(timeout=10_000)
