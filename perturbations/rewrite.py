"""LLM rewrites (shortened, elevated, casual) with rule-based fallbacks.

The rewrite prompts are data (``assets/prompts/rewrite.json``). The rewriter
is any responder (the local model by default), asked at temperature 0. If
there is no rewriter, it fails, or its output is unusable (empty, or no
shorter when it should be), the rule-based version is used and the method
says why.
"""

from __future__ import annotations

import json
import random
import re
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from config import PROMPTS_DIR
from perturbations.base import Perturbation
from perturbations.text_units import sentences, swap_phrases

if TYPE_CHECKING:
    from responders.base import Responder

PROMPTS_FILE = PROMPTS_DIR / "rewrite.json"

CONTRACTIONS: dict[str, str] = {
    "do not": "don't", "does not": "doesn't", "did not": "didn't", "is not": "isn't",
    "are not": "aren't", "was not": "wasn't", "can not": "can't", "cannot": "can't",
    "will not": "won't", "would not": "wouldn't", "should not": "shouldn't",
    "could not": "couldn't", "have not": "haven't", "it is": "it's", "that is": "that's",
    "i am": "i'm", "you are": "you're", "we are": "we're", "they are": "they're",
    "i have": "i've", "you have": "you've", "i will": "i'll", "you will": "you'll",
    "let us": "let's", "there is": "there's", "what is": "what's",
}  # fmt: skip
EXPANSIONS: dict[str, str] = {v: k for k, v in CONTRACTIONS.items() if k != "can not"}
FORMAL: dict[str, str] = {
    "help": "support", "get": "obtain", "maybe": "perhaps", "really": "truly",
    "a lot": "considerably", "kids": "children", "think": "believe", "tough": "arduous",
    "hard": "difficult", "talk": "converse", "start": "commence", "try": "endeavour",
    "need": "require", "okay": "acceptable", "ok": "acceptable", "sad": "sorrowful",
    "show": "demonstrate", "big": "considerable", "feel like": "sense that",
}  # fmt: skip
CASUAL: dict[str, str] = {
    "perhaps": "maybe", "assist": "help", "difficult": "tough", "very": "super",
    "children": "kids", "however": "but", "therefore": "so", "believe": "think",
    "extremely": "really", "understand": "get", "require": "need", "additionally": "also",
    "professional": "pro", "completely": "totally", "attempt": "try",
}  # fmt: skip
_FILLER = re.compile(
    r"\b(I want you to know that|It's important to remember that|It is important to remember that|"
    r"Please know that|really|truly|very|just|actually)\b\s*",
    re.IGNORECASE,
)


@lru_cache(maxsize=1)
def rewrite_prompts() -> dict[str, object]:
    """The rewrite prompts file."""
    return json.loads(PROMPTS_FILE.read_text(encoding="utf-8"))


def llm_rewrite(kind: str, text: str, rewriter: Responder) -> str:
    """Ask ``rewriter`` for a ``kind`` rewrite of ``text`` (raises on any failure)."""
    data = rewrite_prompts()
    limit = min(8192, max(64, len(text) // 2))  # about one token per 3–4 characters, with room
    generation = rewriter.generate(
        text,
        system=str(data["prompts"][kind]),  # type: ignore[index]
        max_tokens=limit,
        temperature=float(data["temperature"]),  # type: ignore[arg-type]
    )
    return "".join(generation).strip().strip('"').strip()


class RewritePerturbation(Perturbation):
    """An LLM rewrite of one kind; subclasses give the kind and the rule fallback."""

    rewrites: ClassVar[bool] = True
    kind: ClassVar[str]

    def _perturb(
        self, text: str, rng: random.Random, intensity: float | None, rewriter: Responder | None
    ) -> tuple[str, str]:
        why = "no LLM rewriter"
        if rewriter is not None:
            try:
                out = llm_rewrite(self.kind, text, rewriter)
                problem = self._check(text, out)
                if problem is None:
                    return out, f"llm:{rewriter.id}"
                why = f"LLM output unusable: {problem}"
            except Exception as exc:  # any failure falls back to the rule
                why = f"LLM failed: {str(exc)[:120]}"
        return self._apply(text, rng, intensity), f"rule ({why})"

    def _check(self, source: str, out: str) -> str | None:
        if not out:
            return "empty"
        if len(out) > 2 * len(source) + 200:
            return "far longer than the original"
        return None


class Shortened(RewritePerturbation):
    """Condensed text with the same meaning.

    >>> v = Shortened()("I am so sorry. That sounds hard. You could talk to a friend. "
    ...                 "It might also help to rest. I am here for you.", seed=1)
    >>> v.method, len(v.text) < len(v.source)
    ('rule (no LLM rewriter)', True)
    """

    id = "shortened"
    label = "Shortened"
    kind = "shortened"
    unchanged = "this reply is too short for the rule to shorten (two sentences or fewer)"
    #: The rule cannot condense wording as an LLM does: it drops half the middle sentences,
    #: so what they said goes too, and a scorer may fairly fall (the robustness report says so).
    rule_expectation: ClassVar[str] = (
        "fall allowed: the rule drops half the middle sentences (content goes, not only words)"
    )

    def _check(self, source: str, out: str) -> str | None:
        problem = super()._check(source, out)
        if problem is None and len(out) >= len(source):
            return "not shorter"
        return problem

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        parts = [_FILLER.sub("", s) for s in sentences(text)]
        parts = [p[:1].upper() + p[1:] for p in parts if p.strip()]
        if len(parts) > 2:
            middle = parts[1:-1]
            keep = sorted(rng.sample(range(len(middle)), k=len(middle) // 2))
            parts = [parts[0], *(middle[i] for i in keep), parts[-1]]
        return " ".join(parts)


class Elevated(RewritePerturbation):
    """Elevated, formal language.

    >>> Elevated()("I think it's hard, but you can get help.", seed=0).text
    'I believe it is difficult, but you can obtain support.'
    """

    id = "elevated"
    label = "Elevated language"
    kind = "elevated"
    unchanged = "this reply has no contractions or everyday words for the rule to make formal"

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        return swap_phrases(swap_phrases(text, EXPANSIONS), FORMAL)


class Casual(RewritePerturbation):
    """Casual, everyday language.

    >>> Casual()("I do not believe it is very difficult. Take a break.", seed=0).text
    "I don't think it's super tough. take a break."
    """

    id = "casual"
    label = "Casual language"
    kind = "casual"
    unchanged = "this reply has no formal wording for the rule to make casual"

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        text = swap_phrases(swap_phrases(text, CONTRACTIONS), CASUAL)
        # Texting style: sentences start in lower case (but "I" stays "I").
        return re.sub(
            r"(^|[.!?]\s+)([A-Z])(?=[a-z])", lambda m: m.group(1) + m.group(2).lower(), text
        )
