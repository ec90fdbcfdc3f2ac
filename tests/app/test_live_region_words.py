"""Gradio's hidden live region never says a bare i18n key (issue 30).

Gradio 6's status tracker announces ``i18n("common.complete")`` when a run ends, and
its English has no such word, so a screen reader read out "common.complete". The
app's launch options supply the word (``pages.widgets.launch.GRADIO_WORDS``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
CHROMIUM = "/usr/bin/chromium"

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Debian's chromium: apt-get install -y chromium")
    pytest.skip("Debian's chromium is not installed here", allow_module_level=True)


def test_a_finished_run_is_announced_in_words_in_any_browser_language():
    import gradio as gr
    from playwright.sync_api import sync_playwright

    from pages.widgets.launch import launch_options

    with gr.Blocks() as demo:
        go = gr.Button("Go")
        out = gr.Markdown()
        go.click(lambda: "finished", None, out)
    demo.queue().launch(
        prevent_thread_lock=True, quiet=True, server_name="127.0.0.1", **launch_options()
    )
    heard: dict[str, set[str]] = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for language in ("en-US", "de-DE"):
                page = browser.new_page(locale=language)
                page.goto(demo.local_url)
                page.get_by_role("button", name="Go", exact=True).click()
                said = heard.setdefault(language, set())
                # Gradio announces at most once per 5 s: "Loading" at once, the end after that.
                deadline = time.monotonic() + 12
                while time.monotonic() < deadline and "Done" not in said:
                    said |= {
                        (el.text_content() or "").strip()
                        for el in page.query_selector_all("[aria-live]")
                    }
                    time.sleep(0.05)
            browser.close()
    finally:
        demo.close()
    for language, said in heard.items():
        assert "Done" in said and not any("common." in s for s in said), (language, said)
