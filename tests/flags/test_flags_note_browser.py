"""Cold walk (Flags page): "Rows to show" and its Refresh button sat misaligned (a short button
at the top of the slider's taller box, beside it at 1280 px; at 390 px a squeezed slider whose
label broke over two lines). Now, side by side, the button is exactly as tall as the box and
starts at its top; on a phone it sits under the box at its full width. In a real headless
Chromium at 1280 and 390 px; screenshots go to ``/tmp/flags_note/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.flags import FlagLog, FlagRecord
from tests.conftest import browser_page, require_chromium, served

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/flags_note")

require_chromium()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from pages import flags

    FlagLog().append(FlagRecord(page="compare", message="m", reply="r", note="a note"))
    with served(flags.build()) as address:
        yield address


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)], ids=["wide", "phone"])
def test_refresh_lines_up_with_the_rows_slider(url, width, height):
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    with browser_page(width, height) as tab:
        tab.goto(url)
        expect(tab.get_by_text("flagged case(s)")).to_be_visible(timeout=30_000)
        slider = tab.locator(".block", has=tab.locator("input[type=range]")).last
        button = tab.get_by_role("button", name="Refresh")
        box, press = slider.bounding_box(), button.bounding_box()
        tab.screenshot(path=str(SHOTS / f"flags-rows-refresh-{width}.png"))
    if width >= 640:  # side by side: one top, one height (within a border)
        assert press["x"] > box["x"] + box["width"], (box, press)
        assert abs(press["y"] - box["y"]) <= 2 and abs(press["height"] - box["height"]) <= 2
    else:  # a phone: the button under the box, as wide as it
        assert press["y"] >= box["y"] + box["height"], (box, press)
        assert abs(press["width"] - box["width"]) <= 2, (box, press)
