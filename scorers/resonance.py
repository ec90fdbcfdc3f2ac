"""Empathic similarity of two stories (after Shen et al. and Manzoor et al.), on 1–4.

Two methods rate a pair on the ``resonance`` rubric (event, emotion, moral,
and overall empathy: would the two narrators empathize with each other):

- ``embedding``: cosine similarity of the packaged MiniLM encoder's
  mean-pooled vectors (the last layer's mean, as sentence-transformers pools
  all-MiniLM-L6-v2), mapped to 1–4 by :func:`cosine_to_scale`. With only the
  two stories every aspect gets the story cosine; when a pair brings short
  texts for an aspect (the annotators' ``main_event``, ``emotion``, ``moral``
  summaries of the bundled stories) that aspect is their cosine. Cosine
  mostly measures a shared topic, i.e. the event, not emotion or moral.
- ``judge/<responder id>``: any judge with the prompt ``assets/prompts/resonance.json``,
  asked in both orders (A then B, B then A); the two are averaged and their
  mean absolute difference over the four aspects is the ``order_gap``
  (a position-bias warning when it reaches :data:`ORDER_GAP_WARNING`).

>>> cosine_to_scale(0.0), cosine_to_scale(0.5), cosine_to_scale(1.0), cosine_to_scale(-0.3)
(1.0, 2.5, 4.0, 1.0)
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from core.textinput import InputError, clean_text
from scorers.base import Score, ScoreItem
from scorers.judge import base
from scorers.judge.core import Instances
from scorers.rubric import load_rubric

RUBRIC_ID = "resonance"
ASPECTS: tuple[str, ...] = load_rubric(RUBRIC_ID).components
ORDER_GAP_WARNING = 1.0
MAX_STORY_CHARS = 6_000
MARKERS = ("STORY A", "STORY B")


def cosine_to_scale(cosine: float) -> float:
    """Map a cosine to 1–4: negatives and 0 → 1, then linear, 1 → 4 (``1 + 3·max(c, 0)``)."""
    return round(1.0 + 3.0 * min(max(float(cosine), 0.0), 1.0), 4)


@dataclass(frozen=True)
class Pair:
    """Two stories, and optional short texts per aspect (``aspects[name] = (a, b)``)."""

    story_a: str
    story_b: str
    aspects: Mapping[str, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class PairRating:
    """The four similarities of one pair (None when unscored), with how they were made."""

    method: str
    values: Mapping[str, float] | None
    reason: str | None = None
    order_gap: float | None = None
    rationale: str | None = None
    raw: str | None = None
    prompt_version: str | None = None
    #: For a judge: the values with A first and with B first, before averaging.
    orders: tuple[Mapping[str, float], Mapping[str, float]] | None = None

    @property
    def ok(self) -> bool:
        return self.values is not None

    @property
    def status(self) -> str:
        return "ok" if self.ok else "unscored"

    @property
    def position_bias(self) -> bool:
        """True when the two orders differ by at least :data:`ORDER_GAP_WARNING`."""
        return self.order_gap is not None and self.order_gap >= ORDER_GAP_WARNING

    def value(self, aspect: str) -> float | None:
        return None if self.values is None else self.values.get(aspect)


def clean_pair(pair: Pair) -> Pair:
    """The pair with both stories cleaned; InputError names the bad one."""
    a = clean_text(pair.story_a, limit=MAX_STORY_CHARS, what="first story")
    b = clean_text(pair.story_b, limit=MAX_STORY_CHARS, what="second story")
    aspects = {k: v for k, v in pair.aspects.items() if v[0].strip() and v[1].strip()}
    return Pair(a, b, aspects)


class EmbeddingResonance:
    """Cosine similarity on the packaged encoder, mapped to 1–4."""

    id: ClassVar[str] = "embedding"
    label: ClassVar[str] = "Embedding cosine (MiniLM)"

    def __init__(self, encoder: Any = None) -> None:
        self._encoder = encoder

    @property
    def encoder(self) -> Any:
        if self._encoder is None:
            from scorers.bert_head.encoder import load_encoder

            self._encoder = load_encoder()
        return self._encoder

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length sentence vectors (the last layer's mean pooling)."""
        full = self.encoder.encode(list(texts))
        hidden = full.shape[1] // 2  # the encoder concatenates two poolings; keep the first
        vecs = full[:, :hidden].astype(np.float64)
        return vecs / np.clip(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12, None)

    def rate_pairs(self, pairs: Sequence[Pair]) -> list[PairRating]:
        """Rate every pair (texts encoded in one batch); bad pairs come back unscored."""
        cleaned: list[Pair | str] = []
        for pair in pairs:
            try:
                cleaned.append(clean_pair(pair))
            except InputError as exc:
                cleaned.append(str(exc))
        texts = sorted({t for p in cleaned if isinstance(p, Pair) for t in _texts(p)})
        index = {t: i for i, t in enumerate(texts)}
        vecs = self.vectors(texts) if texts else np.zeros((0, 1))
        out = []
        for pair in cleaned:
            if isinstance(pair, str):
                out.append(PairRating(self.id, None, reason=pair))
                continue
            story = cosine_to_scale(vecs[index[pair.story_a]] @ vecs[index[pair.story_b]])
            values = dict.fromkeys(ASPECTS, story)
            for aspect, (a, b) in pair.aspects.items():
                values[aspect] = cosine_to_scale(vecs[index[a]] @ vecs[index[b]])
            out.append(PairRating(self.id, values))
        return out


