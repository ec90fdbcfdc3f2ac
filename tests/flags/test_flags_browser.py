"""Issue 30 point 1, in a real headless Chromium: the Flags page's download is never stale.

The Flags page runs alone (as ``python -m pages.flags`` launches it) with the
log in a temporary folder. A flag is appended after the page has loaded (as
another visitor's flag would be); once the table shows it, pressing
"Download the log (CSV)" saves a file that holds it. A screenshot goes to
``test-artifacts/flags/``; any browser console error fails the test.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from config import ROOT
from core import flags as flagging
from core.flags import FlagLog, FlagRecord

pytestmark = pytest.mark.slow
CHROMIUM = "/usr/bin/chromium"
SHOTS = ROOT / "test-artifacts" / "flags"

if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed here", allow_module_level=True)


@pytest.fixture(scope="module")
def flags_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The Flags page on its own, with its launch options, and the log's folder."""
    from pages import flags
    from pages.widgets.launch import launch_options

    folder = tmp_path_factory.mktemp("flags")
    patch = pytest.MonkeyPatch()
    patch.setattr(flagging, "SETTINGS", dataclasses.replace(flagging.SETTINGS, flag_dir=folder))
    FlagLog().append(FlagRecord(page="compare", message="m", reply="r", note="before the visit"))
    demo = flags.build()
    demo.queue().launch(
        prevent_thread_lock=True, quiet=True, server_name="127.0.0.1", **launch_options()
    )
    try:
        yield demo.local_url, folder
    finally:
        demo.close()
        patch.undo()


@pytest.fixture
def tab() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(
            viewport={"width": 1280, "height": 900}, accept_downloads=True
        )
        page = context.new_page()
        page.errors = []
        page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        yield page
        errors = page.errors
        browser.close()
    assert errors == [], f"browser console errors: {errors}"


def downloaded_notes(tab) -> list[str]:  # type: ignore[no-untyped-def]
    with tab.expect_download(timeout=15_000) as download:
        tab.get_by_role("button", name="Download the log (CSV)").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    return [row["note"] for row in csv.DictReader(io.StringIO(text, newline=""))]


def test_the_download_holds_a_flag_made_after_the_page_loaded(flags_page, tab):
    url, _folder = flags_page
    tab.goto(url)
    tab.get_by_text("1 flagged case(s)").wait_for(timeout=30_000)
    assert downloaded_notes(tab) == ["before the visit"]
    FlagLog().append(FlagRecord(page="compare", message="m", reply="r", note="made just now"))
    started = time.monotonic()
    tab.get_by_text("2 flagged case(s)").wait_for(timeout=15_000)  # the timer's tick (5 s)
    shown_after = time.monotonic() - started
    tab.get_by_text("made just now").first.wait_for(timeout=5_000)
    tab.screenshot(path=str(SHOTS / "flags-after-new-flag.png"), full_page=True)
    assert downloaded_notes(tab) == ["before the visit", "made just now"], (
        f"the table showed the new flag after {shown_after:.1f} s, the download did not hold it"
    )


@pytest.fixture
def flags_in_a_tab(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str, FlagLog]]:
    """The Flags page as the app shows it, a tab beside another, with a timer too slow to
    tick during the test: only the page's own look on coming into view can refresh it."""
    import gradio as gr

    from pages import flags

    monkeypatch.setattr(
        flagging, "SETTINGS", dataclasses.replace(flagging.SETTINGS, flag_dir=tmp_path)
    )
    monkeypatch.setattr(flags, "TICK_S", 600.0)
    log = FlagLog()
    log.append(FlagRecord(page="compare", message="m", reply="r", note="already there"))
    page = flags.build()  # built alone, then rendered in a tab, as app.py does
    with gr.Blocks() as demo:
        with gr.Tab("Compare"):
            gr.Markdown("Another page")
        with gr.Tab("Flags"):
            page.render()
    demo.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1")
    try:
        yield demo.local_url, log
    finally:
        demo.close()


def test_a_flag_made_on_another_tab_is_counted_when_flags_is_opened(flags_in_a_tab, tab):
    """A visitor flags on Compare, then opens Flags: the count is right at once (it showed
    the old count until the next 5-s tick)."""
    url, log = flags_in_a_tab
    tab.goto(url)
    tab.get_by_role("tab", name="Flags").click()
    tab.get_by_text("1 flagged case(s)").wait_for(timeout=30_000)
    tab.get_by_role("tab", name="Compare").click()
    log.append(FlagRecord(page="compare", message="m", reply="r", note="flagged just now"))
    tab.get_by_role("tab", name="Flags").click()
    tab.get_by_text("2 flagged case(s)").wait_for(timeout=5_000)
    tab.get_by_text("flagged just now").filter(visible=True).first.wait_for(timeout=5_000)
