"""Newcomer walk, Trust: after a rating was saved on Compare, whose message points to Trust →
"Ratings made here", the Trust tab still said "Ratings made here … — not installed" until
the page was reloaded (the sets were read only when the page opened). Selecting the Trust
tab (and the Judge panel tab) now reads them again. The time the local judge takes is
computed from the sample size and a measured pace, no more a fixed "4–18 s per reply"."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import gradio as gr
import pytest

from config import ROOT
from core import flags as log_folder  # the ratings log lives in the flag folder
from core.ratings import RatingLog, RatingRecord
from pages import trust
from tests.conftest import CHROMIUM, browser_page

SHOTS = ROOT / "test-artifacts" / "walk-fixes"
RATINGS_HERE = "Ratings made here: people's own ratings from the Compare page (Your rating)"
LOCAL_JUDGE = "judge-weighted/local/qwen2.5-coder-1.5b"


@pytest.fixture
def no_ratings(tmp_path, monkeypatch) -> Path:
    """An empty ratings log (in ``tmp_path``) for the test's length."""
    settings = dataclasses.replace(log_folder.SETTINGS, flag_dir=tmp_path)
    monkeypatch.setattr(log_folder, "SETTINGS", settings)
    return tmp_path


def save_a_rating() -> None:
    RatingLog().append(RatingRecord("compare", "AB", "I feel alone.", "I'm here.", 2, 2, 3))


def app_like() -> tuple[gr.Blocks, gr.Tab]:
    """The Trust page in a tab beside another, as app.py renders it, with the tab wired
    by :func:`pages.trust.refresh_on_select` (the line app.py needs)."""
    with gr.Blocks() as app:
        with gr.Tab("Compare"):
            gr.Markdown("The Compare page would be here.")
        with gr.Tab("Trust") as tab:
            trust.demo.render()
        trust.refresh_on_select(tab)
    return app, tab


def selected(blocks: gr.Blocks, tab: gr.Tab):  # type: ignore[no-untyped-def]
    """The one event that runs when ``tab`` is selected."""
    (event,) = [f for f in blocks.fns.values() if (tab._id, "select") in map(tuple, f.targets)]
    return event


def ratings_label(update: dict) -> str:
    return {value: label for label, value in update["choices"]}["ratings-here"]


def test_selecting_the_trust_tab_offers_a_rating_saved_since(no_ratings) -> None:
    app, tab = app_like()
    event = selected(app, tab)
    assert "not installed" in ratings_label(event.fn())
    save_a_rating()
    assert ratings_label(event.fn()) == RATINGS_HERE  # no page reload needed
    (radio,) = event.outputs
    assert radio.label == "Labelled replies" and radio.value == "welivita"


def test_selecting_the_judge_panel_tab_offers_it_too(no_ratings) -> None:
    page = trust.build()
    (panel_tab,) = [b for b in page.blocks.values() if getattr(b, "label", "") == "Judge panel"]
    event = selected(page, panel_tab)
    assert "not installed" in ratings_label(event.fn())
    save_a_rating()
    assert ratings_label(event.fn()) == RATINGS_HERE


def test_the_time_is_computed_from_the_sample_and_a_measured_pace() -> None:
    line = trust._timing(LOCAL_JUDGE, 40)
    assert line.startswith("Time with the local judge: 40 replies × about 3 s each")
    assert "about 2 min on a quiet 2-core CPU" in line
    assert trust._timing(LOCAL_JUDGE, 10) != line  # it follows the sample size
    assert trust._timing("bert-head", 40) == ""  # the head takes seconds: nothing to say
    assert "Choose a sample size" in trust._timing(LOCAL_JUDGE, 0)  # 0 = every reply
    texts = [str(getattr(b, "value", "")) for b in trust.demo.blocks.values()]
    assert not any("4–18 s" in t for t in texts)
    assert any("about 3 s a text (5 s the sampled one)" in t for t in texts)


@pytest.mark.slow
def test_the_app_reads_the_sets_again_when_the_trust_tab_is_selected() -> None:
    import app

    (tab,) = [b for b in app.demo.blocks.values() if isinstance(b, gr.Tab) and b.label == "Trust"]
    assert selected(app.demo, tab).fn is trust.fresh_sources


@pytest.mark.slow
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_in_a_browser_a_rating_saved_on_compare_is_offered_on_trust(no_ratings, size) -> None:

    from pages.widgets.style import CSS

    app, _ = app_like()
    app.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1", css=CSS)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        with browser_page(size[0], size[1]) as tab:
            tab.goto(app.local_url)
            tab.get_by_role("tab", name="Trust").click()
            tab.get_by_text(RATINGS_HERE + " — not installed").first.wait_for(timeout=30_000)
            tab.wait_for_timeout(1500)  # the page's own reading when it opened is done
            tab.get_by_role("tab", name="Compare").click()
            save_a_rating()  # as the Compare page's Save rating does
            tab.get_by_role("tab", name="Trust").click()
            offered = tab.get_by_text(RATINGS_HERE, exact=True).first
            offered.wait_for(timeout=30_000)
            assert tab.get_by_text(RATINGS_HERE + " — not installed").count() == 0
            offered.scroll_into_view_if_needed()
            tab.wait_for_timeout(500)
            tab.screenshot(path=str(SHOTS / f"trust-rating-offered-{size[0]}.png"))
    finally:
        app.close()
