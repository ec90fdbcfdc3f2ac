"""Excessive punctuation and letter repetition ("fullyyyyy!!!!").

>>> p = PunctuationRepeat()
>>> v = p("You are not alone. Truly.", seed=3, intensity=1.0)
>>> v.text.count("!") + v.text.count(".") > 2 and len(v.text) > 25
True
"""

from __future__ import annotations

import random
import re

from perturbations.base import Perturbation
from perturbations.text_units import map_words

_PUNCT = re.compile(r"([.!?,])")


class PunctuationRepeat(Perturbation):
    """Stretches the last letter of some words and repeats punctuation marks."""

    id = "punctuation-repeat"
    label = "Excessive punctuation and letter repetition"
    default_intensity = 0.3

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        share = float(intensity)

        def stretch(word: str, r: random.Random) -> str:
            return word + word[-1] * r.randint(2, 5)

        text = map_words(text, rng, share, stretch, min_len=3)

        def repeat(match: re.Match[str]) -> str:
            mark = match.group(1)
            if rng.random() >= share:
                return mark
            extra = "!" if mark in ".!" else mark
            return mark + extra * rng.randint(2, 4)

        return _PUNCT.sub(repeat, text)
