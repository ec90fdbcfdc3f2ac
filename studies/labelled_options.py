"""The two options that describe a CSV of one's own ratings, read from text: its rating
scale (``--scale 1:5``) and which column holds which rating (``--human overall=rating``).

The Trust page and ``cli.py align`` read them alike; :mod:`studies.labelled` offers them
under its own name too.
"""

from __future__ import annotations


def parse_scale(text: str) -> tuple[int, int]:
    """``"1:5"`` → (1, 5); ValueError with a clear message otherwise.

    >>> parse_scale("0:4")
    (0, 4)
    """
    low, sep, high = text.partition(":")
    try:
        pair = (int(low), int(high))
    except ValueError:
        pair = None
    if not sep or pair is None or pair[1] <= pair[0]:
        raise ValueError(f"--scale {text!r}: give two whole numbers, bottom:top, e.g. 1:5")
    return pair


def parse_mapping(items: list[str]) -> dict[str, str]:
    """``["overall=rating"]`` → {"overall": "rating"}.

    >>> parse_mapping(["overall=r", "cognitive=c"])
    {'overall': 'r', 'cognitive': 'c'}
    """
    mapping = {}
    for item in items:
        name, sep, column = item.partition("=")
        if not sep or not name.strip() or not column.strip():
            raise ValueError(f"--human {item!r}: write NAME=COLUMN, e.g. overall=rating")
        mapping[name.strip()] = column.strip()
    return mapping
