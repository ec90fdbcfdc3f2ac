"""Issue 30, walk 4, the Vote page in a real headless Chromium at 1280x900 and 390x844:

- a student's link (``/vote?round=K7Q2``) shows the ballot alone: no "Make a new round
  (teachers)" section, not even folded; a teacher (``/vote``) still finds it open;
- a reply's Markdown shows as words (no asterisks), its HTML as text that never runs;
- the two pickers are radio groups named "Most/Least empathetic reply";
- while a round is made the page's own line under the buttons is the one readout (Gradio's
  bar beside it read "writing reply 1 of 4 · 3 s - 0.0%").

A scripted local model writes slowly, so the bar can be read. Screenshots: ``/tmp/u30/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from pages.widgets.round_maker import TEACHER_LABEL
from responders import registry
from studies.votes.rounds import Entry, create_round
from tests.conftest import ScriptedResponder, require_chromium, served

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/u30")
LOCAL = "local/qwen2.5-coder-1.5b"
MARKED = (
    "**Be kind to yourself** tonight.\n- Write *one* worry down\n- Go to bed at ten "
    '<img src=x onerror="window.ranHtml=1"><script>window.ranHtml=2</script>'
)

require_chromium()


@pytest.fixture(scope="module")
def url(vote_folder: Path) -> Iterator[str]:
    """The Vote page, its local model scripted to write eight words in four seconds."""
    from pages import vote

    patch = pytest.MonkeyPatch()
    patch.setitem(registry._CACHE, LOCAL, ScriptedResponder(chunks=["word "] * 8, pause_s=0.5))
    try:
        with served(vote.build()) as address:
            yield address.rstrip("/")
    finally:
        patch.undo()


def test_a_students_link_shows_the_ballot_alone_with_named_pickers(url, vote_folder, tab):
    from playwright.sync_api import expect

    entries = [Entry("human/counselchat", MARKED), Entry("x#a", "That is so hard.")]
    rnd = create_round("I can't sleep since my dad died.", entries, folder=vote_folder)
    tab.goto(f"{url}/?round={rnd.code}")
    expect(tab.get_by_text(f"Round {rnd.code}")).to_be_visible(timeout=30_000)
    most = tab.get_by_role("radiogroup", name="Most empathetic reply")
    least = tab.get_by_role("radiogroup", name="Least empathetic reply")
    expect(most).to_be_visible(timeout=10_000)
    expect(least).to_be_visible()
    expect(most.get_by_role("radio")).to_have_count(2)
    tab.wait_for_timeout(800)  # the load events have all run
    assert tab.get_by_text(TEACHER_LABEL).count() == 0  # not there, not even folded
    assert tab.get_by_role("button", name="Make the round").count() == 0
    replies = [tab.get_by_role("textbox", name=f"Reply {x}").input_value() for x in "AB"]
    (marked,) = [r for r in replies if "kind" in r]
    assert marked.startswith("Be kind to yourself tonight.\n• Write one worry down\n• Go")
    assert "*" not in marked and "<script>" in marked  # the HTML shows as text …
    assert tab.evaluate("window.ranHtml") is None  # … and never runs
    tab.screenshot(path=str(SHOTS / f"vote-student-{tab.width}.png"), full_page=True)

    tab.goto(url)  # a teacher: the round maker, open
    expect(tab.get_by_text(TEACHER_LABEL)).to_be_visible(timeout=30_000)
    expect(tab.get_by_text("Models that reply")).to_be_visible(timeout=10_000)
    expect(tab.get_by_role("radiogroup", name="Most empathetic reply")).to_have_count(1)


def test_making_a_round_shows_the_line_without_a_percentage(url, tab):
    from playwright.sync_api import expect

    tab.goto(url)
    tab.get_by_role("button", name="Random question").click()
    expect(tab.get_by_text("This round: 4 replies")).to_be_visible(timeout=30_000)
    tab.get_by_role("button", name="Make the round").click()
    line = tab.locator(".own-clock").first
    expect(line).to_contain_text("Writing reply 1 of 4", timeout=30_000)
    seen = set()
    for _ in range(12):  # about six seconds: a first reply and part of the second
        seen.add(line.inner_text().strip())
        seen |= {t.strip() for t in tab.locator(".progress-level-inner").all_inner_texts()}
        tab.wait_for_timeout(500)
    line.scroll_into_view_if_needed()
    tab.screenshot(path=str(SHOTS / f"vote-making-{tab.width}.png"))
    tab.get_by_role("button", name="Stop").click()
    assert any("Writing reply 2 of 4" in said for said in seen), seen  # the line moves on
    assert not [said for said in seen if re.search(r"\d%", said)], seen  # no "0.0%"
