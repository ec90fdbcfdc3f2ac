"""A judge panel: several scorers on the same replies, their mean and where they split.

For each reply and each component (and overall): every judge's value, the
panel mean, the standard deviation between judges (``statistics.stdev``,
n − 1) and the range (highest − lowest). The summary gives, per component,
each judge's mean, the panel mean, the mean spread and the share of replies
where the judges are a whole point or more apart. A reply one judge could
not score is left out of that judge's column only; the panel mean uses the
judges that scored it.

>>> from scorers.base import Score, Scorer
>>> class Fixed(Scorer):
...     def __init__(self, sid, v): self.id, self.v = sid, v
...     def _score_batch(self, items): return [Score.from_components(self.id, self.v, self.v, self.v) for _ in items]
>>> from scorers.base import ScoreItem
>>> out = run_panel([ScoreItem("I'm sorry.")], [Fixed("a", 1), Fixed("b", 3)], cache=None)
>>> out["rows"][0]["overall_mean"], out["rows"][0]["overall_range"], out["summary"]["overall"]["split_share"]
(2.0, 2.0, 1.0)
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from config import SCORE_CACHE_DIR
from core.progress import Progress, silent
from scorers.base import ScoreItem, Scorer
from scorers.rubric import load_rubric
from studies.score_cache import score_cached

#: Judges this far apart (or more) on a reply count as split.
SPLIT_AT = 1.0


def run_panel(
    items: Sequence[ScoreItem],
    scorers: Sequence[Scorer],
    *,
    cache: Path | None = SCORE_CACHE_DIR,
    progress: Progress = silent,
) -> dict[str, Any]:
    """Every scorer on every item; per-reply mean, sd and range; a per-component summary."""
    if not scorers:
        raise ValueError("a panel needs at least one judge")
    scores = {}
    for k, scorer in enumerate(scorers):

        def step(done: int, total: int, what: str, k: int = k) -> None:
            progress(k * len(items) + done, len(scorers) * len(items), what)

        scores[scorer.id] = score_cached(scorer, items, cache, step)
    names = list(load_rubric(scorers[0].rubric_id).names)
    rows = []
    for i, item in enumerate(items):
        row: dict[str, Any] = {"reply": item.reply, "message": item.message or ""}
        for name in names:
            got = {sid: s[i].value(name) for sid, s in scores.items() if s[i].ok}
            for sid in scores:
                row[f"{name}:{sid}"] = got.get(sid)
            values = list(got.values())
            row[f"{name}_mean"] = statistics.fmean(values) if values else None
            row[f"{name}_sd"] = statistics.stdev(values) if len(values) > 1 else None
            row[f"{name}_range"] = max(values) - min(values) if values else None
        rows.append(row)
    return {"judges": list(scores), "rows": rows, "summary": summarize(rows, names, list(scores))}


def summarize(
    rows: list[dict[str, Any]], names: list[str], judges: list[str]
) -> dict[str, dict[str, Any]]:
    """Per component: each judge's mean, the panel mean, mean sd, mean range, split share."""
    out = {}
    for name in names:

        def column(key: str, name: str = name) -> np.ndarray:
            return np.array([np.nan if r.get(key) is None else r[key] for r in rows], dtype=float)

        ranges = column(f"{name}_range")
        scored = ~np.isnan(ranges)
        out[name] = {
            "judge_means": {j: _mean(column(f"{name}:{j}")) for j in judges},
            "panel_mean": _mean(column(f"{name}_mean")),
            "mean_sd": _mean(column(f"{name}_sd")),
            "mean_range": _mean(ranges),
            "split_share": float(np.mean(ranges[scored] >= SPLIT_AT))
            if scored.any()
            else float("nan"),
        }
    return out


def _mean(values: np.ndarray) -> float:
    values = values[~np.isnan(values)]
    return float(np.mean(values)) if len(values) else float("nan")


def panel_values(panel: dict[str, Any], names: Sequence[str]) -> dict[str, np.ndarray]:
    """The panel mean per name as arrays (NaN where no judge scored), for an alignment report."""
    return {
        n: np.array(
            [np.nan if r.get(f"{n}_mean") is None else r[f"{n}_mean"] for r in panel["rows"]],
            dtype=float,
        )
        for n in names
    }
