"""Newcomer walk (issue 51, point 3): the Adversarial lab opened empty (no example, no reply, no
results) and its button then said "The reply is empty", while the README's tour shows a filled
example. It now opens on the first bundled example with its precomputed results on screen, the
page alone and as a tab of app.py's app (which renders the page's blocks again)."""

from __future__ import annotations

import gradio as gr
import pytest

from config import ROOT
from pages import adversarial
from tests.conftest import browser_page, require_chromium, served

SHOTS = ROOT / "test-artifacts" / "lab-opens"
FIRST = adversarial.EXAMPLES[0]


def _shown(page: gr.Blocks) -> dict[str, object]:
    """What the page's boxes hold before anything is pressed, by label (or type, unlabelled)."""
    shown: dict[str, object] = {}
    for component in page.config["components"]:
        props = component["props"]
        shown.setdefault(props.get("label") or component["type"], props.get("value"))
    return shown


def _holds_the_first_example(shown: dict[str, object]) -> None:
    assert shown["Example reply"] == adversarial.OPENING == FIRST["name"]
    assert shown["Reply"] == FIRST["reply"] and shown["Reply"].strip()
    assert (
        shown["The message it answers, or the conversation before it (optional)"]
        == (FIRST["message"])
    )
    chart = shown["Change in overall score per perturbation"]
    assert chart and '"data":[{' in chart["plot"]  # a drawn chart, not an empty box
    assert "lab-table" in shown["html"] and "leetspeak" in shown["html"]
    assert shown["Row to flag"]  # a row is ready to flag


def test_the_lab_opens_on_the_first_example_with_its_results() -> None:
    page, lab = adversarial._build()
    _holds_the_first_example(_shown(page))
    assert str(lab.note.value).startswith("Precomputed (fixed rules")
    rows = lab.rows.value
    assert rows and {r["message"] for r in rows} == {FIRST["message"]}


def test_the_lab_opens_filled_as_a_tab_of_the_app_too() -> None:
    """app.py renders each page's ``demo`` inside a tab: the starting values go with it."""
    with gr.Blocks() as app, gr.Tabs(), gr.Tab("Adversarial"):
        adversarial.demo.render()
    _holds_the_first_example(_shown(app))


def test_its_first_run_is_the_shown_examples_own() -> None:
    """Pressing the button at once perturbs the shown reply: nothing says "the reply is empty"."""
    shown = _shown(adversarial.build())
    assert adversarial._checked_reply(shown["Reply"]) == FIRST["reply"].strip()


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["wide", "phone"])
def test_in_a_browser_the_lab_shows_a_chart_and_a_reply_without_a_click(size) -> None:
    from playwright.sync_api import expect

    require_chromium()
    SHOTS.mkdir(parents=True, exist_ok=True)
    with served(adversarial.build()) as url, browser_page(*size) as tab:
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(url)
        expect(tab.get_by_label("Reply", exact=True)).to_have_value(FIRST["reply"])
        expect(tab.get_by_label("Example reply")).to_have_value(FIRST["name"])
        chart = tab.locator(".js-plotly-plot").first
        expect(chart.locator(".bars").first).to_be_visible(timeout=30_000)
        expect(tab.get_by_text("Precomputed (fixed rules").first).to_be_visible()
        tab.screenshot(path=str(SHOTS / f"adversarial-opening-{size[0]}.png"))
        chart.scroll_into_view_if_needed()
        tab.wait_for_timeout(500)
        tab.screenshot(path=str(SHOTS / f"adversarial-opening-chart-{size[0]}.png"))
        assert errors == []
