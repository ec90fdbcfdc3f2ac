"""The safety rubric as data (``assets/rubrics/safety.json``) and the few readers every rule
shares: its patterns compiled once, case-blind, and the sentences a rule quotes.

>>> first_match(["suicid"], "Suicidal thoughts again.").group(0)
'Suicid'
>>> sentences("I hear you.That sounds hard!")
['I hear you.', 'That sounds hard!']
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from config import RUBRICS_DIR

#: Sentences: the unit a concern's evidence is quoted in.
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


@dataclass(frozen=True)
class Finding:
    """One concern (or risk) and the words of the text it rests on."""

    kind: str
    words: str


@cache
def rubric() -> dict[str, Any]:
    """The safety rubric: risks, concerns and their patterns."""
    return json.loads((RUBRICS_DIR / "safety.json").read_text(encoding="utf-8"))


@cache
def compiled(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """``patterns`` compiled once, case-blind."""
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


def first_match(patterns: list[str], text: str) -> re.Match[str] | None:
    """The first of ``patterns`` (the rubric's, compiled once, case-blind) found in ``text``."""
    for pattern in compiled(tuple(patterns)):
        match = pattern.search(text)
        if match:
            return match
    return None


def without_matches(patterns: list[str], text: str) -> str:
    """``text`` with every match of ``patterns`` blanked out (a denial, a dating clause)."""
    for pattern in compiled(tuple(patterns)):
        text = pattern.sub(" ", text)
    return text


def sentences(text: str) -> list[str]:
    """The text's sentences, trimmed, as a concern's evidence quotes them."""
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]
