"""Issue 32 in Chromium: a visitor picks a five-turn conversation on the Compare page, and
every responder's next turn streams in, scored and screened in context (1280 and 390 px)."""

from __future__ import annotations

import json

import pytest

from core.conversation import bundled_conversations
from tests.app.test_browser import (  # noqa: F401  (fixtures)
    _wait_for,
    app_url,
    browser,
    fake_writer_only,
    reply_panel,
    shot,
    slow_server,
)

pytestmark = pytest.mark.slow
#: A five-turn example with a passive wish in an earlier seeker turn.
TITLE = "Breakup, not wanting to be here"


@pytest.mark.parametrize("width", [1280, 390])
def test_a_pasted_conversation_gets_next_turns_streamed_scored_and_screened(
    browser,  # noqa: F811  (the fixtures imported above)
    app_url,  # noqa: F811
    slow_server,  # noqa: F811
    width,
):
    conversation = bundled_conversations()[TITLE]
    assert len(conversation.turns) == 5
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(app_url + "/compare")
    fake_writer_only(page)
    page.get_by_label("…or pick an example conversation").click()
    page.get_by_role("option", name=TITLE).click()
    box = page.get_by_label("…or paste a message, a story, or a conversation")
    _wait_for(lambda: box.input_value().startswith("Seeker: "), 30, "the conversation in the box")
    asked = len(slow_server.requests)
    page.get_by_role("button", name="Get replies").click()
    reply = reply_panel(page, "openai-compatible/default")
    first = _wait_for(lambda: "step 0" in reply.inner_text(), 120, "the first words")
    done = _wait_for(lambda: "step 23" in reply.inner_text(), 60, "the whole turn")
    assert done >= 4.0, f"first words at {first:.1f} s, the whole turn {done:.1f} s later"
    progress = page.locator("#compare-progress")
    _wait_for(lambda: progress.inner_text().startswith("Done"), 240, "the scores")
    page.wait_for_timeout(1000)
    shot(page, f"conversation-compare-{width}")
    body = page.locator("body").inner_text()
    assert "Safety screen" in body and "wasn't here anymore" in body  # the earlier risk, quoted
    # beside a conversation's scores: how they fared against experts on real conversations
    cautions = page.locator("#scorer-cautions").inner_text()
    assert cautions.startswith("Against experts, real conversations:"), cautions[:200]
    assert page.get_by_text("scored", exact=True).count() >= 1
    sent = slow_server.requests[asked].body["messages"]
    roles = [m["role"] for m in sent if m["role"] != "system"]
    assert roles == ["user", "assistant", "user", "assistant", "user"], json.dumps(sent)[:300]
    context.close()
