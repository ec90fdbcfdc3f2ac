"""Issue 30, walk 4, the Stories page in a real headless Chromium at 1280x900 and 390x844:
the Judge dropdown shows a short name a phone does not cut under its arrow ("LLM judge: Local
model (Qwen2.5-Coder 1.5B, CPU)" was); the rating chart's axis reads 1–5 (it showed 0), and
Plotly's toolbar covers nothing (on a phone it sat over the chart's "Plot" badge).
A fake judge answers at once. Screenshots: ``/tmp/u30/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import rated_chart, require_chromium, served, stories_judged_by
from tests.stories.test_stories import FakeJudge, rating

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/u30")
#: Boxes of the toolbar and of what it might cover: the chart's title, Gradio's label badges.
COVERED_JS = """plot => {
  const box = el => el && el.getBoundingClientRect();
  const meet = (a, b) => a && b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const bar = box(plot.querySelector('.modebar'));
  const badges = [...document.querySelectorAll('[data-testid=block-label]')].map(box);
  return {toolbar: !!bar && bar.width > 0, by_title: meet(bar, box(plot.querySelector('.gtitle'))),
          by_badge: badges.some(b => meet(bar, b)), badges: badges.length};
}"""

require_chromium()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """The Stories page (built first: its dropdown names the real judges), its judge then a
    fake that answers at once."""
    from pages import stories

    page = stories.build()
    judge = FakeJudge(answer=lambda *_: rating(1, 3, 5, "moved by the missed goodbye"))
    with stories_judged_by(judge), served(page) as address:
        yield address


def test_the_judge_dropdown_shows_its_whole_short_name(url, tab):
    from playwright.sync_api import expect

    tab.goto(url)
    judge = tab.get_by_label("Judge", exact=True)
    expect(judge).to_have_value("Local model (CPU)", timeout=30_000)
    judge.scroll_into_view_if_needed()
    tab.screenshot(path=str(SHOTS / f"stories-judge-{tab.width}.png"))
    fits = judge.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert fits, "the judge's name runs under the dropdown's arrow"


def test_the_chart_reads_1_to_5_and_its_toolbar_covers_nothing(url, tab):
    chart = rated_chart(tab, url, "Rate the story")
    chart.hover()  # the toolbar shows while the pointer is over the chart
    tab.wait_for_timeout(500)
    tab.screenshot(path=str(SHOTS / f"stories-chart-{tab.width}.png"))
    ticks = [t.strip() for t in chart.locator(".ytick text").all_text_contents()]
    assert ticks == ["1", "2", "3", "4", "5"], ticks
    found = chart.evaluate(COVERED_JS)
    assert found["toolbar"] and not found["by_title"] and not found["by_badge"], found
