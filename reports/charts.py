"""Plotly figures shared by pages and reports: radar charts by scorer and by responder.

Every trace of a responder (or scorer) has that id's colour from
:mod:`reports.colors`, on every chart; titles and axis names are whole words;
the radial axis runs over the rubric's scale, 1 at the centre to 3 at the edge
(:data:`RADIAL_AXIS`, as on the Batch page's radars).

>>> from scorers.base import Score
>>> scores = {("local/x", "bert-head"): Score.from_components("bert-head", 2, 3, 1)}
>>> fig = radar_by_scorer(scores)
>>> [t.name for t in fig.data]
['local/x']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from reports.colors import DASHES, SYMBOLS, color_for, fill
from reports.layout import LABEL_WIDTH, empty_figure, wrap
from scorers.base import COMPONENTS, Score

AXES = [c.capitalize() for c in COMPONENTS]
ScoreTable = Mapping[tuple[str, str], Score]  # (responder id, scorer id) -> score
Names = Callable[[str], str]
RADAR_CAPTION = (
    "How to read: each axis is one rubric component, from 1 (low) at the centre to "
    "3 (high) at the edge; a bigger shape means a higher score on that component."
)
#: Every radar's radial axis: the rubric's 1–3 scale, 1 at the centre (the Batch report's
#: radars use the same range).
RADIAL_AXIS: dict[str, object] = {"range": [1, 3], "tickvals": [1, 2, 3], "tickfont": {"size": 10}}
#: Every radar's axis names ("Cognitive", ...), set off from the rim by an invisible tick: a
#: point scored 3 sits on the rim, and a name drawn right at it covered the point.
ANGULAR_AXIS: dict[str, object] = {
    "tickfont": {"size": 12},
    "ticks": "outside",
    "ticklen": 10,
    "tickcolor": "rgba(0,0,0,0)",
}


def _same(name: str) -> str:
    return name


#: What a radar grid shows before any reply is scored: a message, no empty grid.
NO_SCORES = "No scores yet: the radars appear once a reply is scored."


#: Below this width (px) a radar grid's container shows one radar a row: two side by side
#: on a 390 px phone overlapped (titles over each other, axis names cut).
NARROW_BELOW_PX = 600


def _grid(keys: list[str], names: Names, cols: int) -> go.Figure:
    """An empty grid of polar subplots, ``cols`` a row, each titled with its group's name."""
    rows = (len(keys) + cols - 1) // cols
    fig = make_subplots(
        rows=rows,
        cols=cols,
        specs=[[{"type": "polar"}] * cols for _ in range(rows)],
        subplot_titles=[wrap(names(k), 26) for k in keys],
        horizontal_spacing=0.22,
        vertical_spacing=min(0.25, 0.5 / rows),
    )
    fig.update_annotations(font_size=12, yshift=12)
    fig.update_layout(height=330 * rows + 180)
    return fig


def _arrangement(fig: go.Figure, count: int) -> dict[str, object]:
    """What Plotly's ``relayout`` needs to lay ``fig``'s radars out as they are now. A new
    height alone would also fix the width where it is (Plotly's rule): the width stays
    automatic, so the chart still follows its container."""
    update: dict[str, object] = {"height": fig.layout.height, "width": None, "autosize": True}
    for index in range(count):
        name = "polar" if index == 0 else f"polar{index + 1}"
        domain = fig.layout[name].domain
        update[f"{name}.domain.x"], update[f"{name}.domain.y"] = list(domain.x), list(domain.y)
    update["annotations"] = fig.to_plotly_json()["layout"]["annotations"]
    return update


def _fit_to_width(fig: go.Figure, keys: list[str], names: Names) -> None:
    """Two radars a row on a wide screen, one a row on a narrow one: the figure carries
    both arrangements in ``layout.meta``, and the page's script (:mod:`pages.widgets.radar_fit`)
    applies the one that fits the chart's width, again whenever that width changes.

    >>> same = Score.from_components("bert-head", 2, 2, 2)
    >>> fig = radar_by_responder({("a/x", "bert-head"): same, ("b/y", "bert-head"): same})
    >>> fig.layout.meta["wide"]["polar2.domain.x"], fig.layout.meta["narrow"]["polar2.domain.x"]
    ([0.61, 1.0], [0.0, 1.0])
    """
    if len(keys) < 2:
        return
    fig.update_layout(
        meta={
            "narrow_below": NARROW_BELOW_PX,
            "wide": _arrangement(fig, len(keys)),
            "narrow": _arrangement(_grid(keys, names, 1), len(keys)),
        }
    )


