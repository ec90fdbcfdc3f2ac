"""Newcomer walk, Vote results: the status line said "each was shown in up to 1 votes" and
"Bradley–Terry log-strength"; on a phone the sources' names beside the bars took half the
chart's width. Now the count reads plainly ("1 vote"), the score is a "strength" with its
meaning in words (the technical name folded under the table, in "How the votes are
counted"), and each name sits above its bars, which keep the chart's whole width.

The browser test takes screenshots at 1280x900 and 390x844 into ``test-artifacts/walk-fixes/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from config import ROOT
from studies.votes.log import cast_vote
from studies.votes.rounds import Entry, VoteRound, create_round
from tests.conftest import CHROMIUM, browser_page

SHOTS = ROOT / "test-artifacts" / "walk-fixes"
LOCAL = "local/qwen2.5-coder-1.5b"
#: The plot area's width over the chart's, and each name's box against every bar's box.
GEOMETRY_JS = """plot => {
  const svg = plot.querySelector("svg.main-svg").getBoundingClientRect();
  const area = plot.querySelector(".bglayer .bg").getBoundingClientRect();
  const bars = [...plot.querySelectorAll(".bars path")].map(p => p.getBoundingClientRect())
    .filter(r => r.width > 0);
  const names = [...plot.querySelectorAll(".ytick text")].map(t => t.getBoundingClientRect());
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const inside = r => r.left >= svg.left - 1 && r.right <= svg.right + 1
    && r.top >= svg.top - 1 && r.bottom <= svg.bottom + 1;
  return {share: area.width / svg.width, names: names.length,
          covered: names.filter(n => bars.some(b => overlap(n, b))).length,
          outside: names.filter(n => !inside(n)).length};
}"""


def long_named_round(vote_folder: Path) -> VoteRound:
    """A keyless class round: the local model three ways (long names) and the therapist."""
    entries = [
        Entry(f"{LOCAL}#study", "That sounds so hard."),
        Entry(f"{LOCAL}#chain-of-empathy", "I hear how exhausted you are."),
        Entry(f"{LOCAL}#reader-persona", "You are not alone in this."),
        Entry("human/counselchat", "Grief often shows up at night."),
    ]
    return create_round("I can't sleep since my dad died.", entries, folder=vote_folder)


def test_one_vote_is_counted_in_plain_words(vote_folder):
    from pages.widgets.vote_results import results

    rnd = long_named_round(vote_folder)
    cast_vote(rnd, "voter-1", "A", "B", folder=vote_folder)
    *_, status, _path = results(rnd.code)
    assert "each shown in 1 vote." in status, status
    assert "votes" not in status.split("shown in")[1].split(".")[0]  # not "1 votes"
    assert "up to" not in status
    assert "Bradley" not in status and "log-strength" not in status  # no jargon up front
    assert "Strength: higher = picked as most empathetic more often" in status


def test_the_technical_name_is_folded_under_the_ranking(vote_folder):
    from pages import vote
    from reports.votes import RANKING_HEADERS

    page = vote.build()
    components = page.config["components"]
    texts = [str(c["props"].get("value") or "") for c in components]
    named = [t for t in texts if "Bradley–Terry" in t]
    assert len(named) == 1, named
    folded = [c for c in components if c["props"].get("label") == "How the votes are counted"]
    assert len(folded) == 1 and folded[0]["props"].get("open") is False
    assert RANKING_HEADERS[2] == "strength"


@pytest.mark.slow
@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_the_bars_get_the_charts_width_on_a_phone(vote_url, vote_folder, width, height):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed here")

    rnd = long_named_round(vote_folder)
    for n, (most, least) in enumerate([("A", "B"), ("C", "D"), ("A", "D")]):
        cast_vote(rnd, f"voter-{width}-{n}", most, least, folder=vote_folder)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with browser_page(width, height) as tab:
        tab.goto(vote_url)
        tab.get_by_role("tab", name="Results").click()
        tab.get_by_label("Round code (blank = every round)").fill(rnd.code)
        tab.get_by_role("button", name="Show results").click()
        plot = tab.locator(".js-plotly-plot").first
        plot.locator(".ytick text").first.wait_for(timeout=60_000)
        tab.wait_for_timeout(1000)
        plot.scroll_into_view_if_needed()
        tab.screenshot(path=str(SHOTS / f"vote-results-chart-{width}.png"))
        tab.locator("#vote-ranking").scroll_into_view_if_needed()
        tab.screenshot(path=str(SHOTS / f"vote-results-ranking-{width}.png"))
        shape = plot.evaluate(GEOMETRY_JS)
    assert shape["names"] == 4 and shape["outside"] == 0, shape
    assert shape["covered"] == 0, f"a name lies over a bar: {shape}"
    assert shape["share"] > 0.8, f"the bars get {shape['share']:.0%} of the chart's width"
