"""Leetspeak: letters written as look-alike digits (e→3, a→4, o→0 …).

>>> Leetspeak()("Take care", seed=0, intensity=1.0).text
'74k3 c4r3'
"""

from __future__ import annotations

import random

from perturbations.base import Perturbation

LEET: dict[str, str] = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}


class Leetspeak(Perturbation):
    """Replaces a share of the letters a e i o s t (either case) with digits."""

    id = "leetspeak"
    label = "Leetspeak"
    default_intensity = 0.6

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        share = float(intensity)
        out = [
            LEET[ch.lower()] if ch.lower() in LEET and rng.random() < share else ch for ch in text
        ]
        return "".join(out)
