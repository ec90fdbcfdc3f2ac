"""Making vote rounds: from a bundled question and responders, or from prepared replies.

Pages and the CLI both call these. A bundled question always gets the
licensed therapist's answer (``human/counselchat``) as one of the replies.
Scores are computed once when the round is made and saved with it, so the
reveal after a vote is instant and the same for every voter.

>>> rounds = entries_from_rows([
...     {"message": "I feel alone", "source": "a/x", "reply": "You are not alone."},
...     {"message": "I feel alone", "source": "b/y", "reply": "Call a friend."}])
>>> [(m, [e.source for e in es]) for m, es in rounds.items()]
[('I feel alone', ['a/x', 'b/y'])]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from config import DEFAULT_MAX_TOKENS, DEFAULT_SYSTEM_PROMPT, DEFAULT_TEMPERATURE
from core.conversation import asked, parse_conversation
from core.progress import Progress, silent
from core.questions import Question, find_question, load_questions
from core.textinput import InputError
from responders.registry import THERAPIST
from studies.strategies import Strategy, load_strategy
from studies.votes.rounds import Entry, VoteRound, create_round, save_round


def question_by_id(question_id: int) -> Question:
    """The bundled question with CounselChat id ``question_id``; InputError when unknown."""
    found = next((q for q in load_questions() if q.question_id == int(question_id)), None)
    if found is None:
        ids = [q.question_id for q in load_questions()]
        raise InputError(
            f"No bundled question {question_id}: ids run from {min(ids)} to {max(ids)}."
        )
    return found


def entries_from_rows(
    rows: Iterable[Mapping[str, str]], message: str = ""
) -> dict[str, list[Entry]]:
    """Prepared replies (columns ``source``, ``reply`` and ``message`` unless given) by message."""
    grouped: dict[str, list[Entry]] = {}
    for number, row in enumerate(rows, start=2):
        text = (row.get("message") or message or "").strip()
        if not text or not (row.get("source") or "").strip():
            raise InputError(f"row {number}: needs a message, a source and a reply")
        grouped.setdefault(text, []).append(Entry(row["source"], row.get("reply") or ""))
    if not grouped:
        raise InputError("no prepared replies: the file has no rows")
    return grouped


#: How a reply written under a prompt strategy is named: ``local/qwen…#chain-of-empathy``.
STRATEGY_MARK = "#"
#: Replies a teacher pastes are named ``teacher/<label>`` (the label is hidden until the reveal).
TEACHER = "teacher/"


def teacher_entries(text: str) -> list[Entry]:
    r"""Replies a teacher pasted: blocks separated by a line of ``---``, each optionally
    starting with ``Label: …`` (shown only at the reveal).

    >>> [e.source for e in teacher_entries("Label: warm\nI hear you.\n---\nCall someone.")]
    ['teacher/warm', 'teacher/reply 2']
    """
    entries = []
    for number, block in enumerate(re.split(r"^\s*-{3,}\s*$", text or "", flags=re.M), start=1):
        lines = block.strip().splitlines()
        label = f"reply {number}"
        if lines and lines[0].lower().startswith("label:"):
            label = lines.pop(0).split(":", 1)[1].strip()[:40] or label
        reply = "\n".join(lines).strip()
        if reply:
            entries.append(Entry(TEACHER + label, reply))
    return entries


def _asks(ids: Sequence[str], strategies: Sequence[str]) -> list[tuple[str, Strategy | None]]:
    """(responder id, strategy) pairs: each strategy for responders that follow a prompt."""
    from responders.registry import get_responder

    chosen = [load_strategy(s) for s in strategies] or [None]
    asks: list[tuple[str, Strategy | None]] = []
    for rid in ids:
        follows = get_responder(rid).follows_prompt
        asks += [(rid, st) for st in chosen] if follows else [(rid, None)]
    return asks


def generate_entries(
    message: str,
    responder_ids: Sequence[str],
    *,
    strategies: Sequence[str] = (),
    progress: Progress = silent,
    **options: Any,
) -> tuple[list[Entry], list[str]]:
    """Replies from each responder under each prompt strategy (the therapist too for a
    bundled question), one after the other so a class's round needs no key.

    Returns the entries and a line per reply that could not be written. ``options``
    go to :func:`studies.comparison.stream_replies` (max_tokens, temperature, keys).
    """
    from responders.registry import get_responder
    from studies.comparison import stream_replies

    ids = list(dict.fromkeys(responder_ids))
    if find_question(message) is not None and THERAPIST not in ids:
        ids.append(THERAPIST)
    options.setdefault("max_tokens", DEFAULT_MAX_TOKENS)
    options.setdefault("temperature", DEFAULT_TEMPERATURE)
    asks = _asks(ids, strategies)
    said = asked(message)  # a conversation: each responder writes the supporter's next turn
    entries, problems = [], []
    for done, (wanted, strategy) in enumerate(asks):
        responder = get_responder(wanted)
        rid = responder.id
        name = rid + (STRATEGY_MARK + strategy.id if strategy and len(strategies) > 1 else "")
        progress(done, len(asks), f"writing reply {done + 1} of {len(asks)}")
        system = strategy.system if strategy else options.get("system", DEFAULT_SYSTEM_PROMPT)
        panels: dict = {}
        for snapshot in stream_replies(said, [responder], **{**options, "system": system}):
            panels = snapshot  # the last snapshot holds the finished reply
            written = snapshot.get(rid)
            words = len(written.text.split()) if written is not None else 0
            if words:  # each report is also where a stopped round stops, mid-reply
                progress(done, len(asks), f"writing reply {done + 1} of {len(asks)}, {words} words")
        panel = panels.get(rid)
        reply = panel.reply if panel is not None else None
        text = (strategy.extract(reply.text)[0] if strategy else reply.text) if reply else ""
        if panel is not None and panel.status == "done" and reply is not None and text.strip():
            settings = {"system": system, "max_tokens": options["max_tokens"]}
            settings.update(temperature=options["temperature"], model=reply.model)
            entries.append(Entry(name, text.strip(), settings, reply.attribution or ""))
        else:
            problems.append(f"{name}: {(panel.note if panel else '') or 'no reply'}")
    progress(len(asks), len(asks), "replies written")
    return entries, problems


def score_round(
    rnd: VoteRound,
    scorer_ids: Sequence[str],
    *,
    keys: Mapping[str, str] | None = None,
    progress: Progress = silent,
    folder: Path | None = None,
) -> VoteRound:
    """Score every reply with each scorer, save the scores with the round and return it.

    An unavailable scorer (a judge without its key) is saved as "unscored" with the reason.
    """
    from scorers.base import Score, ScoreItem
    from scorers.registry import get_scorer

    scores: dict[str, dict[str, dict[str, Any]]] = dict(rnd.scores)  # type: ignore[arg-type]
    said = parse_conversation(rnd.message)  # a round on a conversation scores in context
    items = [ScoreItem(e.text, said.message, said.history) for e in rnd.entries]
    for done, scorer_id in enumerate(scorer_ids):
        progress(done, len(scorer_ids), f"scoring with {scorer_id}")
        scorer = get_scorer(scorer_id, keys=keys)
        reason = scorer.unavailable_reason()
        if reason:
            results = [Score.unscored(scorer_id, f"unavailable: {reason}")] * len(items)
        else:
            results = scorer.score_many(items)
        scores[scorer_id] = {
            e.source: s.to_dict() for e, s in zip(rnd.entries, results, strict=True)
        }
    progress(len(scorer_ids), len(scorer_ids), "scored")
    rnd = replace(rnd, scores=scores)
    save_round(rnd, folder)
    return rnd


def make_round(
    message: str,
    responder_ids: Sequence[str],
    *,
    seed: int | None = None,
    scorer_ids: Sequence[str] = (),
    strategies: Sequence[str] = (),
    teacher_replies: str = "",
    progress: Progress = silent,
    folder: Path | None = None,
    **options: Any,
) -> tuple[VoteRound, list[str]]:
    """Generate replies, add a teacher's pasted ones, save a round and score it.

    Returns the round and any reply that could not be written.
    """
    entries, problems = generate_entries(
        message, responder_ids, strategies=strategies, progress=progress, **options
    )
    entries += teacher_entries(teacher_replies)
    if len(entries) < 2:
        raise InputError(
            "A round needs at least two replies; " + ("; ".join(problems) or "pick more responders")
        )
    question = find_question(message)
    rnd = create_round(
        message,
        entries,
        seed=seed,
        question_id=question.question_id if question else None,
        folder=folder,
    )
    if scorer_ids:
        rnd = score_round(
            rnd, scorer_ids, keys=options.get("keys"), progress=progress, folder=folder
        )
    return rnd, problems
