"""The scorer base class and the score record.

A scorer rates texts on a rubric (data in ``assets/rubrics/``); the default
is the counselling rubric of ``../shared/rubric.md``: Cognitive, Emotional
and Behavioral, 1–3 each, overall = their mean. Subclasses
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
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, ClassVar

from core.conversation import Turn, transcript
from core.textinput import InputError, clean_text
from scorers.rubric import DEFAULT_RUBRIC, Rubric, load_rubric

#: The counselling rubric's components (see ``assets/rubrics/counselling.json``).
COMPONENTS: tuple[str, ...] = load_rubric(DEFAULT_RUBRIC).components
#: Replies may be longer than messages: a long therapist answer still scores.
MAX_REPLY_CHARS = 20_000


@dataclass(frozen=True)
class ScoreItem:
    """What a scorer rates: a reply, the message it answers when known, and the turns of
    the conversation before that message (empty for a single message).

    >>> ScoreItem("I hear you.", "I'm tired.", (Turn("seeker", "I lost my job."),)).context()
    'Seeker: I lost my job.'
    """

    reply: str
    message: str | None = None
    history: tuple[Turn, ...] = ()

    def context(self) -> str:
        """The earlier turns as ``Seeker: …`` / ``Supporter: …`` lines ('' when none)."""
        return transcript(self.history)


@dataclass(frozen=True)
class Score:
    """One scorer's verdict on one text, on one rubric.

    ``values`` maps each of the rubric's components (and ``overall``) to a
    number; the counselling rubric's names stay readable as attributes
    (``score.cognitive``), and :meth:`to_dict` flattens them for CSVs.

    >>> s = Score.from_values("j", {"cognitive": 3, "emotional": 2, "behavioral": 1})
    >>> s.overall, s.cognitive, s.rubric.high
    (2.0, 3.0, 3)
    """

    scorer_id: str
    values: Mapping[str, float] | None = None
    rubric_id: str = DEFAULT_RUBRIC
    status: str = "ok"  # ok | unscored
    reason: str | None = None
    spread: float | None = None  # std of overall over k samples, when k > 1
    rationale: str | None = None
    raw: str | None = None
    #: The judge prompt's version (None for scorers without a prompt).
    prompt_version: str | None = None
    #: Anything else worth showing beside the numbers (e.g. "injection attempt removed").
    note: str | None = None

    @classmethod
    def from_values(
        cls,
        scorer_id: str,
        values: Mapping[str, float],
        rubric_id: str = DEFAULT_RUBRIC,
        **extra: Any,
    ) -> Score:
        """A scored result; every component is checked against the rubric's scale."""
        rubric = load_rubric(rubric_id)
        checked = {c: rubric.check(c, values[c]) for c in rubric.components}
        checked["overall"] = rubric.overall_of(checked)
        return cls(scorer_id, checked, rubric_id, **extra)

    @classmethod
    def from_components(
        cls, scorer_id: str, cognitive: float, emotional: float, behavioral: float, **extra: Any
    ) -> Score:
        """A counselling-rubric result with overall = mean of the three components."""
        values = {"cognitive": cognitive, "emotional": emotional, "behavioral": behavioral}
        return cls.from_values(scorer_id, values, DEFAULT_RUBRIC, **extra)

    @classmethod
    def unscored(
        cls, scorer_id: str, reason: str, raw: str | None = None, rubric_id: str = DEFAULT_RUBRIC
    ) -> Score:
        """A result with no numbers and the reason why."""
        return cls(scorer_id, None, rubric_id, status="unscored", reason=reason, raw=raw)

    @property
    def ok(self) -> bool:
        """True when every value is present."""
        return self.status == "ok"

    @property
    def rubric(self) -> Rubric:
        """The rubric these values are on."""
        return load_rubric(self.rubric_id)

    def value(self, name: str) -> float | None:
        """One component (or overall); None when unscored."""
        return None if self.values is None else self.values.get(name)

    @property
    def cognitive(self) -> float | None:
        return self.value("cognitive")

    @property
    def emotional(self) -> float | None:
        return self.value("emotional")

    @property
    def behavioral(self) -> float | None:
        return self.value("behavioral")

    @property
    def overall(self) -> float | None:
        return self.value("overall")

    def components(self) -> dict[str, float | None]:
        """Every component and overall, in the rubric's order (None when unscored)."""
        return {name: self.value(name) for name in self.rubric.names}

    def with_id(self, scorer_id: str) -> Score:
        """The same verdict under another scorer id (for wrappers)."""
        return replace(self, scorer_id=scorer_id)

    def to_dict(self) -> dict[str, object]:
        """A flat, JSON-ready view: the values inlined beside the metadata."""
        data = asdict(self)
        data.pop("values")
        return {**data, **self.components()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Score:
        """Undo :meth:`to_dict`."""
        rubric = load_rubric(str(data.get("rubric_id") or DEFAULT_RUBRIC))
        values = None
        if data.get("status", "ok") == "ok":
            values = {n: float(data[n]) for n in rubric.names if data.get(n) is not None}
        fields = {f for f in cls.__dataclass_fields__ if f != "values"}
        return cls(values=values, **{k: v for k, v in data.items() if k in fields})


class Scorer(ABC):
    """Base class for scorers; subclasses implement :meth:`_score_batch`."""

    id: str
    #: A readable name for tables and charts (the id stays one hover away).
    label: str = "scorer"
    #: The rubric this scorer's values are on.
    rubric_id: ClassVar[str] = DEFAULT_RUBRIC

    def unavailable_reason(self) -> str | None:
        """Why this scorer cannot run now, with the fix; None when it can."""
        return None

    def seen_ids(self) -> frozenset[str]:
        """Ids of bundled labelled rows this scorer has seen (e.g. prompt anchors).

        Agreement studies leave them out: a scorer is not measured on what it was shown.
        """
        inner = getattr(self, "inner", None)
        return inner.seen_ids() if isinstance(inner, Scorer) else frozenset()

    @property
    def setting(self) -> str:
        """What, beside its id, decides this scorer's answers: caches, calibrations and
        reports key on it. A wrapper's setting holds its inner scorer's.

        >>> class S(Scorer):
        ...     id = "s"
        ...     def _score_batch(self, items): return []
        >>> S().setting
        's'
        """
        inner = getattr(self, "inner", None)
        if isinstance(inner, Scorer):
            return f"{self.id}<{inner.setting}>"
        return "|".join([self.id, *self.setting_parts()])

    def setting_parts(self) -> list[str]:
        """The parts of :attr:`setting` after the id, declared by each scorer that has any
        (a judge's prompt version and options, a trained head's data and recipe)."""
        return []

    @property
    def turns_setting(self) -> str:
        """What else decides its answers for a reply after earlier turns (a trained head's
        conversation model); only those items' cache keys hold it, so a retrained
        conversation model never meets its predecessor's scores. A wrapper's is its inner's.
        """
        inner = getattr(self, "inner", None)
        return inner.turns_setting if isinstance(inner, Scorer) else ""

    def score(
        self, reply: str, message: str | None = None, history: tuple[Turn, ...] = ()
    ) -> Score:
        """Score one reply (see :meth:`score_many`)."""
        return self.score_many([ScoreItem(reply, message, history)])[0]

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
                valid.append((index, replace(item, reply=reply, message=message)))
            except InputError as exc:
                results[index] = Score.unscored(self.id, str(exc), rubric_id=self.rubric_id)
        reason = self.unavailable_reason()
        if reason:
            return [r or Score.unscored(self.id, reason, rubric_id=self.rubric_id) for r in results]
        if valid:
            scored = self._score_batch([item for _, item in valid])
            for (index, _), score in zip(valid, scored, strict=True):
                results[index] = score
        return [r for r in results if r is not None]

    @abstractmethod
    def _score_batch(self, items: list[ScoreItem]) -> list[Score]:
        """Score cleaned items; return one :class:`Score` per item, in order."""
