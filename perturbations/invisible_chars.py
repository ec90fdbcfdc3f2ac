"""Invisible characters (zero-width spaces and joiners) inside words.

>>> v = InvisibleChars()("You matter", seed=0, intensity=1.0)
>>> v.text.replace("\\u200b", "").replace("\\u200d", "").replace("\\u2060", "") == "You matter"
True
>>> len(v.text) > len("You matter")
True
"""

from __future__ import annotations

import random

from perturbations.base import Perturbation
from perturbations.text_units import map_words

INVISIBLE = ("\u200b", "\u200d", "\u2060")  # zero-width space, zero-width joiner, word joiner


def _hide(word: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(word))
    return word[:i] + rng.choice(INVISIBLE) + word[i:]


class InvisibleChars(Perturbation):
    """Inserts one invisible character inside a share of the words."""

    id = "invisible-chars"
    label = "Invisible characters"
    default_intensity = 0.5

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        return map_words(text, rng, float(intensity), _hide, min_len=2)
