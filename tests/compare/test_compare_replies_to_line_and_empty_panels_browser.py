"""Newcomer walk, Compare page, in a real headless Chromium (Debian's, driven by Playwright).

1. "Get replies" stayed clickable while a run was going: a second press was silently ignored,
   so the box showed a new message under the replies to the old one, and a flag then stored
   the old message. Now the button is greyed out until the run ends (Stop gives it back), and
   a "Replies to" line above the panels names the message the replies on screen answer.
   "Carry the conversation on" is greyed out with it (issue 30).
2. On a pasted message the therapist's panel ("unavailable") still had a flag button, and the
   progress line counted it as a finished reply.

A fake OpenAI-compatible server writes the replies. Screenshots at 1280x900 and 390x844 go to
``test-artifacts/walk-fixes/``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from config import ROOT
from core import flags as flagging
from core.flags import FlagLog
from pages.widgets.reply_panels import panel_id
from responders.registry import get_responder
from tests.conftest import browser_page, require_chromium, served
from tests.fake_providers import FakeProvider, Stream

pytestmark = pytest.mark.slow
SHOTS = ROOT / "test-artifacts" / "walk-fixes"
HUMAN, COMPAT = "human/counselchat", "openai-compatible/default"
FIRST = "My dog died last week and I keep waiting for him at the door."
SECOND = "My sister stopped talking to me after the wedding."
CHUNKS = [f"word{i} " for i in range(14)]  # about 5 s a reply: time to press again

require_chromium()


def compare_page(selection: list[str], streams: list[Stream]) -> Iterator[str]:
    """The Compare page alone (``selection`` ticked, no scorer), the fake OpenAI-compatible
    writer playing ``streams``; yields its address."""
    from pages import compare
    from pages.widgets import compare_inputs, reply_panels

    patch = pytest.MonkeyPatch()
    patch.setattr(compare_inputs, "DEFAULT_SCORERS", [])
    patch.setattr(compare_inputs, "default_selection", lambda: selection)
    patch.setattr(reply_panels, "default_selection", lambda: selection)
    try:
        with FakeProvider("openai") as fake:
            fake.script(*streams)
            patch.setattr(get_responder(COMPAT), "base_url", fake.url + "/v1")
            with served(compare.build()) as address:
                yield address
    finally:
        patch.undo()


@pytest.fixture(scope="module")
def page_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The Compare page with the fake writer and the therapist ticked, flags in a temporary
    folder; yields its address and that folder."""
    folder = tmp_path_factory.mktemp("flags")
    patch = pytest.MonkeyPatch()
    patch.setattr(flagging, "SETTINGS", dataclasses.replace(flagging.SETTINGS, flag_dir=folder))
    try:
        for address in compare_page([COMPAT, HUMAN], [Stream(CHUNKS, pause_s=0.35)] * 24):
            yield address, folder
    finally:
        patch.undo()


@pytest.fixture(scope="module")
def silent_url() -> Iterator[str]:
    """The Compare page with a writer that sends nothing for 12 s (a model loading, a silent
    server)."""
    yield from compare_page([COMPAT], [Stream(CHUNKS, delay_s=12.0)] * 4)


@pytest.fixture(params=[(1280, 900), (390, 844)], ids=["wide", "phone"])
def tab(request: pytest.FixtureRequest) -> Iterator[object]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width, height = request.param
    with browser_page(width, height) as page:
        page.width, page.errors = width, []
        page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        yield page
    assert page.errors == [], f"browser console errors: {page.errors}"


def panel(tab, responder_id: str):  # type: ignore[no-untyped-def]
    """The column holding ``responder_id``'s reply, its status and its flag controls."""
    return tab.locator(f"#{panel_id(responder_id)}-column")  # its reply box may be folded


def shoot(tab, button, name: str) -> None:  # type: ignore[no-untyped-def]
    """A screenshot from ``button`` down: the buttons, the progress line, the replies."""
    button.evaluate("b => b.scrollIntoView({block: 'start'})")
    tab.wait_for_timeout(300)
    tab.screenshot(path=str(SHOTS / f"{name}-{tab.width}.png"))


def flag(tab, responder_id: str, folder: Path) -> dict:  # type: ignore[no-untyped-def]
    """Flag ``responder_id``'s reply on screen (with a note of its own); the row written."""
    column = panel(tab, responder_id)
    note = f"walk {tab.width} {len(FlagLog(folder).read())}"
    column.get_by_placeholder("Why flag it?").fill(note)
    column.get_by_role("button", name="Flag this reply").click()
    column.get_by_text("It is in the Flags tab.").wait_for(timeout=15_000)  # a new row written
    (row,) = [r for r in FlagLog(folder).read() if r["note"] == note]
    return row


