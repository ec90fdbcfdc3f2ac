"""The bundled question bank: each question once in the picker (issue 30)."""

from __future__ import annotations

from collections import Counter

from core.questions import load_questions


def test_the_picker_lists_each_question_text_once():
    def key(text: str) -> str:
        return " ".join(text.split()).casefold()

    texts = Counter(key(q.question) for q in load_questions())
    titles = Counter(key(q.title) for q in load_questions())
    assert [t for t, n in texts.items() if n > 1] == []
    assert [t for t, n in titles.items() if n > 1] == []  # what the picker's labels show
    assert len(load_questions()) == 100
