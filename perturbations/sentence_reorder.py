"""Sentences in another order (same sentences, same words).

>>> v = SentenceReorder()("One. Two. Three.", seed=0)
>>> sorted(v.text.split()) == sorted("One. Two. Three.".split()) and v.text != "One. Two. Three."
True
"""

from __future__ import annotations

import random

from perturbations.base import Perturbation
from perturbations.text_units import sentences


class SentenceReorder(Perturbation):
    """Shuffles the sentences; a reply of one sentence is returned unchanged."""

    id = "sentence-reorder"
    label = "Sentence reordering"

    def _apply(self, text, rng: random.Random, intensity, rewriter):  # type: ignore[no-untyped-def]
        parts = sentences(text)
        if len(parts) < 2:
            return text, "rule (one sentence: nothing to reorder)"
        order = parts[:]
        for _ in range(10):
            rng.shuffle(order)
            if order != parts:
                break
        return " ".join(order), "rule"
