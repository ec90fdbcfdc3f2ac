"""Cold-walk finding: a screen reader read nothing for a text box on the Vote page (the
Results tab's "Round code" box was named). Every text box a visitor can see there, on the
Vote tab (the teacher's round maker open, then a student's ballot) and on the Results tab,
has an accessible name. In a real headless Chromium at 1280 and 390 px."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studies.votes.rounds import Entry, create_round
from tests.conftest import require_chromium

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/h2")
#: A text box in an ARIA snapshot, with its name: '- textbox "Round code"' (in YAML quotes
#: when the name holds a colon).
NAMED = re.compile('^- \'?textbox "[^"]+"')

require_chromium()


def unnamed_boxes(tab) -> list[str]:  # type: ignore[no-untyped-def]
    """The ARIA snapshots of the visible text boxes with no name, or only Gradio's stand-in
    "Textbox" (a box without a label: Gradio 6 names it so, hidden, for a screen reader)."""
    boxes = [b for b in tab.get_by_role("textbox").all() if b.is_visible()]
    assert boxes, "no text box in view"
    said = [b.aria_snapshot() for b in boxes]
    return [s for s in said if not NAMED.match(s) or s.startswith('- textbox "Textbox"')]


def test_every_text_box_on_the_vote_page_has_a_name(vote_url, vote_folder, tab):
    from playwright.sync_api import expect

    tab.goto(vote_url)  # a teacher: the round maker opens
    expect(tab.get_by_role("textbox", name="Message (or paste your own)")).to_be_visible(
        timeout=30_000
    )
    assert unnamed_boxes(tab) == []

    entries = [Entry("human/counselchat", "Grief shows at night."), Entry("x#a", "So hard.")]
    rnd = create_round("I can't sleep since my dad died.", entries, folder=vote_folder)
    tab.goto(f"{vote_url}/?round={rnd.code}")  # a student's ballot
    expect(tab.get_by_role("textbox", name="Reply A")).to_be_visible(timeout=30_000)
    assert unnamed_boxes(tab) == []

    tab.get_by_role("tab", name="Results").click()
    code = tab.get_by_role("textbox", name="Round code (blank = every round)")
    expect(code).to_have_value(rnd.code, timeout=10_000)
    tab.screenshot(path=str(SHOTS / f"vote-results-labels-{tab.width}.png"))
    assert unnamed_boxes(tab) == []
