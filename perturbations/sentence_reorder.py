"""Sentences in another order (same sentences, same words).

>>> v = SentenceReorder()("One. Two. Three.", seed=0)
>>> sorted(v.text.split()) == sorted("One. Two. Three.".split()) and v.text != "One. Two. Three."
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from perturbations.base import Perturbation
from perturbations.text_units import sentences

if TYPE_CHECKING:
    from responders.base import Responder


class SentenceReorder(Perturbation):
    """Shuffles the sentences; a reply of one sentence is returned unchanged."""

    id = "sentence-reorder"
    label = "Sentence reordering"
    unchanged = "this reply has only one sentence, so there is no order to change"

    def _perturb(
        self, text: str, rng: random.Random, intensity: float | None, rewriter: Responder | None
    ) -> tuple[str, str]:
        if len(sentences(text)) < 2:
            return text, "rule (one sentence: nothing to reorder)"
        return super()._perturb(text, rng, intensity, rewriter)

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        parts = sentences(text)
        order = parts[:]
        for _ in range(10):
            rng.shuffle(order)
            if order != parts:
                break
        return " ".join(order)
