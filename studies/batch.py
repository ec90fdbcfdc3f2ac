"""Batch experiments: N questions × M responders × prompt strategies × scorers, resumable.

:func:`run_batch` plans every row (see :mod:`studies.batch_plan`), skips the
rows its run folder already holds as ``ok`` (never asked again: never paid
twice), retries failed ones, and runs the rest with a per-provider
concurrency limit on local threads or on a Ray cluster
(:mod:`studies.batch_engine`). Each row is made by :func:`run_row`: ask the
responder, keep the reply the strategy defines, price it, score it with every
scorer. Rows go to the run's append-only ``results.csv`` in plan order.

>>> from studies.batch_plan import BatchQuestion, BatchSettings
>>> import tempfile
>>> from core.questions import load_questions
>>> q = load_questions()[0]
>>> settings = BatchSettings(("human/counselchat",), ("study",), ())
>>> folder = tempfile.mkdtemp()
>>> outcome = run_batch(folder, [BatchQuestion("1", q.question)], settings)
>>> outcome.done, outcome.failed, run_batch(folder, [BatchQuestion("1", q.question)], settings).skipped
(1, 0, 1)
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from config import Keys
from core.progress import Progress, silent
from core.textinput import InputError
from responders.base import Generation, Responder, ResponderError, ResponderUnavailable
from responders.registry import get_responder
from studies.batch_plan import (
    BatchQuestion,
    BatchSettings,
    RowTask,
    plan_rows,
    row_key,
    with_as_written,
)
from studies.batch_store import RunFolder
from studies.prices import load_prices

ResponderFactory = Callable[[str], Responder]


@dataclass(frozen=True)
class BatchOutcome:
    """How a run went: rows made now, failed now, skipped (already ok) and not run (stopped)."""

    folder: Path
    total: int
    done: int
    failed: int
    skipped: int
    not_run: int

    @property
    def complete(self) -> bool:
        """True when every planned row is stored as ok."""
        return self.failed == 0 and self.not_run == 0


def _ask(responder: Responder, task: RowTask, keys: Keys | Mapping[str, str] | None) -> Generation:
    system = task.prompt.system if task.prompt else None
    gen = responder.generate(
        task.question,
        system=system,
        max_tokens=task.max_tokens,
        temperature=task.temperature,
        keys=keys,
    )
    for _ in gen:
        pass
    return gen


def _reply_fields(task: RowTask, responder: Responder, keys: object) -> dict[str, object]:
    """The reply part of a row: status, text, usage and cost (or the error)."""
    try:
        reply = _ask(responder, task, keys).reply  # type: ignore[arg-type]
    except (ResponderUnavailable, InputError, ValueError) as exc:
        return {"status": "unavailable", "error": str(exc)}
    except ResponderError as exc:
        return {"status": "error", "error": str(exc)}
    except Exception as exc:  # an adapter bug must cost one row, not the run
        return {"status": "error", "error": f"internal error ({type(exc).__name__})"}
    text, note = task.prompt.extract(reply.text) if task.prompt else (reply.text, "")
    if not text.strip():
        return {"status": "error", "error": "no reply left after the strategy's reasoning"}
    cost = load_prices().cost(task.responder, reply.prompt_tokens, reply.completion_tokens)
    return {
        "status": "ok",
        "reply": text,
        "note": note,
        "raw_reply": reply.text if text != reply.text.strip() else "",
        "latency_s": None if reply.latency_s is None else round(reply.latency_s, 3),
        "attempts": reply.attempts,
        "prompt_tokens": reply.prompt_tokens,
        "completion_tokens": reply.completion_tokens,
        "cost_usd": None if cost is None else f"{cost:.8f}",
    }


def _score_fields(reply: str, question: str, scorer_ids: Sequence[str], keys: object) -> dict:
    """Every scorer's status, reason and values for one reply."""
    from scorers.base import Score
    from scorers.registry import get_scorer

    out: dict[str, object] = {}
    for sid in scorer_ids:
        try:
            score = get_scorer(sid, keys=keys).score(reply, question)  # type: ignore[arg-type]
        except Exception as exc:  # one scorer's bug leaves that scorer's cells unscored
            score = Score.unscored(sid, f"internal error ({type(exc).__name__})")
        out[f"{sid}/status"] = score.status
        out[f"{sid}/reason"] = score.reason or ""
        for name, value in score.components().items():
            out[f"{sid}/{name}"] = "" if value is None else round(value, 4)
    return out


