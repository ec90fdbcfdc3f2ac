"""Newcomer walk, Compare page: replies kept on screen after a refused message are marked as
the previous message's; the radars start at 1 like Batch's.

The browser test takes screenshots at 1280x900 and 390x844 into ``test-artifacts/newcomer/``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from gradio_client import Client

from config import ROOT
from core import flags as flagging
from core.questions import load_questions
from reports import batch as batch_charts
from reports.charts import RADIAL_AXIS, radar_by_responder, radar_by_scorer
from scorers.base import Score
from tests.conftest import CHROMIUM, browser_page

NO_KEYS = ("", "", "", "")
HUMAN = "human/counselchat"
SHOTS = ROOT / "test-artifacts" / "newcomer"
PREVIOUS = "Showing the replies to your previous message; the new one was not sent"


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The Compare page alone, flags in a temporary folder, no scorer ticked by default."""
    patch = pytest.MonkeyPatch()
    folder = tmp_path_factory.mktemp("flags")
    patch.setattr(flagging, "SETTINGS", dataclasses.replace(flagging.SETTINGS, flag_dir=folder))
    from pages import compare
    from pages.widgets import compare_inputs, reply_panels

    patch.setattr(compare_inputs, "DEFAULT_SCORERS", [])  # the therapist's answer, no model loaded
    patch.setattr(compare_inputs, "default_selection", lambda: [HUMAN])
    patch.setattr(reply_panels, "default_selection", lambda: [HUMAN])
    page = compare.build()
    page.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1")
    try:
        yield page.local_url
    finally:
        page.close()
        patch.undo()


def ask(client: Client, message: str) -> str:
    """Ask the therapist; returns the progress line above the replies."""
    outputs = client.predict(message, [HUMAN], [], "", 64, 0.3, *NO_KEYS, api_name="/compare")
    return str(outputs[-1])


def test_a_refused_message_marks_the_replies_on_screen_as_the_previous_ones(url):
    client = Client(url, verbose=False)
    first = ask(client, "")  # nothing on screen yet: the reason only
    assert first.startswith("⚠️") and "empty" in first and PREVIOUS not in first
    assert ask(client, load_questions()[1].question).startswith("Done.")
    refused = ask(client, "   ")
    assert PREVIOUS in refused and "empty" in refused.split(PREVIOUS)[1], refused
    too_long = ask(client, "word " * 4000)
    assert PREVIOUS in too_long and "characters" in too_long, too_long
    assert PREVIOUS not in ask(client, load_questions()[2].question)  # gone after a good run


def test_compares_radars_start_at_1_like_batchs():
    scores = {("a/x", "bert-head"): Score.from_components("bert-head", 1, 2, 3)}
    summary = pd.DataFrame(
        [
            {"scorer": "bert-head", "responder": "a/x", "strategy": "study", "component": c,
             "mean": 2.0, "ci_low": 1.8, "ci_high": 2.2}
            for c in ("cognitive", "emotional", "behavioral", "overall")
        ]
    )  # fmt: skip
    batch = batch_charts.radar(summary, "bert-head").layout.polar.radialaxis
    for fig in (radar_by_scorer(scores), radar_by_responder(scores)):
        axis = fig.layout.polar.radialaxis
        assert list(axis.range) == list(batch.range) == [1, 3] == RADIAL_AXIS["range"]
        assert list(axis.tickvals) == list(batch.tickvals)


@pytest.mark.slow
@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_the_note_sits_above_the_kept_replies_in_a_browser(url, width, height):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed here")

    question = load_questions()[1]
    SHOTS.mkdir(parents=True, exist_ok=True)
    with browser_page(width, height) as tab:
        tab.goto(url)
        box = tab.get_by_label("Message")
        box.fill(question.question)
        tab.get_by_role("button", name="Get replies").click()
        tab.locator("#compare-progress").get_by_text("Done.").wait_for(timeout=60_000)
        box.fill("")
        tab.get_by_role("button", name="Get replies").click()
        note = tab.locator("#compare-progress").get_by_text(PREVIOUS)
        note.wait_for(timeout=30_000)
        tab.wait_for_timeout(800)  # the smooth scroll to the progress line
        tab.screenshot(path=str(SHOTS / f"compare-refused-{width}.png"))
        reply = tab.get_by_text(question.answer[:40]).first
        assert reply.is_visible()
        assert note.bounding_box()["y"] < reply.bounding_box()["y"]  # the note is above them
