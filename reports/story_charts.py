"""Plotly figures for story ratings and resonance (the Stories and Resonance pages, the CLI).

>>> from scorers.base import Score
>>> fig = persona_chart([("no persona", Score.from_values("j", {"empathy": 4, "affective": 3,
...     "cognitive": 5}, "story-evocation"))])
>>> [t.name.replace("<br>", " ") for t in fig.data]  # legend names wrap for a phone
['Empathy for the storyteller', 'Affective (sympathy, compassion, being moved)', 'Cognitive (understanding their perspective and feelings)']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from reports.layout import legend_below, lines_of, wrap
from scorers.base import Score
from scorers.rubric import load_rubric

#: A persona's name on the x axis: short lines, so a phone never tilts or cuts one.
TICK_CHARS = 14
#: A title line's height (15 px font), the room above a title (under the chart's tool bar;
#: the Stories page shows no "Plot" badge over it) and the room under it, in pixels.
TITLE_LINE_PX, TITLE_PAD_PX, UNDER_TITLE_PX = 20, 48, 16


def rating_axis(top: int, title: str | None = None) -> dict[str, object]:
    """The y axis of a chart of ratings from 1 to ``top``: ticks at the scale's points only,
    from half a point under its lowest, so no 0 shows (no rating takes it; the axis read
    0–5 on a 1–5 scale) and a rating of 1 still shows a bar.

    >>> rating_axis(5)
    {'range': [0.5, 5.3], 'tickvals': [1, 2, 3, 4, 5]}
    """
    axis: dict[str, object] = {"range": [0.5, top + 0.3], "tickvals": list(range(1, top + 1))}
    return axis | ({"title": title} if title else {})


def titled(title: str, judge: str = "") -> dict[str, object]:
    """A chart title on lines that fit a 390 px phone, naming the judge in full (Plotly
    never wraps a title: a long one ran off the right edge).

    >>> titled("How the ratings move", "LLM judge: Local model (Qwen2.5-Coder 1.5B, CPU)")["text"]
    'How the ratings move<br>rated by LLM judge: Local model<br>(Qwen2.5-Coder 1.5B, CPU)'
    """
    lines = [wrap(title)] + ([wrap(f"rated by {judge}")] if judge else [])
    # From the figure's top edge down (Plotly centres a title in the top margin: a long one
    # ran into the plot).
    return {
        "text": "<br>".join(lines),
        "font": {"size": 15},
        "x": 0,
        "xanchor": "left",
        "xref": "paper",
        "y": 1,
        "yref": "container",
        "yanchor": "top",
        "pad": {"t": TITLE_PAD_PX},
    }


def title_px(head: dict[str, object]) -> int:
    """The room a :func:`titled` title takes above the plot, in pixels."""
    return TITLE_PAD_PX + UNDER_TITLE_PX + TITLE_LINE_PX * lines_of([str(head["text"])])


def persona_chart(rows: Sequence[tuple[str, Score]], title: str = "", judge: str = "") -> go.Figure:
    """One group of bars per reader persona, one bar per rated component (1–5); ``judge``:
    the judge's name, shown in full under the title."""
    rubric = load_rubric("story-evocation")
    fig = go.Figure()
    names = [wrap(rubric.label(c)) for c in rubric.components]
    for component, name in zip(rubric.components, names, strict=True):
        fig.add_bar(
            name=name,
            x=[wrap(reader, TICK_CHARS) for reader, _ in rows],
            y=[score.value(component) for _, score in rows],
        )
    head = titled(title or "How the ratings move with the reader persona", judge)
    fig.update_layout(
        barmode="group",
        title=head,
        yaxis=rating_axis(5, "rating (1 not at all – 5 extremely)"),
    )
    return legend_below(fig, lines_of(names), top_px=title_px(head), below_plot_px=120, side_px=50)


def rating_distribution(
    human: Sequence[float], judge: Sequence[float], title: str, judge_name: str = ""
) -> go.Figure:
    """How often each rating 1–5 was given, by the annotators and by the judge (rounded)."""
    fig = go.Figure()
    for name, values in (("people (Empathizable)", human), ("judge (empathy)", judge)):
        counts = Counter(round(v) for v in values)
        fig.add_bar(name=name, x=[1, 2, 3, 4, 5], y=[counts.get(k, 0) for k in range(1, 6)])
    head = titled(title, judge_name)
    fig.update_layout(barmode="group", title=head, xaxis_title="rating", yaxis_title="stories")
    return legend_below(fig, 2, plot_px=260, top_px=title_px(head), below_plot_px=60, side_px=50)


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
    fig.update_layout(title=title, yaxis=rating_axis(4), height=380)
    return fig
