"""Smaller labelled sets cut from one: a random sample, or the rows a scorer never saw.

Every per-row field of a :class:`~studies.labelled.LabelledSet` is cut alike; a set a
scorer has seen whole is refused (:data:`ALL_SEEN`), since agreement on it would measure
memory. :mod:`studies.labelled` offers these under its own name too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from scorers.base import Scorer
    from studies.labelled import LabelledSet


def subset(data: LabelledSet, sample: int, seed: int = 0) -> LabelledSet:
    """``sample`` rows of ``data`` drawn at random (seeded), in the drawn order.

    >>> from studies.labelled import from_rows
    >>> s = from_rows([{"reply": str(i), "r": "2"} for i in range(10)], {"overall": "r"}, scale=(1, 3))
    >>> len(subset(s, 4, seed=1))
    4
    """
    if sample >= len(data):
        return data
    pick = np.random.default_rng(seed).permutation(len(data))[:sample]
    return _rows(data, list(pick), f"{data.note}; {sample} drawn at random (seed {seed})")


def _rows(data: LabelledSet, rows: list[int], note: str) -> LabelledSet:
    """``data`` cut to ``rows`` (in that order), every per-row field alike."""
    return replace(
        data,
        items=[data.items[i] for i in rows],
        human={k: v[rows] for k, v in data.human.items()},
        extra={k: [v[i] for i in rows] for k, v in data.extra.items()},
        note=note,
    )


#: Why an agreement study refuses a set that the scorer has entirely seen.
ALL_SEEN = (
    "every one of these labelled replies was used to train or prompt {scorer}: its agreement "
    "on them would show memory, not judgement. Pick another set (welivita, epitome, your own "
    "CSV); for the BERT head's held-out agreement on the rubric labels run "
    "python cli.py align --bundled rubric-labels --scorer bert-head --cross-validated"
)


def without_ids(data: LabelledSet, ids: frozenset[str] | set[str]) -> LabelledSet:
    """``data`` without the rows whose ``id`` is in ``ids`` (rows a scorer has seen).

    >>> from studies.labelled import from_rows
    >>> s = from_rows([{"reply": "a", "r": "2"}, {"reply": "b", "r": "1"}],
    ...               {"overall": "r"}, scale=(1, 3))
    >>> s = replace(s, extra={"id": ["x", "y"]})
    >>> len(without_ids(s, {"x"})), len(without_ids(s, set()))
    (1, 2)
    """
    row_ids = data.extra.get("id")
    if not ids or not row_ids:
        return data
    keep = [i for i, row_id in enumerate(row_ids) if row_id not in ids]
    if len(keep) == len(data):
        return data
    return _rows(
        data, keep, f"{data.note}; {len(data) - len(keep)} rows the scorer was shown left out"
    )


def unseen_by(data: LabelledSet, scorers: Sequence[Scorer]) -> LabelledSet:
    """``data`` without the rows any of ``scorers`` was trained on or shown.

    Raises ValueError (:data:`ALL_SEEN`) when nothing is left: agreement on
    those rows would measure memory.
    """
    seen = frozenset().union(*(s.seen_ids() for s in scorers))
    left = without_ids(data, seen)
    if not len(left):
        raise ValueError(ALL_SEEN.format(scorer=", ".join(s.id for s in scorers)))
    return left
