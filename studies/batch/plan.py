"""What a batch asks: the questions, the settings and one planned row per combination.

A row is one (question, responder, strategy, sample). Its ``settings_hash``
covers everything that changes the answer (the question's text, the
responder, the strategy's prompt, max tokens, temperature), so a run folder
re-run with a changed setting plans new rows instead of mixing old answers
in. Responders that do not follow prompts (the therapists' answers) get one
row per sample under the strategy ``as-written``.

>>> qs = [BatchQuestion("1", "I feel alone.")]
>>> both = BatchSettings(("human/counselchat", "openai/gpt-4o"), ("study",), ())
>>> rows = plan_rows(qs, with_as_written(both))
>>> [(r.responder, r.strategy) for r in rows]
[('human/counselchat', 'as-written'), ('openai/gpt-4o', 'study')]
>>> rows[1].settings_hash == plan_rows(qs, BatchSettings(("openai/gpt-4o",), ("study",), ()))[0].settings_hash
True
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from config import DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE
from core.textinput import InputError, clean_text
from responders.base import Responder
from responders.registry import get_responder
from studies.strategies import Strategy, load_strategy

#: The strategy recorded for responders that ignore prompts.
AS_WRITTEN = "as-written"
#: The most questions one batch takes.
MAX_QUESTIONS = 5000


@dataclass(frozen=True)
class BatchQuestion:
    """One question of a batch: an id (kept from the source) and its text."""

    question_id: str
    text: str


@dataclass(frozen=True)
class BatchSettings:
    """What every row of a batch is asked with (stored in ``run.json``)."""

    responders: tuple[str, ...]
    strategies: tuple[str, ...]
    scorers: tuple[str, ...]
    samples: int = 1
    max_tokens: int = DEFAULT_MAX_TOKENS
    temperature: float = DEFAULT_TEMPERATURE
    #: Responders that ignore prompts (one ``as-written`` row per sample, no strategies).
    as_written: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready view."""
        return asdict(self)


@dataclass(frozen=True)
class RowTask:
    """One planned row: what to ask whom, with which settings."""

    index: int
    question_id: str
    question: str
    responder: str
    strategy: str
    sample: int
    settings_hash: str
    max_tokens: int
    temperature: float
    prompt: Strategy | None = field(default=None, compare=False)

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        """The row's identity in the results store."""
        return row_key(self.__dict__)

    @property
    def provider(self) -> str:
        """The responder's provider (its concurrency limit is per provider)."""
        return self.responder.partition("/")[0]


def row_key(row: dict[str, object]) -> tuple[str, str, str, str, str]:
    """``(question_id, responder, strategy, sample, settings_hash)`` of a task or a stored row."""
    names = ("question_id", "responder", "strategy", "sample", "settings_hash")
    return tuple(str(row[n]) for n in names)  # type: ignore[return-value]


def settings_hash(question: str, responder: str, prompt: Strategy | None, s: BatchSettings) -> str:
    """A short hash of everything that changes one row's answer."""
    parts = [question, responder, prompt.fingerprint if prompt else AS_WRITTEN]
    parts += [s.max_tokens, round(float(s.temperature), 4)]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:12]


def plan_rows(questions: list[BatchQuestion], settings: BatchSettings) -> list[RowTask]:
    """Every row of the batch, question by question, in a fixed order."""
    strategies = [load_strategy(s) for s in settings.strategies]
    rows: list[RowTask] = []
    for q in questions:
        for rid in settings.responders:
            for prompt in [None] if rid in settings.as_written else strategies:
                digest = settings_hash(q.text, rid, prompt, settings)
                for sample in range(settings.samples):
                    rows.append(
                        RowTask(
                            len(rows),
                            q.question_id,
                            q.text,
                            rid,
                            prompt.id if prompt else AS_WRITTEN,
                            sample,
                            digest,
                            settings.max_tokens,
                            settings.temperature,
                            prompt,
                        )
                    )
    return rows


def with_as_written(
    settings: BatchSettings, make_responder: Callable[[str], Responder] = get_responder
) -> BatchSettings:
    """``settings`` with :attr:`BatchSettings.as_written` filled from the responders."""
    ignoring = []
    for rid in settings.responders:
        try:
            if not make_responder(rid).follows_prompt:
                ignoring.append(rid)
        except KeyError:  # an unknown responder: its rows will say so
            pass
    return replace(settings, as_written=tuple(ignoring))


def bundled_questions(n: int, seed: int = 0) -> list[BatchQuestion]:
    """``n`` bundled CounselChat questions drawn with ``seed`` (all of them when n is larger).

    >>> [q.question_id for q in bundled_questions(3, seed=0)] == [
    ...     q.question_id for q in bundled_questions(3, seed=0)]
    True
    """
    from core.questions import load_questions

    bank = list(load_questions())
    if n < 1:
        raise ValueError("--n must be at least 1")
    picked = random.Random(seed).sample(bank, min(n, len(bank)))
    return [BatchQuestion(str(q.question_id), q.question) for q in picked]


def _row_text(row: dict[str, str], column: str | None, line: int) -> str:
    """A row's question, or its conversation as ``Seeker:`` / ``Supporter:`` lines."""
    from core.conversation import parse_conversation

    turns = (row.get("conversation") or "").strip()
    if turns:
        try:
            return parse_conversation(turns).transcript()
        except InputError as exc:
            raise InputError(f"line {line}: {exc}") from None
    return clean_text(row.get(column or "") or "", what=f"question on line {line}")


def questions_from_csv(path: str | Path, max_bytes: int | None = None) -> list[BatchQuestion]:
    """Questions from a CSV with a ``question`` (or ``message``) column, ids optional; a
    ``conversation`` column (turns ending on the seeker) is asked as a conversation.

    A file over ``max_bytes`` or with more than :data:`MAX_QUESTIONS` rows is
    refused before it is held in memory. Raises ValueError naming the file (its
    base name: an upload's folder is the server's), the line and the fix.
    """
    from core.tables import read_csv

    name = Path(path).name
    rows = read_csv(path, max_rows=MAX_QUESTIONS, max_bytes=max_bytes)
    if not rows:
        raise ValueError(f"{name} has no rows")
    column = next((c for c in ("question", "message") if c in rows[0]), None)
    if column is None and "conversation" not in rows[0]:
        raise ValueError(
            f"{name} needs a 'question' or 'conversation' column (columns: {', '.join(rows[0])})"
        )
    out, seen = [], set()
    for line, row in enumerate(rows, start=2):
        qid = (row.get("question_id") or "").strip() or str(line - 1)
        try:
            text = _row_text(row, column, line)
        except InputError as exc:
            raise ValueError(f"{name}: {exc}") from None
        if qid in seen:
            raise ValueError(f"{name}, line {line}: question_id {qid!r} is used twice")
        seen.add(qid)
        out.append(BatchQuestion(qid, text))
    return out
