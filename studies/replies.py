"""Replies from several responders to several messages, with the caller's keys and progress.

Shared by the pairwise study's page and command: failures are returned as
plain notes (never printed to the server's log), so each caller shows them
where its user looks.

>>> got = collect_replies(["I feel alone."], ["human/counselchat"], 50, lambda *a: None)
>>> got.replies, got.failures[0].startswith("Licensed therapist (CounselChat) failed on question 1")
([{}], True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from config import DEFAULT_SYSTEM_PROMPT
from core.progress import Progress


@dataclass
class CollectedReplies:
    """Per message, each responder's reply text; and a note per reply that failed."""

    replies: list[dict[str, str]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def collect_replies(
    messages: Sequence[str],
    responder_ids: Sequence[str],
    max_tokens: int,
    progress: Progress,
    keys: Mapping[str, str] | None = None,
) -> CollectedReplies:
    """Each responder's reply (temperature 0) to each message; failures noted, not raised.

    ``keys`` are a session's typed keys, laid over the server's for these calls only.
    An unknown responder id raises KeyError (a caller's mistake, not a failure).
    """
    from responders.base import ResponderError, ResponderUnavailable
    from responders.registry import get_responder

    responders = [get_responder(r) for r in responder_ids]
    out = CollectedReplies()
    total = len(messages) * len(responders)
    for i, message in enumerate(messages):
        replies: dict[str, str] = {}
        for j, responder in enumerate(responders):
            progress(i * len(responders) + j, total, f"{responder.display_name} replying")
            try:
                generation = responder.generate(
                    message,
                    system=DEFAULT_SYSTEM_PROMPT,
                    max_tokens=max_tokens,
                    temperature=0.0,
                    keys=keys,
                )
                text = "".join(generation).strip()
            except (ResponderError, ResponderUnavailable) as exc:
                out.failures.append(f"{responder.display_name} failed on question {i + 1}: {exc}")
                continue
            if text:
                replies[responder.id] = text
        out.replies.append(replies)
    progress(total, total, "replies ready")
    return out
