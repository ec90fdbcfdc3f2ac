"""Cold-walk finding on the Stories page without people's ratings (no ``../shared``, e.g. a
Space): "Compare with people" was enabled but only refused, and its refusal repeated the
credit line printed under the section. Built here without a browser."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
import pytest

from core import stories as bank
from pages import story_runs


def compare_button(page: gr.Blocks) -> gr.Button:
    (button,) = [
        b
        for b in page.blocks.values()
        if isinstance(b, gr.Button) and b.value == "Compare with people"
    ]
    return button


def test_without_peoples_ratings_the_button_is_disabled_and_says_why(monkeypatch, tmp_path):
    monkeypatch.setattr(bank, "EMPATHIC_STORIES_CSV", tmp_path / "absent.csv")
    from pages import stories

    page = stories.build()
    assert compare_button(page).interactive is False
    notes = [b.value for b in page.blocks.values() if isinstance(b, gr.Markdown)]
    assert sum(story_runs.NO_PEOPLE in str(n) for n in notes) == 1


def test_with_peoples_ratings_the_button_can_be_pressed(monkeypatch, tmp_path: Path):
    rated = tmp_path / "stories_dev.csv"
    rated.write_bytes(bank.OWN_STORIES_FILE.read_bytes())  # any stories at that place
    monkeypatch.setattr(bank, "EMPATHIC_STORIES_CSV", rated)
    from pages import stories

    assert compare_button(stories.build()).interactive is not False


def test_a_refusal_does_not_repeat_the_credit_line(monkeypatch, tmp_path):
    """An API call still refuses, once, without the credit line the page already shows."""
    monkeypatch.setattr(bank, "EMPATHIC_STORIES_CSV", tmp_path / "absent.csv")
    with pytest.raises(gr.Error) as refused:
        story_runs.run_comparison(10, "judge/local/qwen2.5-coder-1.5b", 1, 0.0, "", "", "", "")
    said = refused.value.message
    assert said == story_runs.NO_PEOPLE and bank.attribution() not in said
