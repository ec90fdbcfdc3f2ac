"""The perturbation base class and the variant record.

A perturbation turns a reply into a variant that should (1–9) or should not
(the controls) keep its meaning. Rule-based subclasses fill one hook,
:meth:`_apply` (text in, text out); LLM rewrites narrow the intermediate
hook :meth:`_perturb`, which also says how the variant was made;
:meth:`Perturbation.__call__` does the bookkeeping: a random generator
seeded from (perturbation id, seed) so every variant is reproducible, the
intensity's range, and empty text (returned as it is).

>>> from perturbations.registry import get_perturbation
>>> v = get_perturbation("leetspeak")("I hear you.", seed=1, intensity=1.0)
>>> v.text, v.method
('1 h34r y0u.', 'rule')
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from responders.base import Responder


@dataclass(frozen=True)
class Variant:
    """A perturbed reply and how it was made."""

    perturbation_id: str
    source: str
    text: str
    seed: int
    intensity: float | None
    method: str  # "rule", "llm:<responder id>", or "rule (…why the LLM was not used…)"
    #: The message to pair the variant with, when the perturbation replaces it (else None).
    message: str | None = None

    def to_dict(self) -> dict[str, object]:
        """A flat, JSON-ready view."""
        return asdict(self)


class Perturbation(ABC):
    """Base class for perturbations; subclasses implement :meth:`_apply`."""

    id: ClassVar[str]
    label: ClassVar[str]
    #: What a good scorer does on this perturbation: "hold", "fall" or "not rise".
    expectation: ClassVar[str] = "hold"
    #: Default intensity (share of words or letters touched), or None when it has none.
    default_intensity: ClassVar[float | None] = None
    #: True when an LLM rewrite is tried first (with a rule-based fallback).
    rewrites: ClassVar[bool] = False
    #: Why a variant can come back word for word the same, in plain words: a page says this
    #: instead of showing a zero change that measures nothing.
    unchanged: ClassVar[str] = (
        "this draw changed nothing (the seed and intensity pick what changes): try another seed"
    )
    #: Why a variant can come back empty, in plain words.
    emptied: ClassVar[str] = "nothing of this reply was left to score"

    @property
    def keeps_meaning(self) -> bool:
        """True when the variant should keep the reply's meaning (a good scorer holds still)."""
        return self.expectation == "hold"

    def __call__(
        self,
        text: str,
        *,
        seed: int = 0,
        intensity: float | None = None,
        rewriter: Responder | None = None,
        message: str | None = None,
    ) -> Variant:
        """Perturb ``text`` reproducibly; ``rewriter`` is used by LLM rewrites only.

        ``message`` is the one the reply answers; only perturbations that swap it
        (the wrong-message control) read it.
        """
        if intensity is None:
            intensity = self.default_intensity
        elif self.default_intensity is None:
            intensity = None
        elif not 0.0 <= intensity <= 1.0:
            raise ValueError("intensity must be between 0 and 1")
        text = text or ""
        if not text.strip():
            return Variant(self.id, text, text, seed, intensity, "rule")
        rng = random.Random(f"{self.id}:{seed}")
        out, method = self._perturb(text, rng, intensity, rewriter)
        return Variant(self.id, text, out, seed, intensity, method)

    def why_unchanged(self, variant: Variant) -> str:
        """Why ``variant`` is its reply word for word, in plain words ('' when it is not, or
        when only the message paired with it changed).

        >>> from perturbations.registry import get_perturbation
        >>> strip = get_perturbation("strip-empathy")
        >>> strip.why_unchanged(strip("Book the venue by Friday.", seed=0))
        'this reply has no empathic language to remove'
        >>> strip.why_unchanged(strip("So sorry. Book the venue by Friday.", seed=0))
        ''
        """
        if variant.text != variant.source or variant.message is not None:
            return ""
        if not variant.source.strip():
            return "the reply is empty"
        if variant.method.startswith("llm:"):
            return "the rewrite came back word for word the same"
        return self.unchanged

    def why_empty(self, variant: Variant) -> str:
        """Why ``variant`` is empty though its reply was not, in plain words ('' otherwise).

        >>> from perturbations.registry import get_perturbation
        >>> strip = get_perturbation("strip-empathy")
        >>> strip.why_empty(strip("You've got this!", seed=0))[:41]
        'every sentence of this reply is warmth or'
        """
        if variant.text.strip() or not variant.source.strip():
            return ""
        return self.emptied

    def _perturb(
        self, text: str, rng: random.Random, intensity: float | None, rewriter: Responder | None
    ) -> tuple[str, str]:
        """Return (perturbed text, method); rule-based by default."""
        return self._apply(text, rng, intensity), "rule"

    @abstractmethod
    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        """Return the perturbed text (the rule; LLM rewrites use it as their fallback)."""
