"""Issue 30, in a real headless Chromium at 1280 px and on a 390 px phone.

The Vote and Trust pages run alone with the app's style rules (as ``app.py``
launches them); rounds and votes live in a temporary folder. Checked where a
visitor sees it: the vote's reveal table breaks no word inside itself (Gradio
broke its headers one letter a line) and scrolls sideways on a phone with its
first columns in view; the vote chart's title and labels lie inside the chart;
every Trust tab is in the tab bar (not behind a "⋯" menu) and opens; the batch
report opens from a file with the network cut off and draws every chart.
Screenshots go to ``test-artifacts/issue30/``; a browser console error fails a test.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from config import ROOT
from studies.votes import rounds as votes_module
from studies.votes.log import cast_vote
from studies.votes.rounds import Entry, VoteRound, create_round, save_round

pytestmark = pytest.mark.slow
CHROMIUM = "/usr/bin/chromium"
SHOTS = ROOT / "test-artifacts" / "issue30"
LOCAL = "local/qwen2.5-coder-1.5b"
#: Words of a cell's text that the browser split over two lines (a break after "-" is fine).
BROKEN_WORDS_JS = """root => {
  const broken = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/[^\\s-]+-?/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""
#: Texts of the chart (title, axis titles, tick labels, legend) that stick out of its SVG.
CUT_TEXT_JS = """plot => {
  const box = plot.querySelector("svg.main-svg").getBoundingClientRect();
  const texts = plot.querySelectorAll(".gtitle, .xtitle, .ytick text, .xtick text, .legendtext");
  return [...texts].filter(t => {
    const r = t.getBoundingClientRect();
    return r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1
      || r.bottom > box.bottom + 1;
  }).map(t => t.textContent);
}"""

if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed here", allow_module_level=True)


@pytest.fixture(scope="module")
def urls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The Vote and Trust pages, each on its own with the app's CSS and launch options."""
    from pages import trust, vote
    from pages.widgets.launch import launch_options
    from pages.widgets.style import CSS

    patch = pytest.MonkeyPatch()
    folder = tmp_path_factory.mktemp("votes")
    patch.setattr(
        votes_module, "SETTINGS", dataclasses.replace(votes_module.SETTINGS, votes_dir=folder)
    )
    pages = {"vote": vote.build(), "trust": trust.build()}
    for page in pages.values():
        page.queue().launch(
            prevent_thread_lock=True, quiet=True, server_name="127.0.0.1", css=CSS,
            **launch_options(),
        )  # fmt: skip
    try:
        yield {name: page.local_url for name, page in pages.items()}
    finally:
        for page in pages.values():
            page.close()
        patch.undo()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture(params=[1280, 390], ids=["1280px", "390px"])
def tab(request: pytest.FixtureRequest, browser) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """A fresh page at 1280 or 390 px wide that records console errors."""
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    page = context.new_page()
    page.width = request.param
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    yield page
    errors = page.errors
    context.close()
    assert errors == [], f"browser console errors: {errors}"


def scored_round() -> VoteRound:
    """A round with long source names and two scorers, as a keyless class round has."""
    entries = [
        Entry(f"{LOCAL}#study", "That sounds so hard. Losing your dad and not sleeping…"),
        Entry(f"{LOCAL}#chain-of-empathy", "I hear how exhausted you are."),
        Entry("human/counselchat", "Grief often shows up at night."),
        Entry("teacher/a friend's reply", "Melatonin."),
    ]
    rnd = create_round("I can't sleep since my dad died.", entries)
    scorers = ("bert-head", "judge-weighted/local/qwen2.5-coder-1.5b")
    scores = {s: {e.source: {"overall": 2.0} for e in entries} for s in scorers}
    rnd = dataclasses.replace(rnd, scores=scores)
    save_round(rnd)
    return rnd


def vote_in_browser(tab, url: str, rnd: VoteRound) -> None:  # type: ignore[no-untyped-def]
    """Open the round's link, pick A as most and B as least empathetic, vote."""
    tab.goto(f"{url}?round={rnd.code}")
    most = tab.locator("fieldset", has_text="Most empathetic reply").locator("input[type=radio]")
    most.first.wait_for(timeout=60_000)
    tab.wait_for_timeout(500)
    most.first.check()
    least = tab.locator("fieldset", has_text="Least empathetic reply").locator("input[type=radio]")
    least.nth(1).check()
    tab.get_by_role("button", name="Vote", exact=True).click()
    tab.get_by_text("Thank you").wait_for(timeout=60_000)
    tab.wait_for_timeout(500)


def test_the_vote_reveal_breaks_no_word_and_scrolls_sideways_on_a_phone(tab, urls):
    vote_in_browser(tab, urls["vote"], scored_round())
    block = tab.locator(".block.vote-reveal")
    table = block.locator("table")
    tab.screenshot(path=str(SHOTS / f"1-vote-reveal-{tab.width}-test.png"), full_page=True)
    assert table.evaluate(BROKEN_WORDS_JS) == [], "a word of the reveal table is cut in two"
    scroll, shown = block.evaluate("b => [b.scrollWidth, b.clientWidth]")
    cue = block.locator(".scroll-cue")
    if tab.width == 390:
        assert scroll > shown and cue.is_visible(), "too wide for a phone: it scrolls, says so"
        right = block.bounding_box()["x"] + shown
        for name in ("reply", "written by", "your vote"):  # seen without swiping
            head = table.locator("th", has_text=name).bounding_box()
            assert head["x"] + head["width"] <= right + 1, name
    else:
        assert scroll <= shown and not cue.is_visible(), "a wide screen shows it whole"


def test_the_vote_chart_keeps_its_title_and_labels_inside(tab, urls):
    rnd = scored_round()
    cast_vote(rnd, "voter-1", "A", "B")
    cast_vote(rnd, "voter-2", "C", "D")
    tab.goto(urls["vote"])
    tab.get_by_role("tab", name="Results").click()
    tab.get_by_label("Round code (blank = every round)").fill(rnd.code)
    tab.get_by_role("button", name="Show results").click()
    plot = tab.locator(".js-plotly-plot").first
    plot.locator(".ytick text").first.wait_for(timeout=60_000)
    tab.wait_for_timeout(1000)
    plot.screenshot(path=str(SHOTS / f"4-vote-chart-{tab.width}-test.png"))
    assert plot.locator(".ytick text").count() == 4
    assert plot.evaluate(CUT_TEXT_JS) == [], "a text of the chart sticks out of it"


def test_every_trust_tab_is_in_the_tab_bar_and_opens(tab, urls):
    tab.goto(urls["trust"])
    tab.get_by_role("button", name="Compare with people").wait_for(timeout=60_000)
    tab.wait_for_timeout(500)
    tab.screenshot(path=str(SHOTS / f"2-trust-tabs-{tab.width}-test.png"))
    assert not tab.get_by_role("button", name="More tabs").is_visible()
    names = ("Agreement with people", "Calibration", "Pairwise, both orders", "Judge panel")
    for name in (*names, "Conversations: experts"):
        button = tab.get_by_role("tab", name=name)
        box = button.bounding_box()
        assert button.is_visible() and box["x"] + box["width"] <= tab.width, name
    tab.get_by_role("tab", name="Judge panel").click()
    tab.get_by_role("button", name="Run the panel").wait_for(state="visible", timeout=10_000)


def test_the_batch_report_draws_every_chart_offline(tab, tmp_path):
    """Issue 30: the report is one file with plotly.js inlined once; with every network
    request refused, it still draws each of its charts."""
    from reports.batch import write_report
    from tests.batch.test_batch_report import make_run

    make_run(tmp_path, np.random.default_rng(0))
    report = write_report(tmp_path)
    asked: list[str] = []

    def offline(route) -> None:  # type: ignore[no-untyped-def]
        """Let the file itself load; refuse (and note) anything else."""
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            asked.append(route.request.url)
            route.abort()

    tab.route("**/*", offline)
    tab.goto(report.path.as_uri())
    drawn = tab.locator(".js-plotly-plot .main-svg")
    drawn.nth(len(report.figures) - 1).wait_for(timeout=30_000)
    tab.wait_for_timeout(1000)
    tab.screenshot(path=str(SHOTS / f"3-batch-report-{tab.width}-test.png"), full_page=True)
    assert asked == [], f"the report asked the network for {asked}"
    assert tab.locator(".js-plotly-plot").count() == len(report.figures)
    assert drawn.count() >= len(report.figures)
