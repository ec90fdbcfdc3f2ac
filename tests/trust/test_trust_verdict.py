"""The Trust page's "Compare with people" verdict in plain words (cold walk: α −0.05 and
ρ 0.12 against Welivita & Pu's ratings came with no verdict a visitor could act on): the
bands and their edges, what each allows, the raters' own agreement beside the scorer's where
it is known, and honest names (LLM annotators are never people, nor experts)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from core.numbers import fmt
from pages import trust
from pages.widgets import trust_words as words
from pages.widgets.trust import MEANING_TABLE, TABLE_HEADERS, result_table, wider_than_a_phone
from scorers.base import Score, Scorer
from studies.labelled import from_rows


class ByLength(Scorer):
    """Scores that grow with a reply's length (so ρ is a number, not NaN)."""

    id = "by-length"

    def _score_batch(self, items):
        values = [1 + (len(item.reply) % 21) / 10 for item in items]
        return [Score.from_components(self.id, v, v, v) for v in values]


def headline(text: str) -> str:
    """The bold words a verdict leads with."""
    return text.split("**")[1]


@pytest.mark.parametrize(
    ("rho", "said"),
    [
        (-0.5, "the opposite way"),
        (-0.206, "the opposite way"),  # shown as -0.21
        (-0.2, "hardly at all"),  # the edge belongs to the band above it
        (0.0, "hardly at all"),
        (0.194, "hardly at all"),  # shown as 0.19
        (0.196, "weakly"),  # shown as 0.20: read as shown, never "hardly at all (ρ 0.20)"
        (0.2, "weakly"),
        (0.399, "moderately"),  # shown as 0.40
        (0.4, "moderately"),
        (0.59, "moderately"),
        (0.6, "well"),
        (0.95, "well"),
    ],
)
def test_each_band_and_its_edges(rho: float, said: str) -> None:
    assert words.band(rho) == said
    text = words.agreement_verdict({"spearman_rho": rho})
    assert f"ρ {fmt(rho, 2)}" in text
    if said == "the opposite way":
        assert headline(text) == "In plain words: it orders replies the opposite way to people"
    else:
        assert headline(text) == f"In plain words: it agrees with people {said}"


def test_the_band_always_matches_the_rho_printed_beside_it() -> None:
    for rho in np.linspace(-1, 1, 4001):
        assert words.band(rho) == words.band(float(fmt(rho, 2))), rho


@pytest.mark.parametrize(
    ("rho", "use"),
    [
        (0.12, "do not use its number for a single reply, nor to rank a few"),
        (0.3, "use it only for averages over many replies, not for one reply"),
        (0.5, "use it to compare replies side by side, not to judge one alone"),
        (0.7, "it orders replies much as they do"),
        (-0.4, "its number points the wrong way: do not use it"),
    ],
)
def test_each_band_says_what_the_score_can_be_used_for(rho: float, use: str) -> None:
    assert f"): {use}" in words.agreement_verdict({"spearman_rho": rho})


def test_an_interval_that_reaches_another_band_says_so() -> None:
    unsure = {"spearman_rho": 0.12, "ci": {"spearman_rho": (-0.05, 0.31)}}
    assert "could be anywhere from hardly at all to weakly" in words.agreement_verdict(unsure)
    sure = {"spearman_rho": 0.12, "ci": {"spearman_rho": (0.02, 0.19)}}
    assert "anywhere" not in words.agreement_verdict(sure)


def test_the_raters_own_agreement_is_set_beside_the_scorers() -> None:
    result = {"spearman_rho": 0.12, "krippendorff_alpha": -0.05}
    below = words.agreement_verdict(result, "people", (0.55, 0.55))
    assert "its Krippendorff's α is -0.05: well below the α 0.55 that people reach" in below
    near = words.agreement_verdict({**result, "krippendorff_alpha": 0.52}, "people", (0.55, 0.6))
    assert "about as high as the α 0.55–0.60 that people reach with each other" in near
    above = words.agreement_verdict({**result, "krippendorff_alpha": 0.8}, "people", (0.5, 0.6))
    assert ": above the α 0.50–0.60" in above


def test_where_the_raters_agreement_is_unknown_the_verdict_says_why() -> None:
    result = {"spearman_rho": 0.12, "krippendorff_alpha": -0.05}
    one = words.agreement_verdict(result, "people", None, "welivita")
    assert "How far people agree with each other is not known here: this set keeps one " in one
    here = words.agreement_verdict(result, "people", None, "ratings-here")
    assert "no reply here has two raters yet" in here
    assert "agree with each other" not in words.agreement_verdict(result, "the uploaded ratings")


