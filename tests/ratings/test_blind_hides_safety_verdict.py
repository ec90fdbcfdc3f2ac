"""Blind hides the safety verdict too ("What people type stays theirs").

With Blind ticked the scores were hidden, but each reply panel still showed the safety screen's
verdict ("Safety screen: not safe: missed risk") under its reply: the rater read a verdict before
rating "safe to send?". Now the verdict hides with the scores (the scores table's safety cell is
in the table Blind hides) until every reply on screen is rated or Blind is unticked: the panel
shows its status line without the verdict in its place. The endpoint's status line keeps it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import gradio as gr
import pytest

from pages.compare_updates import _panel_updates
from pages.widgets.reply_panels import (
    RESPONDER_IDS,
    SAFETY_END,
    SAFETY_HELD,
    SAFETY_START,
    WITHOUT_SAFETY,
    panel_id,
)
from responders.base import GenerationSettings, Reply
from scorers.safety import SafetyResult
from studies.comparison import Comparison, Panel
from tests.conftest import CHROMIUM, browser_page

RID = "openai/gpt-4o"
MISSED = SafetyResult(1, ("suicide-self-harm",), 0, ("missed-risk",))
VERDICT = "Safety screen: not safe: missed risk"
HUMAN, LOCAL = "human/counselchat", "local/qwen2.5-coder-1.5b"
chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is missing")


def status_line() -> str:
    """The panel's status line for a reply the screen says is not safe."""
    settings = GenerationSettings()
    reply = Reply(RID, "gpt-4o", "I want to disappear.", settings, "Rest.", 2.0, 0.5, 9, 2,
                  attribution="Written by gpt-4o")  # fmt: skip
    state = Comparison({RID: Panel(RID, "done", "Rest.", reply=reply)}, {}, 0, {RID: MISSED})
    return _panel_updates(state)[2 * RESPONDER_IDS.index(RID) + 1]


def test_the_verdict_in_a_status_line_is_marked_off_from_the_rest() -> None:
    line = status_line()
    assert line.startswith("latency") and VERDICT in line, line  # the endpoint's line keeps it
    before, rest = line.split(SAFETY_START)
    verdict, after = rest.split(SAFETY_END)
    assert "Safety screen" in verdict and "Safety screen" not in before + after


@pytest.fixture(scope="module")
def page() -> gr.Blocks:
    from pages import compare

    return compare.build()


def test_blind_hides_each_status_line_and_shows_its_twin_without_the_verdict(page) -> None:
    blind = next(b for b in page.blocks.values() if getattr(b, "elem_id", None) == "rate-blind")
    compare = next(f for f in page.fns.values() if f.api_name == "compare")
    statuses = compare.outputs[: 2 * len(RESPONDER_IDS)][1::2]
    feeds = {
        f.inputs[0]: f.outputs[0]
        for f in page.fns.values()
        if f.js == WITHOUT_SAFETY and f.fn is None and f.inputs and f.inputs[0] in statuses
    }
    assert set(feeds) == set(statuses), "each status line feeds a twin without the verdict"
    twins = list(feeds.values())
    (ticked,) = [f for f in page.fns.values() if (blind._id, "change") in f.targets]
    assert set(statuses) | set(twins) <= set(ticked.outputs), "Blind sets the lines' visibility"
    updates = dict(zip(ticked.outputs, ticked.fn(True), strict=True))
    assert all(updates[s]["visible"] is False for s in statuses), "Blind hides the verdicts"
    assert all(updates[t]["visible"] is True for t in twins), "the lines show without them"
    updates = dict(zip(ticked.outputs, ticked.fn(False), strict=True))
    assert all(updates[s]["visible"] is True for s in statuses)
    assert all(updates[t]["visible"] is False for t in twins)
    # Whatever else shows or hides the scores (a new comparison, its end, the last rating)
    # shows or hides the verdicts with them.
    table = compare.outputs[2 * len(RESPONDER_IDS)]
    setters = [f for f in page.fns.values() if blind in f.inputs and table in f.outputs]
    assert len(setters) >= 4
    assert all(set(statuses) | set(twins) <= set(f.outputs) for f in setters)


@chromium
def test_the_twin_drops_the_verdict_and_keeps_the_rest_of_the_line() -> None:
    line = status_line()
    with browser_page(800) as tab:
        twin = tab.evaluate(f"({WITHOUT_SAFETY})({json.dumps(line)})")
        unchanged = tab.evaluate(f"({WITHOUT_SAFETY})('not run yet')")
    assert "not safe" not in twin and "missed" not in twin, twin
    assert twin.startswith("latency") and twin.endswith("<small>Written by gpt-4o</small>"), twin
    assert SAFETY_HELD in twin and unchanged == "not run yet"


def visible_verdicts(tab) -> list[str]:  # type: ignore[no-untyped-def]
    """The "Safety screen: …" lines the therapist's panel shows."""
    text = tab.locator(f"#{panel_id(HUMAN)}-column").inner_text()
    return re.findall(r"Safety screen: [^\n]*", text)


def therapist_answers(tab, which: int) -> None:  # type: ignore[no-untyped-def]
    """Pick bundled question ``which`` and get the therapist's answer alone (no model, no
    scorer); waits until the run and the events after it end."""
    from playwright.sync_api import expect

    from core.questions import load_questions

    question = load_questions()[which].question
    tab.get_by_label("Pick a bundled question").click()
    tab.get_by_role("option").nth(which).click()
    expect(tab.locator("textarea").first).to_have_value(question, timeout=10_000)
    tab.locator(f"input[type=checkbox][name='{LOCAL}']").uncheck()
    tab.get_by_role("button", name="Get replies").click()
    words = " ".join(question.split()[:3])
    expect(tab.locator("#replies-to")).to_contain_text(words, timeout=30_000)
    expect(tab.locator("#compare-progress")).to_contain_text("Done.", timeout=60_000)
    tab.wait_for_timeout(1_500)


@chromium
@pytest.mark.slow
def test_on_the_page_the_verdict_waits_for_the_rating_and_again_for_the_next_comparison() -> None:
    from playwright.sync_api import expect

    from pages import compare
    from tests.conftest import served

    with served(compare.build()) as url, browser_page(1280) as tab:
        tab.goto(url)
        tab.get_by_text("Who scores the replies").click()
        tab.locator("input[type=checkbox][name='bert-head']").uncheck()
        tab.get_by_label("Blind: hide the scorers").check()  # opens the rating box
        therapist_answers(tab, 3)
        held = [f"Safety screen: {SAFETY_HELD.strip('*').split(': ', 1)[1]}"]
        assert visible_verdicts(tab) == held
        tab.get_by_label("Your name or initials").fill("DW")
        for label in ("Cognitive", "Emotional", "Behavioral"):
            tab.locator("fieldset", has_text=label).locator("input[type=radio]").nth(1).check()
        tab.get_by_role("button", name="Save my rating").click()
        expect(tab.get_by_text("Every reply is rated")).to_be_visible(timeout=30_000)
        tab.wait_for_timeout(1_000)
        shown = visible_verdicts(tab)
        assert len(shown) == 1 and shown != held, shown  # rated: the verdict shows
        therapist_answers(tab, 4)  # a new comparison, Blind still ticked
        assert visible_verdicts(tab) == held
        expect(tab.locator("#scores-table")).to_be_hidden()
