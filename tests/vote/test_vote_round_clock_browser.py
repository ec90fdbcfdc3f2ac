"""Issue 30, the Vote page in a real headless Chromium: while a round was being made, the bar
said "writing reply 1 of 4, 9 words · 15 s" and beside it Gradio's own timer said
"0/4 steps | 0.1s" (it restarts at every update): two readouts that disagreed. Only the
page's own clock shows now. A scripted local model writes slowly so the bar can be read.
Screenshots go to ``test-artifacts/issue30/``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from config import ROOT
from responders import registry
from studies.votes import rounds as votes_module
from tests.conftest import ScriptedResponder, browser_page, require_chromium, served

pytestmark = pytest.mark.slow
SHOTS = ROOT / "test-artifacts" / "issue30"
LOCAL = "local/qwen2.5-coder-1.5b"

require_chromium()


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from pages import vote

    patch = pytest.MonkeyPatch()
    folder = tmp_path_factory.mktemp("votes")
    patch.setattr(
        votes_module, "SETTINGS", dataclasses.replace(votes_module.SETTINGS, votes_dir=folder)
    )
    slow = ScriptedResponder(chunks=[f"word{i} " for i in range(8)], pause_s=0.5)
    patch.setitem(registry._CACHE, LOCAL, slow)
    with served(vote.build()) as address:
        yield address
    patch.undo()


@pytest.mark.parametrize("width", [1280, 390])
def test_making_a_round_shows_one_clock(url, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with browser_page(width, 900) as page:
        page.goto(url)
        make = page.get_by_role("button", name="Make the round")
        make.click()  # no message yet: refused, in the box under the bar
        refusal = page.locator(".own-clock", has_text="empty")
        refusal.first.wait_for(timeout=30_000)
        page.get_by_role("button", name="Random question").click()
        page.locator("p", has_text="This round: 4 replies").wait_for(timeout=30_000)
        page.get_by_role("button", name="Make the round").click()
        ours = page.locator(".own-clock", has_text="Writing reply")
        ours.first.wait_for(timeout=30_000)  # the page's own line, with its clock, shows
        assert refusal.count() == 0  # the earlier refusal went when the round began
        page.wait_for_timeout(2_500)  # a few updates: Gradio's timer would have restarted
        # Gradio's own readouts ("0/4 steps | 0.1s", "- 0.0%") are drawn nowhere on screen.
        readouts = page.locator(".progress-text, .progress-level-inner")
        assert all(not t.is_visible() for t in readouts.all())
        assert ours.first.is_visible()
        page.locator(".own-clock").first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"vote-round-clock-{width}.png"))
        page.get_by_text("students", exact=False).first.wait_for(timeout=60_000)
