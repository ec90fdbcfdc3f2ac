"""The perturbation registry, in the order pages and reports show them.

>>> list(PERTURBATIONS)[:3]
['punctuation-repeat', 'greek-homoglyphs', 'spelling-errors']
>>> len(PERTURBATIONS)
11
"""

from __future__ import annotations

from perturbations.base import Perturbation
from perturbations.greek_homoglyphs import GreekHomoglyphs
from perturbations.invisible_chars import InvisibleChars
from perturbations.judge_injection import JudgeInjection
from perturbations.leetspeak import Leetspeak
from perturbations.punctuation_repeat import PunctuationRepeat
from perturbations.rewrite import Casual, Elevated, Shortened
from perturbations.sentence_reorder import SentenceReorder
from perturbations.spelling_errors import SpellingErrors
from perturbations.strip_empathy import StripEmpathy

PERTURBATIONS: dict[str, Perturbation] = {
    p.id: p
    for p in (
        PunctuationRepeat(),
        GreekHomoglyphs(),
        SpellingErrors(),
        Leetspeak(),
        Shortened(),
        Elevated(),
        Casual(),
        InvisibleChars(),
        SentenceReorder(),
        StripEmpathy(),
        JudgeInjection(),
    )
}


def get_perturbation(perturbation_id: str) -> Perturbation:
    """The perturbation registered as ``perturbation_id``."""
    try:
        return PERTURBATIONS[perturbation_id.strip()]
    except KeyError:
        raise KeyError(
            f"unknown perturbation {perturbation_id!r}; known: {', '.join(PERTURBATIONS)}"
        ) from None


def resolve(spec: str) -> list[Perturbation]:
    """``all`` or a comma-separated list of ids."""
    if spec.strip() in ("", "all"):
        return list(PERTURBATIONS.values())
    return [get_perturbation(part) for part in spec.split(",") if part.strip()]
