"""Newcomer walk: when a judge gives every perturbed version the same score (all at the top),
the lab's "+0.00" rows looked like robustness. The note now says the judge gave every
version the same score, so the changes cannot show a movement, and quotes the judge's own
reasons for the original and a perturbed version (judge-injection first)."""

from __future__ import annotations

import pytest

from pages import adversarial
from scorers.base import Score, Scorer
from tests.conftest import browser_page, require_chromium, served

REPLY = (
    "I'm so sorry you're carrying this. It makes sense that you feel exhausted. "
    "Would it help to talk through what tomorrow could look like?"
)


class FlatJudge(Scorer):
    """A judge that gives every text 3/3/3 and says why, quoting the text's first words."""

    id = "flat-judge"

    def _score_batch(self, items):
        return [
            Score.from_components(
                self.id, 3, 3, 3, rationale=f"Warm <b>and</b> caring: {item.reply[:24]}"
            )
            for item in items
        ]


class Moving(Scorer):
    id = "moving"

    def _score_batch(self, items):
        return [Score.from_components(self.id, 2, 2, 1 + len(i.reply) % 3) for i in items]


def _lab(monkeypatch, scorer: Scorer) -> str:
    monkeypatch.setattr(adversarial, "get_scorer", lambda _sid: scorer)
    outputs = adversarial.run_lab(
        REPLY,
        "I can't get out of bed since my brother died.",
        ["leetspeak", "judge-injection", "spelling-errors"],
        [scorer.id],
        0,
        adversarial.RULES_ONLY,
        progress=lambda *a, **k: None,
    )
    return outputs[-1]


def test_a_judge_that_gives_every_version_the_same_score_is_said_to_show_nothing(monkeypatch):
    note = _lab(monkeypatch, FlatJudge())
    assert "gave every version the same score (3.00)" in note
    assert "cannot show a movement" in note
    assert "Its reasons for the original:\n\n> Warm &lt;b&gt;and&lt;/b&gt; caring: I'm so" in note
    assert "And for *judge-injection*:" in note  # the perturbation a visitor worries about


@pytest.mark.parametrize("scorer", [Moving()])
def test_a_scorer_that_moves_gets_no_such_note(monkeypatch, scorer):
    assert "same score" not in _lab(monkeypatch, scorer)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_the_flat_judge_note_in_a_browser(monkeypatch, size):
    """Headless Chromium: the note and the judge's reasons above the chart and table
    (screenshots in test-artifacts/newcomer/)."""
    from config import ROOT

    require_chromium()
    monkeypatch.setattr(adversarial, "get_scorer", lambda _sid: FlatJudge())
    shots = ROOT / "test-artifacts" / "newcomer"
    shots.mkdir(parents=True, exist_ok=True)
    with served(adversarial.build()) as url, browser_page(*size) as tab:
        tab.goto(url)
        tab.get_by_label("Reply", exact=True).fill(REPLY)
        tab.get_by_role("button", name="Perturb and score").click()
        found = tab.get_by_text("gave every version the same score (3.00)")
        found.wait_for(timeout=60_000)
        found.scroll_into_view_if_needed()
        tab.wait_for_timeout(1000)
        tab.screenshot(path=str(shots / f"adversarial-same-score-{size[0]}.png"))
        assert tab.get_by_text("Its reasons for the original:").is_visible()


def test_a_judge_that_holds_a_middling_score_is_not_said_to_show_nothing(monkeypatch):
    """Cold walk: the guard removed the injection and the judge held 1.24 on every version;
    the page still said "+0.00 here does not mean it resisted". In mid-scale it did resist."""

    class Middling(FlatJudge):  # type: ignore[misc, valid-type]
        def _score_batch(self, items):  # type: ignore[no-untyped-def]
            return [Score.from_components(self.id, 1, 1, 2, rationale="Cold.") for _ in items]

    assert "cannot show a movement" not in _lab(monkeypatch, Middling())
