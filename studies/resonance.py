"""Resonance: empathic similarity of story pairs, finding resonant stories, metrics on labels.

:func:`rate_pair_rows` rates the ``story_a, story_b`` columns of any table
(the Resonance page and ``cli.py resonance`` both call it);
:func:`find_resonant` ranks the bundled story bank by similarity to one
story; :func:`pair_metrics` compares a method with human labels (Pearson,
Spearman, MSE, and macro-F1 with both sides binned at 2.5, as in Shen et al.).

>>> rows = rate_pair_rows([{"story_a": "", "story_b": "x"}], get_resonance_method("embedding"))
>>> rows[0]["status"], rows[0]["reason"].startswith("The first story is empty")
('unscored', True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import stats as st
from sklearn.metrics import f1_score, mean_squared_error

from core.progress import Progress, silent
from core.stories import BundledStory, load_stories
from core.tables import read_csv, write_table
from scorers.resonance import (
    ASPECTS,
    EmbeddingResonance,
    Method,
    Pair,
    PairRating,
    get_resonance_method,
)

__all__ = ["get_resonance_method"]
#: Optional per-aspect text columns: ``event_a, event_b, emotion_a, …``.
ASPECT_COLUMNS = ("event", "emotion", "moral")
GAP_COLUMNS = ("order_gap", "position_bias")
OUTPUT_COLUMNS = (*ASPECTS, "status", "order_gap", "position_bias", "reason", "rationale")
#: Human label columns :func:`pair_metrics` looks for: ``human_event`` … ``human_empathy``.
LABEL_PREFIX = "human_"
BIN_AT = 2.5
#: The most pairs an upload on the page may hold (a bigger file is refused, not cut).
MAX_PAIRS = 2000


def pair_from_row(row: Mapping[str, str]) -> Pair:
    """A :class:`Pair` from a table row (``story_a, story_b`` and optional aspect texts)."""
    aspects = {}
    for aspect in ASPECT_COLUMNS:
        a, b = row.get(f"{aspect}_a") or "", row.get(f"{aspect}_b") or ""
        if a.strip() and b.strip():
            aspects[aspect] = (a, b)
    return Pair(row.get("story_a") or "", row.get("story_b") or "", aspects)


def read_pairs(
    path: str | Path, max_rows: int | None = MAX_PAIRS, max_bytes: int | None = None
) -> list[dict[str, str]]:
    """The rows of a pairs CSV (``story_a``, ``story_b``), refused unread past the limits.

    Messages name the file by its base name (an upload's folder is the server's).
    """
    rows = read_csv(path, max_rows=max_rows, max_bytes=max_bytes)
    if not rows or "story_a" not in rows[0] or "story_b" not in rows[0]:
        raise ValueError(
            f"{Path(path).name} needs story_a and story_b columns (and at least one row)"
        )
    return rows


def rating_cells(rating: PairRating) -> dict[str, str]:
    """One rating as CSV cells (blank where unscored or not applicable)."""
    cells = {a: "" if rating.value(a) is None else f"{rating.value(a):.3f}" for a in ASPECTS}
    gap = rating.order_gap
    return {
        **cells,
        "status": rating.status,
        "order_gap": "" if gap is None else f"{gap:.3f}",
        "position_bias": "" if gap is None else ("yes" if rating.position_bias else "no"),
        "reason": rating.reason or "",
        "rationale": rating.rationale or "",
    }


def rate_pair_rows(
    rows: Sequence[Mapping[str, str]], method: Method, progress: Progress = silent
) -> list[dict[str, str]]:
    """Each row plus the four similarities; bad or failed rows come back unscored."""
    out: list[dict[str, str]] = []
    batch = 64 if method.id == "embedding" else 1
    for start in range(0, len(rows), batch):
        chunk = rows[start : start + batch]
        ratings = method.rate_pairs([pair_from_row(r) for r in chunk])
        out += [{**row, **rating_cells(r)} for row, r in zip(chunk, ratings, strict=True)]
        progress(len(out), len(rows), f"rated {len(out)}/{len(rows)} pairs")
    return out


def write_rows(path: str, rows: Sequence[Mapping[str, str]], judge: bool = True) -> None:
    """Write rated rows: their input columns, then the output columns (no order gap for embedding)."""
    fields = list(rows[0]) if rows else ["story_a", "story_b"]
    extra = OUTPUT_COLUMNS if judge else [c for c in OUTPUT_COLUMNS if c not in GAP_COLUMNS]
    fields = [f for f in fields if f not in OUTPUT_COLUMNS] + list(extra)
    write_table(path, rows, fields)


def bundled_pairs(count: int, seed: int = 0) -> list[dict[str, str]]:
    """``count`` distinct random pairs of bundled stories (seeded), with aspect texts."""
    stories = load_stories()
    everything = [(i, j) for i in range(len(stories)) for j in range(i + 1, len(stories))]
    chosen = random.Random(seed).sample(everything, min(count, len(everything)))
    return [_pair_row(stories[i], stories[j]) for i, j in chosen]


def _pair_row(a: BundledStory, b: BundledStory) -> dict[str, str]:
    return {
        "id_a": a.story_id,
        "id_b": b.story_id,
        "story_a": a.story,
        "story_b": b.story,
        "event_a": a.main_event,
        "event_b": b.main_event,
        "emotion_a": a.emotion_description,
        "emotion_b": b.emotion_description,
        "moral_a": a.moral,
        "moral_b": b.moral,
    }


@dataclass(frozen=True)
class Match:
    """One bundled story and its similarity to the query."""

    story: BundledStory
    rating: PairRating


def find_resonant(
    story: str,
    method: Method,
    *,
    top: int = 5,
    shortlist: int = 10,
    exclude_id: str | None = None,
    embedding: EmbeddingResonance | None = None,
    progress: Progress = silent,
) -> list[Match]:
    """The bundled stories most empathically similar to ``story``, best first (by empathy).

    The embedding ranks the whole bank; a judge (two calls per story) re-ranks
    the embedding's ``shortlist`` only. ``exclude_id`` leaves out the query
    itself when it is a bundled story; ``embedding`` defaults to the packaged encoder's.
    """
    bank = [s for s in load_stories() if s.story_id != exclude_id]
    embedding = embedding or get_resonance_method("embedding")
    progress(0, len(bank), "comparing with the story bank")
    ratings = embedding.rate_pairs([Pair(story, s.story) for s in bank])
    if not ratings or not ratings[0].ok:
        reason = ratings[0].reason if ratings else "the story bank is empty"
        raise ValueError(reason or "the story could not be compared")
    ranked = sorted(zip(bank, ratings, strict=True), key=lambda m: -(m[1].value("empathy") or 0))
    if isinstance(method, EmbeddingResonance):
        return [Match(s, r) for s, r in ranked[:top]]
    candidates = ranked[: max(top, shortlist)]
    matches = []
    for index, (candidate, _) in enumerate(candidates):
        matches.append(Match(candidate, method.rate_pair(Pair(story, candidate.story))))
        progress(index + 1, len(candidates), f"judged {index + 1}/{len(candidates)} candidates")
    matches.sort(key=lambda m: -(m.rating.value("empathy") or 0))
    return matches[:top]


def pair_metrics(predicted: Sequence[float], labels: Sequence[float]) -> dict[str, float | int]:
    """Pearson, Spearman, MSE and macro-F1 (both binned at 2.5: similar or not).

    >>> m = pair_metrics([1.0, 2.0, 3.0, 4.0], [1, 2, 4, 3])
    >>> m["n"], round(m["pearson_r"], 3), round(m["spearman_rho"], 3), m["mse"], m["macro_f1"]
    (4, 0.8, 0.8, 0.5, 1.0)
    """
    p, y = np.asarray(predicted, dtype=float), np.asarray(labels, dtype=float)
    out: dict[str, float | int] = {"n": int(p.size)}
    nan = float("nan")
    varied = p.size >= 3 and np.ptp(p) > 0 and np.ptp(y) > 0
    out["pearson_r"] = float(st.pearsonr(p, y).statistic) if varied else nan
    out["spearman_rho"] = float(st.spearmanr(p, y).statistic) if varied else nan
    out["mse"] = float(mean_squared_error(y, p)) if p.size else nan
    out["macro_f1"] = (
        float(f1_score(y >= BIN_AT, p >= BIN_AT, average="macro", zero_division=0))
        if p.size
        else nan
    )
    return out


def metrics_from_rows(rows: Sequence[Mapping[str, str]]) -> list[dict[str, object]]:
    """Per aspect with a ``human_<aspect>`` column: :func:`pair_metrics` on the rated rows."""
    table: list[dict[str, object]] = []
    for aspect in ASPECTS:
        column = LABEL_PREFIX + aspect
        if not rows or column not in rows[0]:
            continue
        pairs = []
        for row in rows:
            try:
                pairs.append((float(row[aspect]), float(row[column])))
            except (KeyError, TypeError, ValueError):
                continue
        metrics = pair_metrics([p[0] for p in pairs], [p[1] for p in pairs])
        table.append({"aspect": aspect, **metrics})
    return table
