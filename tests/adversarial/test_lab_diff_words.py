"""Cold walk (issue 30, point 12): the lab's "changed text" was a character diff, unreadable for
sentence reorder and leetspeak. Now words are compared: a changed word is struck through and
its new form marked; the same sentences in a new order, or text changed nearly throughout, is
shown whole with a note; spacing alone is no change; an invisible character shows as a dot."""

from __future__ import annotations

import re

import pytest

from core.questions import load_questions
from perturbations.registry import get_perturbation
from reports.lab import diff_html

REPLY = load_questions()[3].answer


def changed(perturbation: str) -> str:
    return diff_html(REPLY, get_perturbation(perturbation)(REPLY).text)


def test_a_reorder_is_shown_as_the_new_order_not_a_diff():
    shown = changed("sentence-reorder")
    assert shown.startswith("<small><i>the same sentences in a new order:")
    assert "<del" not in shown and "<mark>" not in shown


@pytest.mark.parametrize("perturbation", ["leetspeak", "greek-homoglyphs"])
def test_text_changed_nearly_throughout_is_shown_whole(perturbation):
    shown = changed(perturbation)
    assert shown.startswith("<small><i>changed throughout; the new text:") and "<del" not in shown


def test_a_few_changed_words_are_struck_and_marked_whole_words():
    shown = changed("spelling-errors")
    struck = re.findall(r"<del[^>]*>(.*?)</del>", shown)
    assert struck and all(re.fullmatch(r"[\w']+", w) for w in struck), struck  # whole words


def test_spacing_alone_is_no_change_and_invisible_characters_show():
    assert diff_html("I  hear you. Rest.", "I hear you. Rest.") == "I hear you. Rest."
    assert "<mark title='an invisible character'>·</mark>" in changed("invisible-chars")


def test_the_reply_text_is_escaped():
    shown = diff_html("I hear you.", "I hear <script>x()</script> you.")
    assert "<script>" not in shown and "&lt;script&gt;" in shown
