"""Newcomer walk, Compare page, what a run sends to the page (no browser; a fake server writes).

1. A run that starts names its message for the "Replies to" line above the panels; a refused
   message never does (the replies on screen still answer the previous one).
2. A panel with no reply (the therapist on a pasted message) has no flag controls, and the
   progress line counts only the replies actually written.
"""

from __future__ import annotations

from collections.abc import Iterator

import gradio as gr
import pytest

from core.conversation import asked
from core.questions import load_questions
from pages.compare_updates import ASKED, compare_on_page
from pages.widgets.reply_panels import RESPONDER_IDS
from pages.widgets.shown_replies import asked_value, replies_to_line
from responders.registry import get_responder
from tests.fake_providers import FakeProvider, Stream

NO_KEYS = ("", "", "", "")
HUMAN, COMPAT = "human/counselchat", "openai-compatible/default"
PASTED = "My dog died last week and I keep waiting for him at the door."
FLAG_ROWS = slice(2 * len(RESPONDER_IDS) + 3, 3 * len(RESPONDER_IDS) + 3)


@pytest.fixture
def writer(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeProvider]:
    """The OpenAI-compatible responder answers from a fake local server."""
    with FakeProvider("openai") as fake:
        fake.script(*[Stream(["I'm so sorry. ", "He was family."], pause_s=0.3) for _ in range(4)])
        monkeypatch.setattr(get_responder(COMPAT), "base_url", fake.url + "/v1")
        yield fake


def compare(message: str, saved: dict | None = None) -> list[list[object]]:
    """Every update of one press of Get replies (the writer and the therapist ticked)."""
    return list(compare_on_page(message, [COMPAT, HUMAN], [], "", 64, 0.3, *NO_KEYS, saved or {}))


def test_a_started_run_names_its_message_and_a_refused_one_does_not(writer):
    first, *rest = compare(PASTED)
    assert first[ASKED][0] == PASTED  # set as the run starts, before any reply is written
    assert all(update[ASKED] == gr.skip() for update in rest)  # and not changed after
    assert replies_to_line(first[ASKED]) == f"**Replies to:** “{PASTED}”"
    (refused,) = compare("   ", rest[-1][-1])
    assert refused[ASKED] == gr.skip() and "previous message" in str(refused[-2])


def test_the_line_quotes_the_first_words_and_names_a_conversations_last_message():
    long = "I " + "really " * 40 + "miss her."
    line = replies_to_line(asked_value(long))
    assert line.startswith("**Replies to:** “I really") and line.endswith("…”") and len(line) < 120
    conversation = asked_value(asked("Seeker: Hi\nSupporter: Hey, you?\nSeeker: I'm low today."))
    assert replies_to_line(conversation).startswith(
        "**Replies to** the last message of a conversation (2 turns before it): “I'm low"
    )
    assert replies_to_line(("<b>#1</b> *me*", 0, 0.0)) == (
        "**Replies to:** “&lt;b&gt;\\#1&lt;/b&gt; \\*me\\*”"  # shown as typed, never as markup
    )


def test_a_panel_with_no_reply_has_no_flag_controls_and_is_not_counted_as_written(writer):
    *_, last = compare(PASTED)
    shown = dict(zip(RESPONDER_IDS, last[FLAG_ROWS], strict=True))
    assert shown[COMPAT]["visible"] is True  # it wrote a reply: it can be flagged
    assert shown[HUMAN]["visible"] is False  # "unavailable": nothing to flag
    assert not any(row["visible"] for rid, row in shown.items() if rid != COMPAT)
    progress = str(last[-2])
    assert progress.startswith("Done. 1 reply written, 1 not available here ·"), progress


def test_while_a_reply_is_written_its_flag_controls_stay_hidden(writer):
    moments = compare(load_questions()[1].question)
    streaming = [m for m in moments if "being written" in str(m[-2])]
    assert streaming, [m[-2] for m in moments]
    for moment in streaming:
        assert dict(zip(RESPONDER_IDS, moment[FLAG_ROWS], strict=True))[COMPAT]["visible"] is False
    *_, last = moments
    assert str(last[-2]).startswith("Done. 2 replies written ·"), last[-2]
