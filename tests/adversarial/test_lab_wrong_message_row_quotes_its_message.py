"""Cold-walk finding: the Adversarial lab's *wrong-message* row (the reply scored against
another person's message) did not say which message it was scored against."""

from __future__ import annotations

import html

from pages.widgets.lab_results import lab_outputs, quoted_start
from perturbations.registry import get_perturbation
from scorers.base import Score
from studies import robustness as rb

REPLY = "I'm so sorry your dog died; twelve years is a long time to love someone."
MESSAGE = "My dog died last week after twelve years and I can't stop crying."


def _outputs() -> tuple[str, str]:
    """The lab's table for a wrong-message row and a leetspeak row, and the other message."""
    score = Score.from_components("s", 2, 2, 2)
    rows = []
    for pid in ("wrong-message", "leetspeak"):
        variant = get_perturbation(pid)(REPLY, seed=0, message=MESSAGE)
        rows.append(rb.VariantScores(variant, {"s": rb.Change(0, pid, "s", score, score)}))
    table, _chart, state, _picker, _note = lab_outputs({"s": score}, rows, MESSAGE, "")
    assert state[0]["variant"]["method"] == "rule (another person's message)"  # flags: as made
    return table, rows[0].variant.message or ""


def test_the_wrong_message_row_quotes_the_message_it_was_scored_against():
    table, other = _outputs()
    assert other and other != MESSAGE
    start = " ".join(other.split())[:40]
    row = table.split("<tr class='lab-change'>")[1]  # the wrong-message row, first
    assert "wrong-message" in row and "another person&#x27;s message" in row
    assert html.escape(start) in row, row


def test_other_rows_are_as_they_were():
    table, _ = _outputs()
    leet = table.split("<tr class='lab-change'>")[2]
    assert "another person" not in leet


def test_a_long_message_is_cut_near_60_characters():
    quoted = quoted_start("word " * 40)
    assert quoted.startswith("“word word") and quoted.endswith("…”") and len(quoted) <= 62


def test_the_wrong_message_rows_text_is_not_called_changed():
    """The reply is the same in that row: its text line said "Changed text:" all the same."""
    table, _ = _outputs()
    wrong, leet = table.split("<tr class='lab-change'>")[1:3]
    assert "The reply, unchanged:" in wrong and "Changed text:" not in wrong
    assert "Changed text:" in leet