def _radar_grid(groups: dict[str, dict[str, Score]], title: str, names: Names) -> go.Figure:
    """One polar subplot per group, one trace per member (coloured by member id); a plain
    message without axes when there is nothing to draw."""
    if not groups:
        return empty_figure(NO_SCORES)
    keys = list(groups)
    cols = min(len(keys), 2)
    fig = _grid(keys, names, cols)
    shown: set[str] = set()
    looks: dict[str, int] = {}
    for index, key in enumerate(keys):
        for member, score in groups.get(key, {}).items():
            values = [getattr(score, c) for c in COMPONENTS]
            color = color_for(member)
            # A line style per member, the same in every subplot: shapes that coincide (two
            # judges giving the same scores) still show as separate outlines.
            look = looks.setdefault(member, len(looks)) % len(DASHES)
            fig.add_trace(
                go.Scatterpolar(
                    r=[*values, values[0]],
                    theta=[*AXES, AXES[0]],
                    # On lines that fit a 390 px phone beside the swatch: Plotly does not
                    # wrap legend text, and a long name ("… (safety: uncertain)") was cut.
                    name=wrap(names(member), LABEL_WIDTH),
                    legendgroup=member,
                    showlegend=member not in shown,
                    fill="toself",
                    line={"color": color, "width": 2, "dash": DASHES[look]},
                    fillcolor=fill(color),
                    marker={"color": color, "size": 7, "symbol": SYMBOLS[look]},
                    hovertemplate="%{theta}: %{r:.2f}<extra>" + names(member) + "</extra>",
                ),
                row=index // cols + 1,
                col=index % cols + 1,
            )
            shown.add(member)
    fig.update_polars(radialaxis=RADIAL_AXIS, angularaxis=ANGULAR_AXIS)
    fig.update_layout(
        title={"text": title, "font": {"size": 15}},
        margin={"t": 120, "b": 90, "l": 70, "r": 70},  # room for the axis names
        # Below the plots, centred: on a phone it wraps onto more lines instead of being cut.
        legend={"orientation": "h", "yanchor": "top", "y": -0.06, "x": 0.5, "xanchor": "center"},
    )
    _fit_to_width(fig, keys, names)
    return fig


def radar_by_scorer(scores: ScoreTable, names: Names = _same) -> go.Figure:
    """One radar per scorer, a trace per responder (unscored results left out)."""
    groups: dict[str, dict[str, Score]] = {}
    for (responder_id, scorer_id), score in scores.items():
        if score.ok:
            groups.setdefault(scorer_id, {})[responder_id] = score
    return _radar_grid(groups, "By scorer: how each reply was rated", names)


def radar_by_responder(scores: ScoreTable, names: Names = _same) -> go.Figure:
    """One radar per responder, a trace per scorer (do the scorers agree?)."""
    groups: dict[str, dict[str, Score]] = {}
    for (responder_id, scorer_id), score in scores.items():
        if score.ok:
            groups.setdefault(responder_id, {})[scorer_id] = score
    return _radar_grid(groups, "By responder: do the scorers agree?", names)


SCORE_COLUMNS = [
    "Reply from",
    "Safety screen",
    "Overall",
    "Scored by",
    "Cognitive",
    "Emotional",
    "Behavioral",
    "Status",
    "Why (judge's reason or note)",
]


#: A score's spread in plain words: its several models (the empathy head) or its repeated
#: runs (a sampled judge) each score the reply and the score is their average; the spread is
#: their standard deviation, how far one typically lands from that average.
SPREAD_WORDS = (
    "an average of several scorings of this reply, which were typically {:.2f} away from it: "
    "the smaller that number, the surer the score"
)


def score_rows(
    scores: ScoreTable,
    names: Names = _same,
    cut_off: frozenset[str] = frozenset(),
    safety: Mapping[str, str] | None = None,
    order: Sequence[str] = (),
) -> list[list[object]]:
    """Rows for the scores table: who replied, safety, overall, who scored, the three
    components, status, why (safety and overall first: on a phone they show without a swipe).

    A responder in ``cut_off`` used its whole token limit: its row says the reply
    was cut, since a scorer rated an unfinished reply. ``safety`` holds each
    reply's safety badge, shown beside its scores so a warm but unsafe reply
    never reads as a good one. Rows follow ``order`` (the reply panels' order), then ids.

    >>> s = Score.from_components("s", 2, 2, 2)
    >>> [r[0] for r in score_rows({("b", "s"): s, ("a", "s"): s}, order=["b", "a"])]
    ['b', 'a']
    >>> rows = score_rows({("a", "s"): Score.from_components("s", 2, 2, 2)}, cut_off=frozenset({"a"}))
    >>> rows[0][:4]
    ['a (cut at the token limit)', '', 2.0, 's']
    """
    rows: list[list[object]] = []
    place = {rid: k for k, rid in enumerate(order)}  # responders in the panels' order
    keyed = sorted(scores.items(), key=lambda kv: (place.get(kv[0][0], len(place)), kv[0]))
    for (responder_id, scorer_id), score in keyed:
        values = [None if v is None else round(v, 2) for v in score.components().values()]
        why = score.rationale or score.reason or ""
        if score.note:
            why = f"{score.note}. {why}".strip()
        if score.spread is not None:
            why = f"{why} ({SPREAD_WORDS.format(score.spread)})".strip()
        status = "scored" if score.ok else "not scored"
        who = names(responder_id)
        if responder_id in cut_off:
            who += " (cut at the token limit)"
        badge = (safety or {}).get(responder_id, "")
        *parts, overall = values
        rows.append([who, badge, overall, names(scorer_id), *parts, status, why])
    return rows


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