def test_get_replies_is_greyed_out_while_a_run_goes_and_the_line_names_its_message(page_url, tab):
    from playwright.sync_api import expect

    url, folder = page_url
    tab.goto(url)
    box, progress = tab.get_by_label("Message"), tab.locator("#compare-progress")
    get = tab.get_by_role("button", name="Get replies")
    replies_to = tab.locator("#replies-to")
    box.fill(FIRST)
    get.click()
    expect(get).to_be_disabled(timeout=5_000)
    expect(replies_to).to_contain_text(f"Replies to: “{FIRST}”", timeout=10_000)
    tab.wait_for_timeout(1_500)
    box.fill(SECOND)  # the walk's second message, typed while the first is answered
    expect(get).to_be_disabled()
    expect(progress).to_contain_text("being written")
    shoot(tab, get, "compare-busy")  # the box says SECOND; the line, what is being answered

    expect(progress).to_contain_text("Done.", timeout=30_000)
    expect(get).to_be_enabled()
    expect(replies_to).to_contain_text(FIRST)  # the box says SECOND; the line, what was sent
    shoot(tab, get, "compare-done-box-changed")
    assert flag(tab, COMPAT, folder)["message"] == FIRST

    get.click()
    expect(replies_to).to_contain_text(f"Replies to: “{SECOND}”", timeout=10_000)
    expect(panel(tab, COMPAT).get_by_text("Flagged.")).to_have_count(0)  # about the last run
    expect(progress).to_contain_text("Done.", timeout=30_000)
    assert flag(tab, COMPAT, folder)["message"] == SECOND

    stop = tab.get_by_role("button", name="Stop")
    carry = tab.get_by_role("button", name="Add both to the conversation")
    carry_on = tab.get_by_text("Carry the conversation on (turn by turn)")
    carry_on.click()
    expect(carry).to_be_enabled(timeout=5_000)
    get.click()  # Stop still stops, and gives the buttons back
    expect(get).to_be_disabled(timeout=5_000)
    expect(carry).to_be_disabled()  # issue 30: it could add a reply still being written
    expect(progress).to_contain_text("being written", timeout=10_000)
    shoot(tab, carry_on, "compare-busy-carry")
    stop.click()
    expect(progress).to_have_text("Stopped.", timeout=10_000)
    expect(get).to_be_enabled(timeout=5_000)
    expect(carry).to_be_enabled()
    # Cold walk: "streaming…" stayed under the half-written reply after Stop.
    expect(panel(tab, COMPAT)).to_contain_text("stopped: Stop was pressed", timeout=5_000)
    expect(panel(tab, COMPAT).get_by_text("streaming…")).to_have_count(0)


def test_a_panel_with_no_reply_has_no_flag_button_and_is_not_counted_as_written(page_url, tab):
    from playwright.sync_api import expect

    url, _ = page_url
    tab.goto(url)
    therapist, writer = panel(tab, HUMAN), panel(tab, COMPAT)
    expect(tab.get_by_role("button", name="Flag this reply")).to_have_count(0)  # nothing yet
    tab.get_by_label("Message").fill(SECOND)  # pasted: the therapist has no answer to it
    tab.get_by_role("button", name="Get replies").click()
    progress = tab.locator("#compare-progress")
    expect(progress).to_contain_text("Done.", timeout=30_000)
    expect(progress).to_contain_text("1 reply written, 1 not available here")
    expect(therapist).to_contain_text("unavailable")
    expect(therapist.get_by_role("button", name="Flag this reply")).to_be_hidden()
    expect(writer.get_by_role("button", name="Flag this reply")).to_be_visible()
    shoot(tab, tab.locator("#compare-progress"), "compare-unavailable")


def test_stop_works_while_the_writer_has_sent_nothing_yet(silent_url, tab):
    # Two fresh-clone runs timed out on Stop: the stream had gone silent, the page's handler
    # yielded only when a word came, and Gradio's cancel waits for the handler to hand back
    # control, so neither the clock nor Stop moved. Now a snapshot comes every second.
    from playwright.sync_api import expect

    tab.goto(silent_url)
    progress = tab.locator("#compare-progress")
    get = tab.get_by_role("button", name="Get replies")
    tab.get_by_label("Message").fill(FIRST)
    get.click()
    expect(progress).to_contain_text("Working", timeout=10_000)
    # the clock moves in the silence (a loaded machine may skip a second: 1 s, then 3 s)
    expect(progress).to_contain_text(re.compile(r"· ([2-9]|[1-9][0-9]+) s"), timeout=10_000)
    shoot(tab, get, "compare-silent")
    tab.get_by_role("button", name="Stop").click()
    expect(progress).to_have_text("Stopped.", timeout=4_000)
    expect(get).to_be_enabled(timeout=5_000)
