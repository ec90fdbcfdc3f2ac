"""An optional defence: undo cheap text attacks before a scorer reads the reply.

Normalisation (NFKC), invisible characters removed, Greek and Cyrillic
look-alikes mapped back to Latin, leetspeak digits inside words decoded, and
runs of three or more repeated letters or punctuation marks collapsed. It
does not fix spelling errors. Wrap any scorer: ``bert-head+normalize``.

>>> normalize_text("Y0u αre nοt αl0ne!!!! I'm sooooo s0rry\\u200b")
"You are not alone! I'm so sorry"
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from scorers.base import Score, ScoreItem, Scorer

_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]")
_LOOKALIKES = str.maketrans(
    "αοιρυνΑΒΕΗΙΚΜΝΟΡΤΧΥΖεаеорсухАВЕКМНОРСТХ",
    "aoipuvABEHIKMNOPTXYZeaeopcyxABEKMHOPCTX",
)
_LEET = str.maketrans("4310572", "aeiostz")
_MIXED_WORD = re.compile(r"\b(?=\w*[^\W\d_])(?=\w*\d)\w+\b")
_LETTER_RUN = re.compile(r"([^\W\d_])\1{2,}")
_PUNCT_RUN = re.compile(r"([!?.,])[!?.,]+")
_TOKEN = re.compile(r"\b\w+\b")
_DIGITS = re.compile(r"\b[013457]+\b")


def normalize_text(text: str) -> str:
    """The text with look-alikes, invisibles, leetspeak and stretching undone.

    Digits become letters only inside words that mix both ("h3lp"), or, when a
    fifth of the words do, in short all-digit words too ("50" → "so").
    """
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text).translate(_LOOKALIKES)
    tokens = _TOKEN.findall(text)
    mixed = len(_MIXED_WORD.findall(text))
    text = _MIXED_WORD.sub(lambda m: m.group().translate(_LEET), text)
    if tokens and mixed / len(tokens) >= 0.2:  # leetspeak throughout: short digit words too
        text = _DIGITS.sub(
            lambda m: m.group().translate(_LEET) if len(m.group()) <= 3 else m.group(), text
        )
    text = _LETTER_RUN.sub(r"\1", text)
    return _PUNCT_RUN.sub(r"\1", text)


class NormalizedScorer(Scorer):
    """``inner`` reading normalised text."""

    def __init__(self, inner: Scorer) -> None:
        self.inner = inner
        self.id = f"{inner.id}+normalize"
        self.label = f"{inner.label}, reading normalised text"
        self.rubric_id = inner.rubric_id  # type: ignore[misc]

    def unavailable_reason(self) -> str | None:
        return self.inner.unavailable_reason()

    def _score_batch(self, items: list[ScoreItem]) -> list[Score]:
        clean = [
            replace(
                i,
                reply=normalize_text(i.reply),
                message=normalize_text(i.message) if i.message else None,
            )
            for i in items
        ]
        scores = self.inner.score_many(clean)
        return [s.with_id(self.id) for s in scores]
