"""Cold walk (Vote page, points 1-3), in a real headless Chromium at 1280 and 390 px: the Results
tab's round code holds the round a link opened (``?round=CODE``) and then the round just made;
the ranking and agreement tables fit the screen (on a phone each source is a block with its
figures named under it: no sideways swipe to reach "strength"); "How the votes are counted"
opens under the ranking. A scripted local model writes the round's replies at once.
Screenshots go to ``/tmp/vote_small_fixes/``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from pages.widgets.round_maker import TEACHER_LABEL
from responders import registry
from studies.votes.log import cast_vote
from studies.votes.rounds import Entry, VoteRound, create_round, save_round
from tests.conftest import ScriptedResponder, require_chromium, served

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/vote_small_fixes")
LOCAL = "local/qwen2.5-coder-1.5b"
RESULTS_LABEL = "Round code (blank = every round)"
#: How far each results table reaches past its box and past the screen (0 when it fits).
OVERFLOW_JS = """box => {
  const table = box.querySelector("table");
  const cells = [...box.querySelectorAll("td")].map(c => c.getBoundingClientRect().right);
  return {inside: table.scrollWidth - box.clientWidth,
          past_screen: Math.max(...cells) - document.documentElement.clientWidth,
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""

require_chromium()


@pytest.fixture(scope="module")
def url(vote_folder: Path) -> Iterator[str]:
    from pages import vote

    patch = pytest.MonkeyPatch()
    patch.setitem(registry._CACHE, LOCAL, ScriptedResponder(chunks=["I hear you. ", "It's hard."]))
    with served(vote.build()) as address:
        yield address.rstrip("/")
    patch.undo()


def scored_round(vote_folder: Path) -> VoteRound:
    """A keyless class round (long source names) with two scorers' scores and six votes."""
    entries = [
        Entry(f"{LOCAL}#study", "That sounds so hard."),
        Entry(f"{LOCAL}#chain-of-empathy", "I hear how exhausted you are."),
        Entry("teacher/a friend's reply", "You are not alone in this."),
        Entry("human/counselchat", "Grief often shows up at night."),
    ]
    rnd = create_round("I can't sleep since my dad died.", entries, folder=vote_folder)
    scorers = ("bert-head", f"judge-weighted/{LOCAL}")
    scores = {s: {e.source: {"overall": 2.0 + i, "status": "ok"} for i, e in enumerate(entries)}
              for s in scorers}  # fmt: skip
    rnd = dataclasses.replace(rnd, scores=scores)
    save_round(rnd, folder=vote_folder)
    for n in range(6):
        cast_vote(rnd, f"voter-{n}", "ABCD"[n % 4], "ABCD"[(n + 1) % 4], folder=vote_folder)
    return rnd


def test_the_results_box_holds_the_linked_round_then_the_round_just_made(url, vote_folder, tab):
    from playwright.sync_api import expect

    linked = create_round(
        "I can't sleep since my dad died.",
        [Entry("human/counselchat", "Grief shows at night."), Entry("x#a", "That is hard.")],
        folder=vote_folder,
    )
    tab.goto(f"{url}/?round={linked.code}")
    expect(tab.get_by_text("Reply A", exact=True).first).to_be_visible(timeout=30_000)
    tab.get_by_role("tab", name="Results").click()
    box = tab.get_by_label(RESULTS_LABEL)
    expect(box).to_have_value(linked.code, timeout=10_000)
    tab.screenshot(path=str(SHOTS / f"results-box-linked-{tab.width}.png"))

    tab.goto(url)  # a teacher opens /vote: a round link shows no round maker (issue 30)
    tab.get_by_text(TEACHER_LABEL).wait_for(timeout=30_000)
    tab.get_by_role("button", name="Random question").click()
    expect(tab.get_by_text("This round: 4 replies").first).to_be_visible(timeout=30_000)
    tab.get_by_role("button", name="Make the round").click()
    made = tab.get_by_text(re.compile(r"Round code: [A-Z0-9]{4}"))
    expect(made).to_be_visible(timeout=120_000)
    code = re.search(r"Round code: ([A-Z0-9]{4})", made.inner_text()).group(1)
    assert code != linked.code
    tab.get_by_role("tab", name="Results").click()
    expect(box).to_have_value(code, timeout=10_000)
    tab.screenshot(path=str(SHOTS / f"results-box-made-{tab.width}.png"))


def test_the_results_tables_fit_the_screen(url, vote_folder, tab):
    from playwright.sync_api import expect

    rnd = scored_round(vote_folder)
    tab.goto(url)
    tab.get_by_role("tab", name="Results").click()
    tab.get_by_label(RESULTS_LABEL).fill(rnd.code)
    tab.get_by_role("button", name="Show results").click()
    ranking, agreement = tab.locator("#vote-ranking"), tab.locator("#vote-agreement")
    expect(agreement.locator("td").first).to_be_visible(timeout=60_000)
    tab.get_by_text("How the votes are counted").click()
    expect(tab.get_by_text("0 is average")).to_be_visible()
    for name, box in (("ranking", ranking), ("agreement", agreement)):
        box.evaluate("b => b.scrollIntoView({block: 'start'})")
        tab.wait_for_timeout(300)
        tab.screenshot(path=str(SHOTS / f"results-{name}-{tab.width}.png"))
        overflow = box.evaluate(OVERFLOW_JS)
        assert max(overflow.values()) <= 1, (name, overflow)
    strength = ranking.locator("td[data-label='strength']").first
    expect(strength).to_be_visible()
    assert strength.bounding_box()["x"] + strength.bounding_box()["width"] <= tab.width
    header = ranking.get_by_role("columnheader", name="strength")
    if tab.width < 640:  # each figure named beside it instead of a header row
        expect(header).to_be_hidden()
        assert strength.evaluate("c => getComputedStyle(c, '::before').content") == '"strength: "'
    else:
        expect(header).to_be_visible()
