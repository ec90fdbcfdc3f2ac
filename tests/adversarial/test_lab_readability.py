"""Cold walk (issue 30, points 11-12): the lab's changed text is readable. A change's text sits
in its own row under its scores, across the whole table (no fourth column a phone must swipe
to); a reorder shows each sentence with its place before; a word with look-alike letters is
marked, not struck and repeated; the reply's text is escaped everywhere."""

from __future__ import annotations

import re

from core.questions import load_questions
from perturbations.registry import get_perturbation
from reports.lab import diff_html, lab_table
from scorers.base import Score
from studies import robustness as rb

REPLY = load_questions()[3].answer
SCORE = Score.from_components("s", 2, 2, 2)


def row(perturbation: str, reply: str = REPLY, scorers: tuple[str, ...] = ("s",)):
    variant = get_perturbation(perturbation)(reply, seed=0)
    return rb.VariantScores(
        variant, {s: rb.Change(0, perturbation, s, SCORE, SCORE) for s in scorers}
    )


def test_the_changed_text_is_a_row_under_the_scores_not_a_column():
    table = lab_table({"s": SCORE, "t": SCORE}, [row("leetspeak", scorers=("s", "t"))])
    header = re.search(r"<tr><th>.*?</tr>", table).group(0)
    assert header.count("<th") == 3  # change made and one column a scorer: no text column
    assert "<tr class='lab-text'><td colspan='3'>" in table
    assert "Swipe" not in table  # two scorers fit a phone


def test_many_scorers_still_say_the_table_swipes():
    ids = ("a", "b", "c")
    table = lab_table(dict.fromkeys(ids, SCORE), [row("leetspeak", scorers=ids)])
    assert "class='scroll-cue'>Wider than the screen? Swipe" in table


def test_a_reorder_numbers_each_sentence_by_its_place_before():
    shown = diff_html("One. Two. Three.", "Three. One. Two.")
    assert shown.endswith("<br><sup>3</sup>Three. <sup>1</sup>One. <sup>2</sup>Two.")
    real = row("sentence-reorder").variant
    assert "<sup>1</sup>" in diff_html(real.source, real.text)


def test_look_alike_letters_are_marked_once_not_struck_beside_their_twin():
    shown = diff_html("I hear you, and you matter.", "I hear y\u03bfu, and you matter.")
    assert "<del" not in shown
    assert shown == (
        "I hear <mark title='letters swapped for look-alikes: was you'>y\u03bfu</mark>, "
        "and you matter."
    )


def test_a_change_that_left_nothing_says_so_in_its_text_row():
    table = lab_table({"s": SCORE}, [row("strip-empathy", reply="You've got this!")])
    assert "nothing: this change removed every sentence" in table


def test_the_reply_is_escaped_in_every_view():
    evil = "I hear you <img src=x onerror=alert(1)>. It makes sense. Rest now."
    for perturbation in ("leetspeak", "sentence-reorder", "greek-homoglyphs", "shortened"):
        table = lab_table({"s": SCORE}, [row(perturbation, reply=evil)])
        assert "<img" not in table, perturbation
