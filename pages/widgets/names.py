"""Readable names for responder and scorer ids, and dropdown choices that show them.

A page shows people names and keeps ids as the values it passes on:

>>> responder_name("human/counselchat")
'Licensed therapist (CounselChat)'
>>> scorer_choices(["bert-head"])
[('Empathy head (MiniLM + trained head)', 'bert-head')]
"""

from __future__ import annotations

from collections.abc import Iterable

from responders.registry import get_responder
from scorers.registry import scorer_label


def responder_name(responder_id: str) -> str:
    """``local/qwen2.5-coder-1.5b`` → its display name (the id itself when unknown)."""
    try:
        return get_responder(responder_id).display_name
    except KeyError:
        return responder_id


def scorer_name(scorer_id: str) -> str:
    """``bert-head`` → 'Empathy head (MiniLM + trained head)' (the id when unknown)."""
    try:
        return scorer_label(scorer_id)
    except KeyError:
        return scorer_id


def responder_choices(ids: Iterable[str]) -> list[tuple[str, str]]:
    """(name, id) pairs for a dropdown or checkbox group of responders."""
    return [(responder_name(i), i) for i in ids]


def scorer_choices(ids: Iterable[str]) -> list[tuple[str, str]]:
    """(name, id) pairs for a dropdown or checkbox group of scorers."""
    return [(scorer_name(i), i) for i in ids]
