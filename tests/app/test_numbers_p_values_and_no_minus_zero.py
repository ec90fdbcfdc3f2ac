"""Newcomer walk: a p-value that printed "0.00" reads "< 0.01" (or "< 0.001"), and a value
that rounds to zero never prints as "-0.00", on every page that formats through
:mod:`core.numbers` (the Trust table, the Adversarial table and chart)."""

from __future__ import annotations

from core.numbers import cell, fmt, p_value
from reports.alignment import table_rows
from reports.lab import change_chart, lab_table
from scorers.base import Score
from studies import robustness as rb


def test_zero_never_has_a_minus_sign():
    assert [fmt(-0.001, 2), fmt(-0.0, 2), fmt(-0.004, 2, signed=True)] == ["0.00"] * 2 + ["+0.00"]
    assert fmt(-0.006, 2) == "-0.01" and fmt(-0.25, 2, signed=True) == "-0.25"
    assert str(cell(-0.0001, 2)) == "0.0"


def test_small_p_values_read_as_a_bound():
    assert [p_value(0.004), p_value(0.0002), p_value(0.2)] == ["< 0.01", "< 0.001", "0.20"]
    assert p_value(0.004, named=True) == "p < 0.01" and p_value(0.2, named=True) == "p = 0.20"


def test_the_trust_table_prints_a_bound_for_p_and_no_minus_zero():
    stats = {"t_p": 0.0003, "pearson_p": 0.004, "cohens_d": -0.002, "ci": {"cohens_d": (-0.3, 0.2)}}
    rows = {row[0]: row[1] for row in table_rows({"overall": stats})}
    assert rows["t_p"] == "< 0.001"
    assert rows["cohens_d"] == "0.00 [-0.30, 0.20]"
    assert "-0.00" not in str(rows)


def test_the_lab_shows_a_tiny_fall_as_plus_zero():
    from perturbations.registry import get_perturbation

    before = Score.from_components("s", 2.0, 2.0, 2.0)
    after = Score.from_components("s", 2.0, 2.0, 1.996)
    variant = get_perturbation("leetspeak")("I hear you.", seed=0)
    row = rb.VariantScores(variant, {"s": rb.Change(0, "leetspeak", "s", before, after)})
    html = lab_table({"s": before}, [row])
    chart = change_chart([row])
    assert "(+0.00)" in html and "-0.00" not in html
    assert list(chart.data[0].text) == ["+0.00"]


def test_a_change_that_left_nothing_says_so_not_paste_the_reply():
    """Cold walk 2026-11-26: the strip-empathy cell read "The reply is empty: paste the reply
    to check first." although a reply was pasted (the change had removed every sentence)."""
    from perturbations.registry import get_perturbation

    before = Score.from_components("s", 2.0, 2.0, 2.0)
    after = Score.unscored("s", "The reply is empty: paste the reply to check first.")
    variant = get_perturbation("strip-empathy")("You've got this!", seed=0)
    assert variant.text.strip() == ""
    row = rb.VariantScores(variant, {"s": rb.Change(0, "strip-empathy", "s", before, after)})
    html = lab_table({"s": before}, [row])
    assert "left nothing of the reply to score" in html and "paste the reply" not in html
