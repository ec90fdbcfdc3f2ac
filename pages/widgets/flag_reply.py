"""Flagging a reply shown on the Compare page: what a flag keeps of its scores and safety
checks, and the flag button's answer (the log itself is ``core.flags``)."""

from __future__ import annotations

import gradio as gr

from core.flags import FlagLog, FlagLogError, FlagRecord
from core.visitors import owner_tag
from pages.widgets.visitor import keys_and_visitor
from scorers.safety import SAFETY_ID, SafetyResult
from scorers.safety.judge import SafetyOpinion
from studies.comparison import SECOND_OPINION
from studies.comparison_record import second_opinion_cells


def safety_entry(result: SafetyResult) -> dict[str, object]:
    """The safety screen as one entry of a flag's scores.

    >>> entry = safety_entry(SafetyResult(0, (), 0, ("dismissive",)))
    >>> entry["scorer_id"], entry["reply_safe"], entry["concerns"], entry["safety_verdict"]
    ('safety-screen', 0, 'dismissive', 'not safe')
    """
    row = result.to_row()
    return {
        "scorer_id": SAFETY_ID,
        "status": row["safety_status"],
        "reply_safe": row["reply_safe"],
        "safety_verdict": row["safety_verdict"],  # "uncertain" where the page said so
        "concerns": row["concerns"],
        "message_risk": row["message_risk"],
        "explanation": row["evidence"],  # the words each finding rests on, as the page said
        "reason": row["safety_reason"],  # why a close call is one
    }


def opinion_entry(opinion: SafetyOpinion) -> dict[str, object]:
    """The safety judge's second opinion as one entry of a flag's scores, in the comparison
    download's words (``second_opinion_safe``: 1 safe, 0 not safe, blank unavailable)."""
    row = opinion.to_row()
    return {
        "scorer_id": SECOND_OPINION,
        **second_opinion_cells(row),
        "second_opinion_reason": row["judge_reason"],
        "second_opinion_judge": opinion.judge,
    }


def flag_shown_reply(responder_id: str, state: dict, note: str, *key_values: str) -> str:
    """Append ``responder_id``'s reply on screen, its scores and safety checks to the flag log
    (``key_values``: the key boxes, then this browser's visitor id, whose flag it is).

    The same reply flagged again for the same reason (the same note) is not written twice:
    the answer says it is already in the log; with another note it is an additional flag.
    """
    replies = (state or {}).get("replies", {})
    reply = replies.get(responder_id)
    if not reply or not reply.get("text"):
        if replies:
            return (
                "This responder has no reply on screen to flag (not asked, or it could not answer)."
            )
        return "Nothing to flag yet: get the replies first."
    key_values, visitor = keys_and_visitor(key_values)
    scores = state.get("scores", {}).get(responder_id, [])
    record = FlagRecord.from_reply("compare", reply, scores, note or "", owner_tag(visitor))
    try:
        written, earlier = FlagLog().append_once(record, secrets=[v for v in key_values if v])
    except FlagLogError as exc:
        raise gr.Error(str(exc)) from None
    if written is None:
        return (
            "Already in the flag log: this reply was flagged for the same reason before, so "
            "nothing new was written. To flag it again, give another reason in the note."
        )
    if earlier:
        return (
            f"Flagged again, with another reason: an additional flag (this reply is in the "
            f"log {earlier + 1} times now). It is in the Flags tab."
        )
    return "Flagged. It is in the Flags tab."
