"""Issue 30, in a real headless Chromium: a reply on Compare goes to the Adversarial lab in
one press ("Try this reply in the Adversarial lab" under its panel), which fills the lab's
Reply and Message boxes and opens its tab; the page alone (``/compare``) has no lab, so no
such button. The therapist answers a bundled question at once: no model runs.
Screenshots at 1280 and 390 px go to ``/tmp/lab_send/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.questions import load_questions
from pages.widgets.reply_panels import panel_id
from pages.widgets.send_to_lab import BUTTON
from tests.conftest import require_chromium, served

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/lab_send")
HUMAN, LOCAL = "human/counselchat", "local/qwen2.5-coder-1.5b"
PICKED = 3  # the bundled question picked (its place in the list)

require_chromium()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """Every page as a tab of one app (and each at its own address)."""
    import app

    with served(app.build_app()) as address:
        yield address


def therapist_reply(tab, address: str):  # type: ignore[no-untyped-def]
    """Open ``address``, pick a bundled question, get the therapist's answer alone (no model,
    no scorer); returns the therapist's panel."""
    from playwright.sync_api import expect

    tab.goto(address)
    tab.get_by_label("Pick a bundled question").click()
    tab.get_by_role("option").nth(PICKED).click()
    message = tab.locator("textarea").first  # the Compare page's message box
    expect(message).to_have_value(load_questions()[PICKED].question, timeout=10_000)
    tab.locator(f"input[type=checkbox][name='{LOCAL}']").first.uncheck()
    tab.get_by_text("Who scores the replies").first.click()
    tab.locator("input[type=checkbox][name='bert-head']").first.uncheck()
    tab.get_by_role("button", name="Get replies").click()
    expect(tab.locator("#compare-progress")).to_contain_text("Done.", timeout=60_000)
    reply = tab.locator(f"#{panel_id(HUMAN)}")
    return tab.locator(".column").filter(has=reply).last


def test_a_compare_reply_opens_in_the_lab_with_its_message(url, tab):
    from playwright.sync_api import expect

    question = load_questions()[PICKED]
    panel = therapist_reply(tab, url)
    send = panel.get_by_role("button", name=BUTTON)
    expect(send).to_be_visible()
    tab.locator("textarea").first.fill("Something else typed after the run.")
    # Issue 30: the therapist is unticked (the new text is no bundled question), but the
    # reply on screen stays in view, with its button, until the next run.
    expect(tab.locator(f"input[type=checkbox][name='{HUMAN}']").first).not_to_be_checked()
    tab.wait_for_timeout(1_500)  # the panels' visibility follows the ticks in one more event
    expect(send).to_be_visible()
    send.scroll_into_view_if_needed()
    tab.wait_for_timeout(300)
    tab.screenshot(path=str(SHOTS / f"compare-button-{tab.width}.png"))
    send.click()

    lab = tab.get_by_role("tab", name="Adversarial", exact=True)
    expect(lab).to_have_attribute("aria-selected", "true", timeout=10_000)
    reply_box = tab.get_by_label("Reply", exact=True)
    message_box = tab.get_by_label("The message it answers")
    expect(reply_box).to_have_value(question.answer, timeout=10_000)
    expect(message_box).to_have_value(question.question)  # what it answered, not the box now
    expect(tab.get_by_text("Sent from Compare")).to_be_visible()
    # Cold walk (point 12): "Rewrites … by" was cut at 390 px; each control now has its width.
    rewrites = tab.get_by_label("Rewrites (shortened, elevated, casual) by")
    rewrites.scroll_into_view_if_needed()
    assert rewrites.bounding_box()["width"] >= 250  # two to a row on a phone: about 130
    tab.wait_for_timeout(300)
    tab.screenshot(path=str(SHOTS / f"lab-filled-{tab.width}.png"))


def test_the_flag_button_is_as_tall_as_the_note_beside_it(url, tab):
    """Cold walk (issue 30, point 12): the flag note box and its button sat misaligned (a
    short button at the top of a taller box)."""
    panel = therapist_reply(tab, url)
    note = panel.get_by_placeholder("Why flag it? (optional)")
    button = panel.get_by_role("button", name="Flag this reply")
    button.scroll_into_view_if_needed()
    note_box, button_box = note.bounding_box(), button.bounding_box()
    tab.screenshot(path=str(SHOTS / f"flag-row-{tab.width}.png"))
    if button_box["y"] < note_box["y"] + note_box["height"]:  # side by side, not stacked
        assert button_box["height"] >= note_box["height"], (note_box, button_box)


def test_the_page_alone_offers_no_button_to_a_lab_it_does_not_have(url, tab):
    from playwright.sync_api import expect

    panel = therapist_reply(tab, url.rstrip("/") + "/compare")
    expect(panel.get_by_role("button", name="Flag this reply")).to_be_visible()
    expect(tab.get_by_role("button", name=BUTTON)).to_have_count(0)
    assert tab.get_by_text(BUTTON).count() == 0
