"""One colour per responder and per scorer, the same on every chart of the app.

Offered responders and scorers get fixed colours in the order the app lists
them; any other id gets a stable colour from its hash.

>>> color_for("local/qwen2.5-coder-1.5b") == color_for("local/qwen2.5-coder-1.5b")
True
>>> color_for("local/qwen2.5-coder-1.5b") != color_for("human/counselchat")
True
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

#: Colour-blind-friendly (Okabe–Ito, then Tableau) colours.
PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#D55E00",
    "#56B4E9",
    "#8C564B",
    "#7F7F7F",
    "#BCBD22",
    "#17BECF",
)


@lru_cache(maxsize=1)
def _fixed() -> dict[str, str]:
    from responders.registry import default_responder_ids
    from scorers.registry import offered_scorer_ids

    responders = default_responder_ids()
    scorers = [s for s in offered_scorer_ids() if s not in responders]
    table = {rid: PALETTE[i % len(PALETTE)] for i, rid in enumerate(responders)}
    for i, sid in enumerate([*scorers, "bert-head+normalize", "bert-head-raw"]):
        table.setdefault(sid, PALETTE[(i + 4) % len(PALETTE)])
    return table


def color_for(item_id: str) -> str:
    """The colour of a responder or scorer id on every chart."""
    fixed = _fixed().get(item_id)
    if fixed:
        return fixed
    digest = int(hashlib.sha256(item_id.encode()).hexdigest(), 16)
    return PALETTE[digest % len(PALETTE)]


def fill(color: str, alpha: float = 0.18) -> str:
    """``color`` (``#rrggbb``) as a translucent ``rgba`` fill.

    >>> fill("#0072B2", 0.5)
    'rgba(0,114,178,0.5)'
    """
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def arm_colors(arms: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """A colour per (responder, prompt) arm: a responder's first arm keeps the responder's
    colour (as on Compare), each further arm of it the next palette colour no other arm has.

    >>> c = arm_colors([("human/counselchat", "a"), ("local/qwen2.5-coder-1.5b", "a"),
    ...                 ("local/qwen2.5-coder-1.5b", "b")])
    >>> c[("local/qwen2.5-coder-1.5b", "a")] == color_for("local/qwen2.5-coder-1.5b")
    True
    >>> len(set(c.values()))
    3
    """
    out: dict[tuple[str, str], str] = {}
    seen: set[str] = set()
    for responder, strategy in arms:
        if responder not in seen:
            out[(responder, strategy)] = color_for(responder)
            seen.add(responder)
    for arm in arms:
        if arm not in out:
            free = [c for c in PALETTE if c not in out.values()] or list(PALETTE)
            out[arm] = free[0]
    return out


#: Line styles for the traces of one chart, in turn: shapes that lie on each other (two
#: judges giving the same scores) still show as two outlines.
DASHES = ("solid", "dash", "dot", "dashdot", "longdash")
#: Marker shapes, in turn, for the same reason.
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x")
