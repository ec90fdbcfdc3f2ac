"""A batch's charts (radar, bars, spread per arm) and the readable names they use.

>>> scorer_name("nope"), strategy_name("as-written")
('nope', 'as written (no prompt)')
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from reports.charts import RADIAL_AXIS
from reports.colors import arm_colors, fill
from reports.layout import legend_below, lines_of, wrap
from studies.batch.plan import AS_WRITTEN


def responder_name(responder_id: str) -> str:
    """A responder's readable name (its id when unknown).

    >>> responder_name("human/counselchat"), responder_name("nope/x")
    ('Licensed therapist (CounselChat)', 'nope/x')
    """
    from responders.registry import get_responder

    try:
        return get_responder(responder_id).display_name
    except KeyError:
        return responder_id


def scorer_name(scorer_id: str) -> str:
    """A scorer's readable name (its id when unknown)."""
    from scorers.registry import scorer_label

    try:
        return scorer_label(scorer_id)
    except KeyError:
        return scorer_id


def strategy_name(strategy_id: str) -> str:
    """A prompt strategy's label ('as written (no prompt)' for answers that ignore prompts)."""
    from studies.strategies import load_strategies

    labels = {s.id: s.label for s in load_strategies().values()}
    return labels.get(
        strategy_id, "as written (no prompt)" if strategy_id == AS_WRITTEN else strategy_id
    )


def _colors(part: pd.DataFrame) -> dict[tuple[str, str], str]:
    """Each arm's colour: its responder's, as on the Compare page (:func:`reports.colors.arm_colors`)."""
    arms = list(dict.fromkeys(zip(part["responder"], part["strategy"], strict=True)))
    return arm_colors(arms)


def _arm(row: pd.Series) -> str:
    return f"{responder_name(row['responder'])} · {strategy_name(row['strategy'])}"


#: Pixels one line of a chart title takes (Plotly's 17 px title font, 1.3 line spacing);
#: a smaller <sub> line takes about as much.
TITLE_LINE_PX = 23


def chart_title(scorer: str, *notes: str, gap_px: int = 24) -> tuple[dict, int]:
    """A chart's title (the scorer's name wrapped between words, then each note on a smaller
    line), pinned to the top of the figure, and the top margin it needs so that no line
    of it lies on the plot, whatever the name's length (an LLM judge's took four lines
    and its notes sat on the plot, over the axis's top tick).

    >>> title, top = chart_title("bert-head", "mean per component")
    >>> title["text"], top
    ('Empathy head (MiniLM +<br>trained head)<br><sub>mean per component</sub>', 113)
    """
    name = wrap(scorer_name(scorer), 28)
    lines = name.count("<br>") + 1 + len(notes)
    text = name + "".join(f"<br><sub>{note}</sub>" for note in notes)
    title = {"text": text, "yref": "container", "y": 1, "yanchor": "top", "pad": {"t": 20}}
    return title, 20 + TITLE_LINE_PX * lines + gap_px


def radar(summary: pd.DataFrame, scorer: str) -> go.Figure:
    """Each arm's mean per component (overall left out) for one scorer, on a fixed 1–3
    radial axis; the legend under the radar, so long arm names never shrink it."""
    part = summary[(summary["scorer"] == scorer) & (summary["component"] != "overall")]
    fig = go.Figure()
    names = []
    colors = _colors(part)
    for arm, group in part.groupby(["responder", "strategy"], sort=False):
        axes = [c.capitalize() for c in group["component"]]
        values = group["mean"].tolist()
        names.append(wrap(_arm(group.iloc[0])))
        fig.add_scatterpolar(
            r=[*values, values[0]],
            theta=[*axes, axes[0]],
            name=names[-1],
            fill="toself",
            line={"color": colors[arm], "width": 2},
            fillcolor=fill(colors[arm]),
        )
    title, top = chart_title(
        scorer, "mean per component", "(1 at the centre, 3 at the edge)", gap_px=40
    )
    fig.update_layout(
        title=title,
        polar={
            "radialaxis": RADIAL_AXIS,
            "angularaxis": {"tickfont": {"size": 12}},
        },
    )
    return legend_below(fig, lines_of(names), top_px=top, below_plot_px=30, side_px=70)


def bars(summary: pd.DataFrame, scorer: str) -> go.Figure:
    """Means with 95% intervals per component, one bar group per arm; the legend under the
    plot."""
    part = summary[summary["scorer"] == scorer]
    fig = go.Figure()
    names = []
    colors = _colors(part)
    for arm, group in part.groupby(["responder", "strategy"], sort=False):
        names.append(wrap(_arm(group.iloc[0])))
        fig.add_bar(
            name=names[-1],
            marker_color=colors[arm],
            x=[c.capitalize() for c in group["component"]],
            y=group["mean"],
            error_y={
                "type": "data",
                "symmetric": False,
                "array": (group["ci_high"] - group["mean"]).tolist(),
                "arrayminus": (group["mean"] - group["ci_low"]).tolist(),
            },
        )
    title, top = chart_title(scorer, "mean and 95% interval per component")
    fig.update_layout(
        barmode="group",
        title=title,
        yaxis={"title": "score", "range": [1, 3], "tickvals": [1, 1.5, 2, 2.5, 3]},
        xaxis={"automargin": True},
    )
    return legend_below(fig, lines_of(names), top_px=top, below_plot_px=40, side_px=50)


def distribution(df: pd.DataFrame, column: str) -> go.Figure:
    """The spread of one score column per arm (box with every point), each arm named in the
    legend under the plot: names under the boxes overlapped one another on a phone."""
    fig = go.Figure()
    names = []
    for _, group in df.groupby(["responder", "strategy"], sort=False):
        names.append(wrap(_arm(group.iloc[0])))
        fig.add_box(y=group[column], name=names[-1], boxpoints="all", jitter=0.4)
    scorer, _, component = column.rpartition("/")
    title, top = chart_title(scorer, f"spread of the {component} score per reply")
    fig.update_layout(
        title=title,
        yaxis={"title": "score", "range": [0.9, 3.1]},
        xaxis={"showticklabels": False},
        showlegend=True,
    )
    return legend_below(fig, lines_of(names), top_px=top, below_plot_px=20, side_px=50)
