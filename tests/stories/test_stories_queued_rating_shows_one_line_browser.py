"""Walk 5 on Stories, in a real headless Chromium at 1280x900 and 390x844: when a second
request queued, Gradio's own timer and estimate ("24.5/12.5s", "queue: 1/1 | 3.6/14.2s") showed
beside the page's own progress line, and that line showed twice (over the table and the chart).
Now the judge's line and bar show once, over the ratings table, with no timer or estimate.
A fake judge takes a few seconds. Screenshots: ``/tmp/v34/``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import STORY, rated_chart, require_chromium, served, stories_judged_by
from tests.stories.test_stories import FakeJudge, rating

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/v34")
READING = "the judge is reading"
#: What Gradio's progress displays show on the page now (hidden ones left out).
SHOWN_JS = """() => {
  const seen = e => e.offsetParent !== null && getComputedStyle(e).display !== 'none';
  const texts = sel => [...document.querySelectorAll(sel)].filter(seen).map(e => e.textContent.trim());
  return {timers: texts('.progress-text'), lines: texts('.progress-level')};
}"""
_RUNS = itertools.count()

require_chromium()


def slow(*_: object) -> str:
    time.sleep(6)
    return rating(4, 3, 5, "moved by the missed goodbye")


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from pages import stories

    with stories_judged_by(FakeJudge(answer=slow)), served(stories.build()) as address:
        yield address


def press(page, button: str = "Rate the story") -> None:  # type: ignore[no-untyped-def]
    """A story not rated before (a rated one comes from the cache at once), then ``button``."""
    page.locator("textarea").first.fill(f"{STORY} Run {next(_RUNS)}.")
    page.get_by_role("button", name=button).click()


def test_a_queued_rating_shows_one_line_and_no_estimate(url, tab):
    # A first rating gives Gradio a time to estimate from.
    rated_chart(tab, url, "Rate the story", story=f"{STORY} Run {next(_RUNS)}.")
    second = tab.context.new_page()
    second.goto(url)
    second.get_by_role("button", name="Rate the story").wait_for()
    press(tab)
    tab.wait_for_timeout(500)
    press(second)  # queues behind the first
    second.wait_for_timeout(1_500)
    running, queued = tab.evaluate(SHOWN_JS), second.evaluate(SHOWN_JS)
    for name, page in (("running", tab), ("queued", second)):
        page.locator("#story-ratings").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"stories-progress-{name}-{tab.width}.png"))
    assert running["timers"] == [] and queued["timers"] == [], (running, queued)
    assert len(running["lines"]) == 1 and READING in running["lines"][0], running
    assert queued["lines"] == [], queued
