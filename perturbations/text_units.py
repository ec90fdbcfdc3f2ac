"""Small helpers shared by the rule-based perturbations.

>>> [m.group() for m in words("Don't stop—really.")]
["Don't", 'stop', 'really']
>>> sentences("Hi there. How are you?\\nFine!")
['Hi there.', 'How are you?', 'Fine!']
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)|\n")


def words(text: str) -> Iterator[re.Match[str]]:
    """Word matches (letters, with inner apostrophes), in any script."""
    return _WORD.finditer(text)


def sentences(text: str) -> list[str]:
    """Sentences with their end punctuation, stripped; newlines split too."""
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def map_words(
    text: str,
    rng: random.Random,
    share: float,
    change: Callable[[str, random.Random], str],
    *,
    min_len: int = 1,
) -> str:
    """Apply ``change`` to a random ``share`` of the words of at least ``min_len`` letters,
    and to one of them at least when ``share`` is above 0: a short reply's draw must not
    come back unchanged and show a change of nothing.

    >>> out = map_words("Stay positive, good vibes only.", random.Random(0), 0.01, lambda w, r: w.upper())
    >>> [w for w in out.split() if w.strip(",.").isupper()]
    ['VIBES']
    """
    out, last = [], 0
    eligible: list[int] = []  # where in ``out`` each long enough word sits
    touched_any = False
    for match in words(text):
        word = match.group()
        out.append(text[last : match.start()])
        touched = len(word) >= min_len and rng.random() < share
        if len(word) >= min_len:
            eligible.append(len(out))
            touched_any = touched_any or touched
        out.append(change(word, rng) if touched else word)
        last = match.end()
    out.append(text[last:])
    if eligible and share > 0 and not touched_any:
        at = eligible[rng.randrange(len(eligible))]
        out[at] = change(out[at], rng)
    return "".join(out)


def keep_case(source: str, target: str) -> str:
    """``target`` with the capitalisation pattern of ``source``.

    >>> keep_case("Help", "assist"), keep_case("HELP", "assist")
    ('Assist', 'ASSIST')
    """
    if source.isupper() and len(source) > 1:
        return target.upper()
    if source[:1].isupper():
        return target[:1].upper() + target[1:]
    return target


def swap_phrases(text: str, table: dict[str, str]) -> str:
    """Replace whole words or phrases from ``table`` (case-insensitive, case kept)."""
    if not table:
        return text
    pattern = re.compile(
        r"\b(" + "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True)) + r")\b",
        re.IGNORECASE,
    )
    return pattern.sub(lambda m: keep_case(m.group(), table[m.group().lower()]), text)
