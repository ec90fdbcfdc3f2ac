"""Spelling errors and truncated words ("becaus", "thier", "frustrat").

>>> v = SpellingErrors()("Everything you describe sounds exhausting", seed=2, intensity=1.0)
>>> v.text != v.source and len(v.text.split()) == 5
True
"""

from __future__ import annotations

import random

from perturbations.base import Perturbation
from perturbations.text_units import map_words


def _typo(word: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(word) - 1)
    kind = rng.choice(("swap", "drop", "double", "truncate"))
    if kind == "swap":
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind == "drop":
        return word[:i] + word[i + 1 :]
    if kind == "double":
        return word[:i] + word[i] + word[i:]
    return word[: max(3, len(word) - rng.randint(1, 3))]


class SpellingErrors(Perturbation):
    """Swaps, drops or doubles a letter, or cuts the end off, in a share of words."""

    id = "spelling-errors"
    label = "Spelling errors and truncation"
    default_intensity = 0.25

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        return map_words(text, rng, float(intensity), _typo, min_len=4)