def _texts(pair: Pair) -> list[str]:
    return [pair.story_a, pair.story_b, *(t for ab in pair.aspects.values() for t in ab)]


class JudgeResonance(base.BaseJudge):
    """Any judge rates the pair in both orders; the orders are averaged."""

    prompt_name: ClassVar[str] = "resonance"
    rubric_id: ClassVar[str] = RUBRIC_ID
    markers: ClassVar[tuple[str, ...]] = MARKERS

    def build_prompt(self, item: ScoreItem) -> tuple[str, str]:
        """Story A is the item's ``message``, story B its ``reply``."""
        prompt = self.prompt
        system = prompt["system"].format(rubric=prompt["rubric"])
        a, b = self.quote(item.message or ""), self.quote(item.reply)
        return system, prompt["user"].format(story_a=a, story_b=b)

    def rate_pair(self, pair: Pair) -> PairRating:
        """Both orders, averaged, with the order gap; unscored if either order fails."""
        try:
            pair = clean_pair(pair)
        except InputError as exc:
            return PairRating(self.id, None, reason=str(exc))
        reason = self.unavailable_reason()
        if reason:
            return PairRating(self.id, None, reason=reason)
        ab = self.judge_prompt(*self.build_prompt(ScoreItem(pair.story_b, pair.story_a)))
        ba = self.judge_prompt(*self.build_prompt(ScoreItem(pair.story_a, pair.story_b)))
        return combine_orders(self.id, ab, ba)

    def rate_pairs(self, pairs: Sequence[Pair]) -> list[PairRating]:
        return [self.rate_pair(p) for p in pairs]


def combine_orders(method: str, ab: Score, ba: Score) -> PairRating:
    """Average two orders' scores; ``order_gap`` = mean |A,B − B,A| over the aspects.

    >>> s = lambda *v: Score.from_values("j", dict(zip(ASPECTS, v)), RUBRIC_ID)
    >>> r = combine_orders("j", s(4, 3, 2, 3), s(2, 3, 2, 2))
    >>> r.values["event"], r.order_gap, r.position_bias
    (3.0, 0.75, False)
    """
    failed = [f"{name}: {s.reason}" for name, s in (("A then B", ab), ("B then A", ba)) if not s.ok]
    raw = "\n=== B then A ===\n".join(r for r in (ab.raw, ba.raw) if r)
    if failed:
        return PairRating(method, None, reason="; ".join(failed), raw=raw or None)
    values = {a: statistics.fmean([ab.value(a), ba.value(a)]) for a in ASPECTS}
    gap = statistics.fmean(abs(ab.value(a) - ba.value(a)) for a in ASPECTS)
    return PairRating(
        method,
        values,
        order_gap=gap,
        rationale=ab.rationale,
        raw=raw,
        prompt_version=ab.prompt_version,
        orders=({a: ab.value(a) for a in ASPECTS}, {a: ba.value(a) for a in ASPECTS}),
    )


Method = EmbeddingResonance | JudgeResonance
_METHODS: Instances[Method] = Instances()


def get_resonance_method(
    method_id: str, *, samples: int = 1, keys: Mapping[str, str] | None = None
) -> Method:
    """``embedding`` or ``judge/<responder id>`` (one instance, one cache, per setting).

    >>> get_resonance_method("embedding").id, get_resonance_method("judge").id
    ('embedding', 'judge/local/qwen2.5-coder-1.5b')
    >>> get_resonance_method("bert-head")
    Traceback (most recent call last):
    ...
    KeyError: "unknown method 'bert-head': use embedding or judge/<responder id>"
    """
    from config import SETTINGS

    method_id = method_id.strip()
    if method_id == "embedding":
        method: Method = _METHODS.get(("embedding",), EmbeddingResonance)
    else:
        try:
            responder = base.judge_responder(method_id, strict=True)
        except base.NotAJudge:
            raise KeyError(
                f"unknown method {method_id!r}: use embedding or judge/<responder id>"
            ) from None
        method = _METHODS.get(
            (type(responder), responder.id, samples),
            lambda: JudgeResonance(responder, samples=samples),
        )
    if isinstance(method, JudgeResonance):
        return method.with_keys(SETTINGS.keys.merged(keys))  # type: ignore[return-value]
    return method
