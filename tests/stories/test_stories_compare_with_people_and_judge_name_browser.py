"""Cold-walk findings on the Stories page, in a real headless Chromium at 1280 and 390 px:

- on a server without people's ratings (no ``../shared``, e.g. a Space) "Compare with people"
  was enabled but only refused, and the refusal repeated the page's credit line: it is now
  disabled, with one line saying why, and nothing is said twice;
- on a phone the results cut the judge's name (and the chart's title, legend and reader
  names) at the right edge: the chart names the judge in full, on lines that fit.

Screenshots go to ``/tmp/h2/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core import stories as bank
from tests.conftest import rated_chart, require_chromium, served, stories_judged_by
from tests.stories.test_stories import FakeJudge, rating

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/h2")

require_chromium()


class LongNamedJudge(FakeJudge):
    """A judge whose name is as long as the local model's, for the phone's width."""

    label = "A judge with a long name (Qwen2.5-Coder 1.5B, CPU)"


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The Stories page as a server without people's ratings builds it, judged by a fake."""
    patch = pytest.MonkeyPatch()
    patch.setattr(bank, "EMPATHIC_STORIES_CSV", tmp_path_factory.mktemp("none") / "absent.csv")
    judge = LongNamedJudge(answer=lambda *_: rating(4, 3, 5, "moved by the missed goodbye"))
    from pages import stories

    try:
        with stories_judged_by(judge), served(stories.build()) as address:
            yield address
    finally:
        patch.undo()


def test_compare_with_people_is_disabled_and_says_why_once(url, tab):
    from playwright.sync_api import expect

    from pages.story_runs import NO_PEOPLE

    tab.goto(url)
    button = tab.get_by_role("button", name="Compare with people")
    expect(button).to_be_disabled(timeout=30_000)
    note = tab.locator("#story-no-people")
    expect(note).to_have_text(NO_PEOPLE)
    note.scroll_into_view_if_needed()
    tab.wait_for_timeout(300)
    tab.screenshot(path=str(SHOTS / f"stories-no-people-{tab.width}.png"))
    button.click(force=True)  # a press on the disabled button sends nothing
    tab.wait_for_timeout(1_500)
    body = tab.locator("body").inner_text()
    assert body.count("no people's ratings") == 1 and body.count("is not installed") == 1
    assert "⚠️" not in body


def test_the_results_name_the_judge_in_full_within_the_screen(url, tab):
    chart = rated_chart(tab, url, "Compare reader personas")
    tab.wait_for_timeout(500)
    tab.screenshot(path=str(SHOTS / f"stories-judge-{tab.width}.png"))
    title = chart.locator(".gtitle").get_attribute("data-unformatted").replace("<br>", " ")
    assert "(Qwen2.5-Coder 1.5B, CPU)" in title  # the whole name, on as many lines as it takes
    # No text of the chart (title, legend, readers' names) runs past its right edge.
    edge = chart.bounding_box()
    for text in chart.locator(".gtitle, .legendtext, .xtick text").all():
        box = text.bounding_box()
        assert box["x"] >= edge["x"] - 1, text.text_content()
        assert box["x"] + box["width"] <= edge["x"] + edge["width"] + 1, text.text_content()
