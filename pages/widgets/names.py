"""Readable names for responder and scorer ids, and dropdown choices that show them.

A page shows people names and keeps ids as the values it passes on:

>>> responder_name("human/counselchat")
'Licensed therapist (CounselChat)'
>>> scorer_choices(["bert-head"])
[('Empathy head (MiniLM + trained head)', 'bert-head')]
"""

from __future__ import annotations

from collections.abc import Iterable

from reports.batch_charts import responder_name, scorer_name


def responder_choices(ids: Iterable[str]) -> list[tuple[str, str]]:
    """(name, id) pairs for a dropdown or checkbox group of responders."""
    return [(responder_name(i), i) for i in ids]


def scorer_choices(ids: Iterable[str]) -> list[tuple[str, str]]:
    """(name, id) pairs for a dropdown or checkbox group of scorers."""
    return [(scorer_name(i), i) for i in ids]
