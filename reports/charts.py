"""Plotly figures for scores: radar charts by scorer and by responder.

>>> from scorers.base import Score
>>> scores = {("local/x", "bert-head"): Score.from_components("bert-head", 2, 3, 1)}
>>> fig = radar_by_scorer(scores)
>>> [t.name for t in fig.data]
['local/x']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from scorers.base import COMPONENTS, Score

AXES = [c.capitalize() for c in COMPONENTS]
ScoreTable = Mapping[tuple[str, str], Score]  # (responder id, scorer id) -> score


def _radar_grid(groups: dict[str, dict[str, Score]], title: str) -> go.Figure:
    """One polar subplot per group, one trace per member of the group."""
    names = list(groups) or ["(no scores yet)"]
    cols = min(len(names), 3)
    rows = (len(names) + cols - 1) // cols
    fig = make_subplots(
        rows=rows,
        cols=cols,
        specs=[[{"type": "polar"}] * cols for _ in range(rows)],
        subplot_titles=names,
    )
    for index, name in enumerate(names):
        row, col = index // cols + 1, index % cols + 1
        for member, score in groups.get(name, {}).items():
            values = [getattr(score, c) for c in COMPONENTS]
            fig.add_trace(
                go.Scatterpolar(
                    r=[*values, values[0]],
                    theta=[*AXES, AXES[0]],
                    name=member,
                    legendgroup=member,
                    showlegend=member not in _members_before(groups, index),
                    fill="toself",
                    opacity=0.6,
                ),
                row=row,
                col=col,
            )
    fig.update_polars(radialaxis={"range": [1, 3], "tickvals": [1, 2, 3]})
    fig.update_layout(title=title, height=360 * rows, margin={"t": 80, "b": 30})
    return fig


def _members_before(groups: dict[str, dict[str, Score]], index: int) -> set[str]:
    seen: set[str] = set()
    for name in list(groups)[:index]:
        seen.update(groups[name])
    return seen


def radar_by_scorer(scores: ScoreTable) -> go.Figure:
    """One radar per scorer, a trace per responder (unscored results left out)."""
    groups: dict[str, dict[str, Score]] = {}
    for (responder_id, scorer_id), score in scores.items():
        if score.ok:
            groups.setdefault(scorer_id, {})[responder_id] = score
    return _radar_grid(groups, "By scorer: how each responder was rated")


def radar_by_responder(scores: ScoreTable) -> go.Figure:
    """One radar per responder, a trace per scorer (do the scorers agree?)."""
    groups: dict[str, dict[str, Score]] = {}
    for (responder_id, scorer_id), score in scores.items():
        if score.ok:
            groups.setdefault(responder_id, {})[scorer_id] = score
    return _radar_grid(groups, "By responder: do the scorers agree?")


def score_rows(scores: ScoreTable) -> list[list[object]]:
    """Rows for the scores table: responder, scorer, four scores, status, note."""
    rows: list[list[object]] = []
    for (responder_id, scorer_id), score in sorted(scores.items()):
        values = [None if v is None else round(v, 2) for v in score.components().values()]
        note = score.rationale or score.reason or ""
        if score.spread is not None:
            note = f"spread ±{score.spread:.2f}. {note}".strip()
        rows.append([responder_id, scorer_id, *values, score.status, note])
    return rows


SCORE_COLUMNS = ["responder", "scorer", *COMPONENTS, "overall", "status", "rationale / note"]


def robustness_heatmap(report: Sequence[Mapping[str, object]], subtitle: str) -> go.Figure:
    """Mean change in overall per perturbation (columns) and scorer (rows)."""
    overall = {
        (str(r["perturbation"]), str(r["scorer"])): r["mean_change"]
        for r in report
        if r["component"] == "overall"
    }
    perturbations = list(dict.fromkeys(p for p, _ in overall))
    scorers = list(dict.fromkeys(s for _, s in overall))
    fig = go.Figure(
        go.Heatmap(
            z=[[overall.get((p, s)) for p in perturbations] for s in scorers],
            x=perturbations,
            y=scorers,
            colorscale="RdBu",
            zmid=0,
            colorbar={"title": "mean Δ overall"},
        )
    )
    fig.update_layout(
        title=f"Mean change in overall score ({subtitle})", height=300 + 40 * len(scorers)
    )
    return fig