def task_row(task: RowTask) -> dict[str, object]:
    """The row's identity and settings (what every stored row starts with)."""
    return {
        "question_id": task.question_id,
        "question": task.question,
        "responder": task.responder,
        "strategy": task.strategy,
        "sample": task.sample,
        "settings_hash": task.settings_hash,
        "max_tokens": task.max_tokens,
        "temperature": task.temperature,
        "finished_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }


def run_row(
    task: RowTask,
    scorer_ids: Sequence[str],
    keys: Keys | Mapping[str, str] | None = None,
    make_responder: ResponderFactory = get_responder,
) -> dict[str, object]:
    """Make one row: ask, extract, price and score. Never raises for a failed call."""
    row = task_row(task)
    try:
        responder = make_responder(task.responder)
    except KeyError as exc:
        row.update(status="unavailable", error=str(exc.args[0]))
    else:
        row.update(_reply_fields(task, responder, keys))
    if row["status"] == "ok":
        row.update(_score_fields(str(row["reply"]), task.question, scorer_ids, keys))
    row["finished_at"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    return row


def check_ready(
    responders: Sequence[str], scorers: Sequence[str], keys: Mapping[str, str] | None = None
) -> str | None:
    """Why a batch cannot start (an unavailable responder or scorer, with the fix), or None.

    Raises KeyError for an unknown id.
    """
    from config import SETTINGS
    from scorers.registry import get_scorer

    merged = SETTINGS.keys.merged(keys)
    for rid in responders:
        reason = get_responder(rid).unavailable_reason(merged)
        if reason:
            return f"{rid} is unavailable: {reason}"
    for sid in scorers:
        reason = get_scorer(sid, keys=merged).unavailable_reason()
        if reason:
            return f"{sid} is unavailable: {reason}"
    return None


def run_batch(
    folder: str | Path,
    questions: list[BatchQuestion],
    settings: BatchSettings,
    *,
    engine: str = "local",
    address: str | None = None,
    concurrency: int = 4,
    keys: Keys | Mapping[str, str] | None = None,
    stop: threading.Event | None = None,
    progress: Progress = silent,
    make_responder: ResponderFactory = get_responder,
) -> BatchOutcome:
    """Run (or continue) the batch in ``folder``; see the module docstring.

    Raises :class:`studies.batch_store.RunMismatch` when the folder was made
    for other scorers, :class:`studies.batch_store.RunBusy` while another run of
    the same folder is going or still finishing after a stop, KeyError for an
    unknown strategy or responder.
    """
    from studies.batch_engine import Scheduler, make_engine

    if not questions:
        raise ValueError("the batch has no questions")
    settings = with_as_written(settings, make_responder)
    tasks = plan_rows(questions, settings)
    run = RunFolder(folder)
    with run.exclusive():  # raises RunBusy while another run of this folder is still writing
        log = run.open(questions, settings, engine)
        finished = {k for k, row in run.latest_rows().items() if row["status"] == "ok"}
        todo = [t for t in tasks if row_key(t.__dict__) not in finished]
        scheduler = Scheduler(
            make_engine(engine, address=address, concurrency=concurrency),
            log,
            concurrency=concurrency,
            stop=stop or threading.Event(),
            progress=progress,
            secrets=Keys(dict(keys or {})).secrets(),
        )
        counts = scheduler.run(todo, len(tasks), (list(settings.scorers), keys, make_responder))
    return BatchOutcome(
        Path(folder),
        len(tasks),
        counts["done"],
        counts["failed"],
        len(tasks) - len(todo),
        counts["not_run"],
    )
