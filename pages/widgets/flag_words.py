"""A flagged case's cells in the Flags table's words: its scores one scorer a line (the
safety screen and the second opinion as the Compare panel says them), and the message the
reply answered on one line, cut short (a conversation's last turn).

The table itself is :mod:`pages.flags`; the download keeps every cell whole.
"""

from __future__ import annotations

import json

from pages.widgets.names import scorer_name
from pages.widgets.safety_words import MESSAGE_RISK, MET_BY_REPLY

#: What the flag's scores call the LLM safety judge's second opinion.
SECOND_OPINION_NAME = "Second opinion (LLM safety judge)"
#: Characters of the message a row shows (the download keeps the whole message).
MESSAGE_CHARS = 80


def readable_scores(cell: str) -> str:
    """The flag's scores as people read them, one scorer a line.

    >>> readable_scores('[{"scorer_id": "bert-head", "overall": 2.345, "status": "ok"}]')
    'Empathy head (MiniLM + trained head): overall 2.35'
    >>> readable_scores('[{"scorer_id": "bert-head", "status": "unscored", "reason": "empty"}]')
    'Empathy head (MiniLM + trained head): not scored (empty)'
    >>> readable_scores('[{"scorer_id": "safety", "reply_safe": 1, "message_risk": 1}]')
    'Safety screen: risk in the message; the reply meets it'
    >>> readable_scores('[{"scorer_id": "safety-second-opinion", "second_opinion_safe": 0, '
    ...                 '"second_opinion_concerns": "missed-risk"}]')
    'Second opinion (LLM safety judge): not safe (missed risk)'
    """
    try:
        scores = json.loads(cell or "[]")
    except json.JSONDecodeError:
        return cell
    lines = []
    for s in scores if isinstance(scores, list) else []:
        name = scorer_name(str(s.get("scorer_id", "")))
        if "second_opinion_safe" in s:
            lines.append(f"{SECOND_OPINION_NAME}: {_opinion_verdict(s)}")
            continue
        if "reply_safe" in s:  # the safety screen, in the Compare panel's words
            lines.append(f"Safety screen: {_screen_verdict(s)}")
            continue
        if s.get("status") == "ok" and isinstance(s.get("overall"), int | float):
            lines.append(f"{name}: overall {s['overall']:.2f}")
        else:
            lines.append(f"{name}: not scored ({s.get('reason') or 'no reason given'})")
    return "\n".join(lines)


def _screen_verdict(entry: dict) -> str:
    """The safety screen's verdict in the Compare panel's words; a close call says so (a flag
    written before ``safety_verdict`` was kept reads as its plain verdict).

    >>> _screen_verdict({"safety_verdict": "uncertain", "reply_safe": 0, "concerns": "dismissive"})
    'uncertain: read it yourself (leans not safe: dismissive)'
    >>> _screen_verdict({"reply_safe": 0, "concerns": "missed-risk;dismissive"})
    'not safe (missed risk, dismissive)'
    """
    safe = "no concern found"
    if entry["reply_safe"] == 1 and entry.get("message_risk") == 1:
        safe = f"{MESSAGE_RISK}; {MET_BY_REPLY}"
    concerns = str(entry.get("concerns") or "")
    concerns = concerns.replace("-", " ").replace(";", ", ")  # as the Compare page says them
    if entry.get("safety_verdict") == "uncertain":
        lean = "safe" if entry["reply_safe"] == 1 else f"not safe: {concerns}"
        return f"uncertain: read it yourself (leans {lean})"
    return {1: safe, 0: f"not safe ({concerns})"}.get(entry["reply_safe"], "not checked")


def _opinion_verdict(entry: dict) -> str:
    """The second opinion in the Compare panel's words (1 safe, 0 not safe, blank none)."""
    concerns = str(entry.get("second_opinion_concerns") or "").replace("-", " ").replace(";", ", ")
    if entry["second_opinion_safe"] == 1:
        return "no concern found"
    if entry["second_opinion_safe"] == 0:
        return f"not safe ({concerns or 'no concern named'})"
    return f"unavailable ({entry.get('second_opinion_reason') or 'no reason given'})"


def _last_turn(text: str) -> str:
    """A conversation's last seeker turn, marked as such (what the flagged reply answered;
    cold walk 4: the row showed the conversation's start); other text as it is."""
    from core.conversation import parse_conversation
    from core.textinput import InputError

    try:
        said = parse_conversation(text)
    except InputError:
        return text
    return f"(a conversation; its last turn) {said.message}" if said.history else text


def short_message(text: str, limit: int = MESSAGE_CHARS) -> str:
    r"""The message a flagged reply answered, on one line, cut to ``limit`` characters with
    "…" (at a word's end where one is near).

    >>> short_message("I can't sleep.\nEver.")
    "I can't sleep. Ever."
    >>> short_message("one two three four", limit=12)
    'one two…'
    >>> len(short_message("x" * 200))
    80
    >>> short_message("Seeker: I lost my job.\nSupporter: I'm sorry.\nSeeker: I can't sleep.")
    "(a conversation; its last turn) I can't sleep."
    """
    flat = " ".join(_last_turn(text or "").split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:.") + "…"
