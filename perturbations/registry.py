"""The perturbation registry, in the order pages and reports show them.

>>> list(PERTURBATIONS)[:3]
['punctuation-repeat', 'greek-homoglyphs', 'spelling-errors']
>>> len(PERTURBATIONS)
12
"""

from __future__ import annotations

from core.registry import Registry
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
from perturbations.wrong_message import WrongMessage

_MEMBERS: tuple[Perturbation, ...] = (
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
    WrongMessage(),
)
REGISTRY: Registry[Perturbation] = Registry("perturbation")
for _member in _MEMBERS:
    REGISTRY.add(_member.id, lambda _arg, member=_member: member)
#: id -> perturbation, in the order pages and reports show them.
PERTURBATIONS: dict[str, Perturbation] = {p.id: p for p in _MEMBERS}


def get_perturbation(perturbation_id: str) -> Perturbation:
    """The perturbation registered as ``perturbation_id``."""
    return REGISTRY.get(perturbation_id)


def resolve(spec: str) -> list[Perturbation]:
    """``all`` or a comma-separated list of ids."""
    if spec.strip() in ("", "all"):
        return list(PERTURBATIONS.values())
    return [get_perturbation(part) for part in spec.split(",") if part.strip()]
