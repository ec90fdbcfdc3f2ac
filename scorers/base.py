"""The scorer base class and the score record.

A scorer rates replies on the rubric in ``../shared/rubric.md``: Cognitive,
Emotional and Behavioral, 1–3 each, overall = their mean. Subclasses
implement one hook, :meth:`Scorer._score_batch`; the public
:meth:`Scorer.score_many` cleans the texts, turns unusable ones into
``unscored`` results with the reason, and never lets one bad item sink a
batch. A score that could not be made is ``unscored``: never 0, never the
minimum.

>>> class Flat(Scorer):
...     id = "flat"
...     def _score_batch(self, items):
...         return [Score.from_components(self.id, 2, 2, 3) for _ in items]
>>> s = Flat().score("I'm sorry you're hurting.")
>>> s.status, round(s.overall, 3)
('ok', 2.333)
>>> Flat().score("   ").status
'unscored'
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import ClassVar

from textinput import InputError, clean_text

COMPONENTS: tuple[str, str, str] = ("cognitive", "emotional", "behavioral")
#: Replies may be longer than messages: a long therapist answer still scores.
MAX_REPLY_CHARS = 20_000


@dataclass(frozen=True)
class ScoreItem:
    """What a scorer rates: a reply, and the message it answers when known."""

    reply: str
    message: str | None = None


@dataclass(frozen=True)
class Score:
    """One scorer's verdict on one reply."""

    scorer_id: str
    cognitive: float | None = None
    emotional: float | None = None
    behavioral: float | None = None
    overall: float | None = None
    status: str = "ok"  # ok | unscored
    reason: str | None = None
    spread: float | None = None  # std of overall over k samples, when k > 1
    rationale: str | None = None
    raw: str | None = None

    @classmethod
    def from_components(
        cls, scorer_id: str, cognitive: float, emotional: float, behavioral: float, **extra: object
    ) -> Score:
        """A scored result with overall = mean of the three components."""
        values = [float(cognitive), float(emotional), float(behavioral)]
        for value in values:
            if not 1.0 <= value <= 3.0:
                raise ValueError(f"component {value} is outside 1–3")
        return cls(scorer_id, *values, overall=sum(values) / 3, **extra)  # type: ignore[arg-type]

    @classmethod
    def unscored(cls, scorer_id: str, reason: str, raw: str | None = None) -> Score:
        """A result with no numbers and the reason why."""
        return cls(scorer_id, status="unscored", reason=reason, raw=raw)

    @property
    def ok(self) -> bool:
        """True when the three components and overall are present."""
        return self.status == "ok"

    def components(self) -> dict[str, float | None]:
        """``{cognitive, emotional, behavioral, overall}``."""
        return {name: getattr(self, name) for name in (*COMPONENTS, "overall")}

    def to_dict(self) -> dict[str, object]:
        """A flat, JSON-ready view."""
        return asdict(self)


class Scorer(ABC):
    """Base class for scorers; subclasses implement :meth:`_score_batch`."""

    id: str
    #: A short human name for tables and charts.
    label: ClassVar[str] = "scorer"
    #: True when the scorer reads the person's message as well as the reply.
    uses_message: ClassVar[bool] = True

    def unavailable_reason(self) -> str | None:
        """Why this scorer cannot run now, with the fix; None when it can."""
        return None

    def score(self, reply: str, message: str | None = None) -> Score:
        """Score one reply (see :meth:`score_many`)."""
        return self.score_many([ScoreItem(reply, message)])[0]

    def score_many(self, items: Sequence[ScoreItem]) -> list[Score]:
        """Score many replies at once; bad items come back ``unscored``."""
        results: list[Score | None] = [None] * len(items)
        valid: list[tuple[int, ScoreItem]] = []
        for index, item in enumerate(items):
            try:
                reply = clean_text(item.reply, limit=MAX_REPLY_CHARS, what="reply")
                message = None
                if item.message and item.message.strip():
                    message = clean_text(item.message, limit=MAX_REPLY_CHARS)
                valid.append((index, ScoreItem(reply, message)))
            except InputError as exc:
                results[index] = Score.unscored(self.id, str(exc))
        reason = self.unavailable_reason()
        if reason:
            return [r or Score.unscored(self.id, reason) for r in results]
        if valid:
            scored = self._score_batch([item for _, item in valid])
            for (index, _), score in zip(valid, scored, strict=True):
                results[index] = score
        return [r for r in results if r is not None]

    @abstractmethod
    def _score_batch(self, items: list[ScoreItem]) -> list[Score]:
        """Score cleaned items; return one :class:`Score` per item, in order."""