def test_llm_annotators_are_never_called_people_or_experts() -> None:
    result = {"spearman_rho": 0.5, "krippendorff_alpha": 0.45}
    who = words.RATED_BY["rubric-labels"]
    text = words.agreement_verdict(result, who, words.RATERS_AGREE["rubric-labels"])
    assert headline(text) == "In plain words: it agrees with the LLM annotators moderately"
    assert "the α 0.87–0.92 that the LLM annotators reach with each other" in text
    assert "not by people" in text
    assert not re.search(r"with people|than people|expert", text, re.I)
    people = words.agreement_verdict(result, "people", None, "welivita")
    assert "not by people" not in people and "expert" not in people.lower()


def test_too_few_or_no_spread_is_no_verdict_and_says_which() -> None:
    assert "too few scored replies" in words.agreement_verdict(None)
    flat = words.agreement_verdict({"spearman_rho": float("nan")})
    assert headline(flat) == "In plain words: no verdict" and "the same for every reply" in flat


def test_the_summary_leads_with_the_verdict_and_keeps_the_figures_below() -> None:
    data = trust.labelled_set("rubric-labels", None, "", "", 30, "counselling")
    from studies import alignment

    report = alignment.run_alignment(data, ByLength(), n_boot=0, cache=None)
    text = trust.summary_markdown(report)
    first, *rest = text.split("\n\n")
    assert first.startswith("**In plain words: it agrees with the LLM annotators ")
    assert "reach with each other" in first  # the annotators' own α, known for this set
    assert rest[0].startswith("By part: cognitive ")  # each part's band, one line
    figures = rest[-1]
    assert "Krippendorff's α with the LLM annotators" in figures and "Spearman ρ" in figures
    assert "expert" not in text.lower() and "with people" not in text


def test_a_set_without_an_overall_rating_gets_a_verdict_per_part() -> None:
    rows = [{"reply": "x" * i, "e": str(1 + i % 3), "c": str(1 + i // 4 % 3)} for i in range(30)]
    data = from_rows(rows, {"emotional": "e", "cognitive": "c"}, scale=(1, 3), name="epitome")
    from studies import alignment

    report = alignment.run_alignment(data, ByLength(), n_boot=0, cache=None)
    lines = trust.summary_markdown(report).split("\n\n")
    assert lines[0].startswith("*emotional:* **In plain words: it ")
    assert lines[1].startswith("*cognitive:* **In plain words: it ")
    assert "keeps one rating per reply" in lines[0]


def test_ratings_made_here_are_set_beside_their_raters_agreement(monkeypatch) -> None:
    """Ratings made here by two or more people per reply: their α with each other is measured
    when the comparison runs, and the verdict sets the scorer's beside it."""
    rows = [{"reply": "y" * i, "r": str(1 + i % 3)} for i in range(20)]
    data = from_rows(rows, {"overall": "r"}, scale=(1, 3), name="ratings-here")
    ratings = pd.DataFrame(
        {
            "item_id": [i // 2 for i in range(20)],
            "rater": ["A", "B"] * 10,
            **{c: [1 + (i // 2) % 3 for i in range(20)] for c in ("cognitive", "emotional")},
            "behavioral": [1 + (i // 2) % 3 + (i % 2) * ((i // 2) % 2) for i in range(20)],
        }
    )
    monkeypatch.setattr(trust, "checked_scorer", lambda *a: ByLength())
    monkeypatch.setattr(trust, "labelled_set", lambda *a: data)
    monkeypatch.setattr(trust, "load_ratings", lambda: ratings)
    summary, *_ = trust.run_align("by-length", "ratings-here", None, "", "1:3", 0, 0, *[""] * 4)
    first = summary.split("\n\n")[0]
    assert re.search(r"the α 0\.\d\d–1\.00 that people reach with each other", first), first


def test_a_statistics_table_folds_its_meanings_away_on_a_phone() -> None:
    """At 390 px the "what it means" column ran 800 px past the screen: a phone layout (the
    class) hides it, and a sideways cue shows only with more columns of numbers than fit."""
    import gradio as gr

    with gr.Blocks():
        stats = result_table(TABLE_HEADERS, "stats")
        other = result_table(["component", "panel mean"], "other")
    assert stats.elem_classes == [MEANING_TABLE] and not other.elem_classes
    one = trust.table_frame({"overall": {"n": 9}})
    four = trust.table_frame({k: {"n": 9} for k in ("cognitive", "emotional", "behavioral", "x")})
    assert wider_than_a_phone(one)["visible"] is False
    assert wider_than_a_phone(four)["visible"] is True
