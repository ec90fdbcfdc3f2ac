"""Newcomer walk: a scorer's trust note leads with a band a visitor can act on ("a score of
1.9: people would likely give between 1.4 and 3.0"), computed from the errors against
people's ratings that ship with the app, with the statistics one click away; a scorer with
no such measurement says so plainly."""

from __future__ import annotations

import json

import numpy as np
import pytest

from config import CALIBRATIONS_DIR, CARDS_DIR
from studies.people_band import BAND_SHARE, people_band

#: The head's calibration on people (the default judge has one of its own beside it).
SHIPPED = next(
    p
    for p in CALIBRATIONS_DIR.glob("welivita-*.json")
    if json.loads(p.read_text())["scorer_id"] == "bert-head"
)
JUDGE = "judge-weighted/local/qwen2.5-coder-1.5b"


def _errors(path) -> tuple[np.ndarray, np.ndarray]:
    scorer, people = (np.asarray(v) for v in json.loads(path.read_text())["pairs"]["overall"])
    return scorer, people - scorer


def test_the_band_is_the_middle_of_the_stored_errors_against_people():
    scorer, errors = _errors(SHIPPED)
    band = people_band("bert-head")
    tails = [(1 - BAND_SHARE) / 2, (1 + BAND_SHARE) / 2]
    assert band is not None and band.n == len(errors) == 75
    assert np.allclose([band.below, band.above], np.quantile(errors, tails))
    assert band.typical == pytest.approx(np.median(scorer))
    assert band.rmse == pytest.approx(np.sqrt(np.mean(errors**2)))  # about 0.88
    assert band.around(2.9)[1] == 3.0 and band.around(1.0)[0] >= 1.0  # kept on the 1–3 scale


def test_the_band_follows_the_stored_pairs_and_only_people_count(tmp_path):
    data = json.loads(SHIPPED.read_text())
    data["pairs"]["overall"][1] = [min(3.0, p + 0.25) for p in data["pairs"]["overall"][0]]
    (tmp_path / "welivita-0000beef.json").write_text(
        json.dumps({**data, "name": "welivita-0000beef"})
    )
    band = people_band("bert-head", [tmp_path])
    assert band is not None and band.calibration == "welivita-0000beef"
    assert band.below == pytest.approx(0.25, abs=0.01) and band.mean < 0.26
    (tmp_path / "welivita-0000beef.json").unlink()
    labels = {**data, "name": "rubric-labels-0000beef"}
    (tmp_path / "rubric-labels-0000beef.json").write_text(json.dumps(labels))
    assert people_band("bert-head", [tmp_path]) is None  # LLM annotators are not people


def test_each_note_leads_with_what_people_would_give_or_says_it_cannot():
    from pages.widgets.trust_notes import trust_note, trust_notes

    lead, how = trust_note("bert-head")
    band = people_band("bert-head")
    low, high = band.around(round(band.typical, 1))
    assert f"between {low:.1f} and {high:.1f}" in lead and "people would likely give" in lead
    assert "Welivita & Pu's ratings" in lead and "Spearman" not in lead
    card = json.loads((CARDS_DIR / "bert-head.json").read_text(encoding="utf-8"))
    ranked = card["external_checks"]["welivita_overall_vs_rating"]["spearman"]
    assert f"root mean square error {band.rmse:.2f}" in how and f"Spearman {ranked:.2f}" in how
    judge, judge_how = trust_note(JUDGE)
    assert "people would likely give between" in judge and "±0.6" in judge_how
    assert "Welivita & Pu's ratings (150 replies): Spearman 0.48" in judge_how
    assert "not measured against people" in trust_note("judge/openai/gpt-4o")[0]
    raw = trust_note("bert-head-raw")[0]
    assert "only as a ranking" in raw and "would likely give" not in raw
    both = trust_notes(["bert-head", JUDGE])
    assert both.count("<summary>How this was measured</summary>") == 2
    assert both.index("would likely give") < both.index("<details>")


def test_the_trust_page_shows_the_note_and_hides_the_statistics_one_click_away():
    import gradio as gr

    from pages import trust

    page = trust.build()
    texts = [b.value for b in page.blocks.values() if isinstance(b, gr.Markdown)]
    lead = next((t for t in texts if "people would likely give between" in str(t)), None)
    assert lead is not None, "no band on the Trust page"
    folds = [b for b in page.blocks.values() if isinstance(b, gr.Accordion)]
    measured = [f for f in folds if f.label == "How this was measured"]
    assert measured and measured[0].open is False


def test_a_band_as_wide_as_most_of_the_scale_says_one_score_cannot_be_read_alone():
    """Cold walk: "between 0.5 below and 1.3 above" spans 1.8 of a 2-point scale, and nothing
    said that is too wide to judge one reply by."""
    from pages.widgets.trust_notes import trust_note

    lead, _ = trust_note("bert-head")
    assert "too wide to read one reply's score on its own" in lead
    # Cold walk 3: "compare replies side by side" here contradicted the Trust page's verdict
    # for the same head ("nor to rank a few"); the note now points there instead.
    assert "side by side" not in lead and "a few tenths between two replies mean little" in lead
