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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from config import DEFAULT_MAX_TOKENS, DEFAULT_SYSTEM_PROMPT, DEFAULT_TEMPERATURE
from core.progress import Progress, silent
from core.questions import Question, find_question, load_questions
from core.textinput import InputError
from studies.votes import Entry, VoteRound, create_round, save_round

THERAPIST = "human/counselchat"


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


def generate_entries(
    message: str,
    responder_ids: Sequence[str],
    *,
    progress: Progress = silent,
    **options: Any,
) -> tuple[list[Entry], list[str]]:
    """Replies from each responder (the therapist too for a bundled question).

    Returns the entries and a line per responder that gave no reply. ``options``
    go to :func:`studies.comparison.stream_replies` (system, max_tokens, temperature, keys).
    """
    from responders.registry import get_responder
    from studies.comparison import stream_replies

    ids = list(dict.fromkeys(responder_ids))
    if find_question(message) is not None and THERAPIST not in ids:
        ids.append(THERAPIST)
    options.setdefault("system", DEFAULT_SYSTEM_PROMPT)
    options.setdefault("max_tokens", DEFAULT_MAX_TOKENS)
    options.setdefault("temperature", DEFAULT_TEMPERATURE)
    panels: dict = {}
    reported = -1
    for panels in stream_replies(message, [get_responder(i) for i in ids], **options):
        done = sum(p.status not in ("waiting", "streaming") for p in panels.values())
        if done != reported:
            progress(done, len(ids), "writing replies")
            reported = done
    entries, problems = [], []
    for rid, panel in panels.items():
        if panel.status == "done" and panel.reply is not None and panel.reply.text.strip():
            settings = {k: options[k] for k in ("system", "max_tokens", "temperature")}
            settings["model"] = panel.reply.model
            entries.append(Entry(rid, panel.reply.text, settings, panel.reply.attribution or ""))
        else:
            problems.append(f"{rid}: {panel.note or 'no reply'}")
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
    items = [ScoreItem(e.text, rnd.message) for e in rnd.entries]
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
    progress: Progress = silent,
    folder: Path | None = None,
    **options: Any,
) -> tuple[VoteRound, list[str]]:
    """Generate replies, save a round and score it; returns it and any responder problems."""
    entries, problems = generate_entries(message, responder_ids, progress=progress, **options)
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
