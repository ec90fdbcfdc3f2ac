"""Issue 51, point 4: "Compare with people" on two ratings made here said "no verdict yet:
too few scored replies" above a full statistics table (α, κ, F1, Cohen's d) that looked
authoritative. Below the minimum the page now shows the counts and how many more ratings it
takes, and an empty table; from the minimum on, the verdict, figures and table as before."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from pages import trust
from pages.widgets.trust import TABLE_HEADERS, wider_than_a_phone
from pages.widgets.trust_words import FEWEST_TO_READ
from studies.labelled import from_rows
from tests.trust.test_trust_verdict import ByLength

#: Words only the statistics (in the summary or the table) use.
FIGURES = re.compile(r"Krippendorff|Cohen's d|Spearman|κ|F1|Pearson")


def compare(monkeypatch, n: int, name: str = "ratings-here") -> tuple[str, pd.DataFrame]:
    """The page's summary and statistics table for ``n`` rated replies in the set ``name``."""
    rows = [{"reply": "y" * (i + 3), "r": str(1 + i % 3)} for i in range(n)]
    data = from_rows(rows, {"overall": "r"}, scale=(1, 3), name=name)
    ratings = pd.DataFrame(
        {"item_id": range(n), "rater": ["A"] * n}
        | {part: [1 + i % 3 for i in range(n)] for part in ("cognitive", "emotional", "behavioral")}
    )
    monkeypatch.setattr(trust, "checked_scorer", lambda *a: ByLength())
    monkeypatch.setattr(trust, "labelled_set", lambda *a: data)
    monkeypatch.setattr(trust, "load_ratings", lambda: ratings)
    summary, table, *_ = trust.run_align("by-length", name, None, "", "1:3", 0, 0, *[""] * 4)
    return summary, table


def test_two_ratings_show_the_counts_and_what_is_needed_not_the_statistics(monkeypatch) -> None:
    summary, table = compare(monkeypatch, 2)
    assert summary.startswith("**In plain words: no verdict yet**: 2 replies are too few")
    assert f"at least {FEWEST_TO_READ} scored replies are needed" in summary
    assert "rate 8 more replies on the Compare page" in summary
    assert "2 of 2 replies scored" in summary
    assert not FIGURES.search(summary), summary
    assert table.empty and list(table.columns) == TABLE_HEADERS  # as before any comparison
    (align,) = [f for f in trust.demo.fns.values() if f.api_name == "align"]
    shown = align.outputs[2].postprocess(table)  # the page's statistics table
    assert not shown.data
    assert wider_than_a_phone(table)["visible"] is False  # no sideways cue for an empty table


def test_at_the_minimum_the_verdict_figures_and_table_are_back(monkeypatch) -> None:
    summary, table = compare(monkeypatch, FEWEST_TO_READ)
    assert summary.startswith("**In plain words: it ") and "no verdict yet" not in summary
    assert "Krippendorff's α with people" in summary and "Cohen's d" in summary
    assert len(table) > 5 and "Krippendorff's α" in set(table["statistic"])


@pytest.mark.parametrize(
    ("name", "needed"),
    [
        ("mine.csv", "add 1 more rated reply to your CSV"),
        ("welivita", "raise the sample size by at least 1"),
    ],
)
def test_an_upload_or_a_small_sample_is_told_what_it_needs(monkeypatch, name, needed) -> None:
    summary, table = compare(monkeypatch, FEWEST_TO_READ - 1, name)
    assert "9 replies are too few" in summary and needed in summary
    assert table.empty and not FIGURES.search(summary)
