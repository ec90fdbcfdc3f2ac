"""Newcomer walk, in a headless Chromium at 1280x900 and 390x844: the Trust page leads with
what people would likely give for one of the chosen scorer's scores, its statistics open
under "How this was measured", and the note follows the scorer picked. The one-box form of
the notes (for Compare) opens its statistics the same way. Screenshots go to
``test-artifacts/newcomer/``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from config import ROOT
from tests.conftest import browser_page, require_chromium

pytestmark = pytest.mark.slow
SHOTS = ROOT / "test-artifacts" / "newcomer"
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
require_chromium()


@pytest.fixture(scope="module")
def urls() -> Iterator[tuple[str, str]]:
    import gradio as gr

    from pages import trust
    from pages.widgets.launch import launch_options
    from pages.widgets.style import CSS
    from pages.widgets.trust_notes import trust_notes

    page = trust.build()
    with gr.Blocks() as box:  # the notes as one Markdown box, as Compare shows them
        gr.Markdown(trust_notes(["bert-head", "judge-weighted/local/qwen2.5-coder-1.5b"]))
    for blocks in (page, box):
        blocks.queue().launch(
            prevent_thread_lock=True,
            quiet=True,
            server_name="127.0.0.1",
            css=CSS,
            **launch_options(),
        )
    try:
        yield page.local_url, box.local_url
    finally:
        page.close()
        box.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_trust_note_reads_first_and_opens_its_statistics(urls, size):

    SHOTS.mkdir(parents=True, exist_ok=True)
    width, height = SIZES[size]
    with browser_page(width, height) as tab:
        tab.goto(urls[0])
        note = tab.locator("#trust-note")
        note.get_by_text("people would likely give between").wait_for(timeout=60_000)
        assert note.is_visible()
        assert not tab.get_by_text("root mean square error 0.88").is_visible()
        tab.wait_for_timeout(1000)  # the labelled sets are read again when the page opens
        tab.screenshot(path=str(SHOTS / f"trust-note-{size}.png"))
        tab.get_by_text("How this was measured").click()
        tab.get_by_text("root mean square error 0.88").wait_for(timeout=10_000)
        tab.screenshot(path=str(SHOTS / f"trust-note-measured-{size}.png"), full_page=True)
        tab.get_by_label("Scorer").first.click()
        tab.get_by_role("option", name="LLM judge, probability-weighted").first.click()
        note.get_by_text("0.3 below and 1.0 above").wait_for(timeout=30_000)  # its own band
        tab.wait_for_timeout(800)  # the closing list fades out
        tab.screenshot(path=str(SHOTS / f"trust-note-judge-{size}.png"))

        tab.goto(urls[1])  # the head's note and the judge's, each with its own band
        tab.get_by_text("people would likely give between").first.wait_for(timeout=30_000)
        assert not tab.get_by_text("root mean square error 0.88").is_visible()
        tab.get_by_text("How this was measured").first.click()
        tab.get_by_text("root mean square error 0.88").wait_for(timeout=10_000)
        tab.screenshot(path=str(SHOTS / f"trust-notes-one-box-{size}.png"), full_page=True)
