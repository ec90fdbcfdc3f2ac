"""Latin letters swapped for look-alike Greek ones (a→α, o→ο, capitals A B E H …).

>>> GreekHomoglyphs()("Open up", seed=0, intensity=1.0).text
'Ορen υρ'
"""

from __future__ import annotations

import random

from perturbations.base import Perturbation

HOMOGLYPHS: dict[str, str] = {
    "a": "α", "o": "ο", "i": "ι", "p": "ρ", "u": "υ", "v": "ν",
    "A": "Α", "B": "Β", "E": "Ε", "H": "Η", "I": "Ι", "K": "Κ", "M": "Μ",
    "N": "Ν", "O": "Ο", "P": "Ρ", "T": "Τ", "X": "Χ", "Y": "Υ", "Z": "Ζ",
}  # fmt: skip


class GreekHomoglyphs(Perturbation):
    """Replaces a share of the eligible Latin letters with Greek homoglyphs."""

    id = "greek-homoglyphs"
    label = "Greek homoglyphs"
    default_intensity = 0.5

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        share = float(intensity)
        out = [HOMOGLYPHS[ch] if ch in HOMOGLYPHS and rng.random() < share else ch for ch in text]
        return "".join(out)
