"""Newcomer walk (issue 51, point 8): a score's "why" on the Compare page said "(varies by ±0.03
between its repeated runs or its several models…)", statisticians' words. It now says in plain
words what the number is: the score averages several scorings that typically landed that far
from it."""

from __future__ import annotations

from reports.charts import score_rows
from scorers.base import Score


def _why(score: Score) -> str:
    (row,) = score_rows({("r", score.scorer_id): score})
    return str(row[-1])


def test_a_spread_is_said_in_plain_words() -> None:
    why = _why(Score.from_components("bert-head", 2, 2, 2, spread=0.0312, rationale="Warm."))
    assert why == (
        "Warm. (an average of several scorings of this reply, which were typically 0.03 away "
        "from it: the smaller that number, the surer the score)"
    )
    for jargon in ("varies by", "±", "repeated runs", "several models"):
        assert jargon not in why, jargon


def test_a_score_without_a_spread_says_nothing_of_it() -> None:
    assert _why(Score.from_components("s", 2, 2, 2, rationale="Warm.")) == "Warm."
