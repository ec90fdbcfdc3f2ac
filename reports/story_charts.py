"""Plotly figures for story ratings and resonance (the Stories and Resonance pages, the CLI).

>>> from scorers.base import Score
>>> fig = persona_chart([("no persona", Score.from_values("j", {"empathy": 4, "affective": 3,
...     "cognitive": 5}, "story-evocation"))])
>>> [t.name for t in fig.data]
['Empathy for the storyteller', 'Affective (sympathy, compassion, being moved)', 'Cognitive (understanding their perspective and feelings)']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from scorers.base import Score
from scorers.rubric import load_rubric


def persona_chart(rows: Sequence[tuple[str, Score]], title: str = "") -> go.Figure:
    """One group of bars per reader persona, one bar per rated component (1–5)."""
    rubric = load_rubric("story-evocation")
    fig = go.Figure()
    for component in rubric.components:
        fig.add_bar(
            name=rubric.label(component),
            x=[name for name, _ in rows],
            y=[score.value(component) for _, score in rows],
        )
    fig.update_layout(
        barmode="group",
        title=title or "How the ratings move with the reader persona",
        yaxis={"title": "rating (1 not at all – 5 extremely)", "range": [0, 5.2]},
        legend={"orientation": "h", "y": -0.25},
        height=440,
    )
    return fig


def rating_distribution(human: Sequence[float], judge: Sequence[float], title: str) -> go.Figure:
    """How often each rating 1–5 was given, by the annotators and by the judge (rounded)."""
    fig = go.Figure()
    for name, values in (("people (Empathizable)", human), ("judge (empathy)", judge)):
        counts = Counter(round(v) for v in values)
        fig.add_bar(name=name, x=[1, 2, 3, 4, 5], y=[counts.get(k, 0) for k in range(1, 6)])
    fig.update_layout(
        barmode="group",
        title=title,
        xaxis_title="rating",
        yaxis_title="stories",
        height=380,
    )
    return fig


def resonance_chart(
    values: Mapping[str, float],
    orders: tuple[Mapping[str, float], Mapping[str, float]] | None = None,
    title: str = "Empathic similarity (1 not at all – 4 very)",
) -> go.Figure:
    """The four similarities; for a judge, each order's values beside the average."""
    rubric = load_rubric("resonance")
    x = [rubric.label(a) for a in rubric.components]
    fig = go.Figure()
    fig.add_bar(name="average", x=x, y=[values[a] for a in rubric.components])
    if orders:
        for name, order in zip(("story A first", "story B first"), orders, strict=True):
            fig.add_scatter(
                name=name,
                x=x,
                y=[order[a] for a in rubric.components],
                mode="markers",
                marker={"size": 12},
            )
    fig.update_layout(title=title, yaxis={"range": [0, 4.2]}, height=380)
    return fig
