"""One batch row: ask the responder, keep the reply its strategy defines, price it, score it.

The row function runs on local threads or as a Ray task (:mod:`studies.batch.engine`);
it never raises for a failed call: the row records the failure instead.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence

from config import Keys
from core.conversation import Conversation, asked, parse_conversation
from core.textinput import InputError
from responders.base import Generation, Responder, ResponderError, ResponderUnavailable
from responders.registry import get_responder
from scorers.safety import check as check_safety
from studies.batch.plan import RowTask
from studies.prices import load_prices

ResponderFactory = Callable[[str], Responder]


def _conversation(task: RowTask) -> Conversation:
    """The row's question as a conversation (one turn for a plain question)."""
    return parse_conversation(task.question)


def _ask(responder: Responder, task: RowTask, keys: Keys | Mapping[str, str] | None) -> Generation:
    system = task.prompt.system if task.prompt else None
    gen = responder.generate(
        asked(task.question),
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


def _score_fields(
    reply: str, conversation: Conversation, scorer_ids: Sequence[str], keys: object
) -> dict:
    """Every scorer's status, reason and values for one reply (read in its conversation)."""
    from scorers.base import Score
    from scorers.registry import get_scorer

    out: dict[str, object] = {}
    for sid in scorer_ids:
        try:
            scorer = get_scorer(sid, keys=keys)  # type: ignore[arg-type]
            score = scorer.score(reply, conversation.message, conversation.history)
        except Exception as exc:  # one scorer's bug leaves that scorer's cells unscored
            score = Score.unscored(sid, f"internal error ({type(exc).__name__})")
        out[f"{sid}/status"] = score.status
        out[f"{sid}/reason"] = score.reason or ""
        out[f"{sid}/note"] = score.note or ""
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
        conversation = _conversation(task)
        row.update(_score_fields(str(row["reply"]), conversation, scorer_ids, keys))
        screen = check_safety(conversation.message, str(row["reply"]), conversation.history)
        screen = screen.to_row()
        row.update(reply_safe=screen["reply_safe"], safety_concerns=screen["concerns"])
    row["finished_at"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    return row
