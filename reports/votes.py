"""Vote results as a diverging bar chart (as the reference study's Figure 3), tables, CSV.

>>> from studies.votes.tally import summarize
>>> rows = [{"round": "R", "voter": "1", "shown": "a|b", "most": "a", "least": "b"}]
>>> fig = shares_chart(summarize(rows, resamples=0))
>>> [t.name for t in fig.data]
['least empathetic', 'most empathetic']
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from pathlib import Path

import plotly.graph_objects as go
from scipy.stats import rankdata

from core.numbers import fmt, percent
from core.tables import write_table
from reports.layout import empty_figure, legend_below, lines_of, wrap
from scorers.registry import scorer_label
from studies.votes.tally import MIN_VOTERS, RESULT_COLUMNS, Agreement, SourceResult

RANKING_HEADERS = ["rank", "source", "strength", "95% interval", "most", "least", "shown"]
AGREEMENT_HEADERS = ["scorer", "votes", "top = most", "bottom = least", "by chance"]


#: Characters a line of a source's name holds above its bars (fits a 390 px phone).
LABEL_CHARS = 40
#: Pixels a line of a name takes (Plotly's 12 px font), a bar's height, the gaps around it.
LINE_PX, BAR_PX, GAP_PX = 15, 26, 4


def rows_of(names: Sequence[str]) -> tuple[float, list[float]]:
    """The height in pixels of a source's row, and where each row's bars start (in rows,
    from the row's centre, where Plotly puts its name): a name sits above the centre, its
    lines after the first half below it, and the bars just under the name.

    >>> row_px, starts = rows_of(["one line", "two<br>lines"])
    >>> row_px, [round(s * row_px, 1) for s in starts]
    (83, [-30.0, -37.5])
    """
    below = [GAP_PX + (lines_of([n]) - 1) * LINE_PX / 2 for n in names]
    above = [(lines_of([n]) + 1) * LINE_PX / 2 for n in names]
    row_px = round(2 * max(*above, *(b + BAR_PX + GAP_PX for b in below)))
    return row_px, [-(b + BAR_PX) / row_px for b in below]


def zero_marks(starts: Sequence[float], bar: float) -> list[dict[str, object]]:
    """The line at 0 between the two shares, beside each row's bars only (``starts``: where
    they start, ``bar``: how tall they are, in rows), never through a name (Plotly's own zero
    line and grid hide under names inside the plot)."""
    line = {"color": "#444", "width": 1}
    return [
        {"type": "line", "x0": 0, "x1": 0, "y0": i + low, "y1": i + low + bar, "line": line}
        for i, low in enumerate(starts)
    ]


def share_bars(
    ordered: Sequence[SourceResult], names: list[str], starts: list[float], bar: float
) -> go.Figure:
    """The least-empathetic (left) and most-empathetic (right) bars of each source, ``bar``
    rows tall from ``starts``, each share printed on its bar (its count on hover)."""
    fig = go.Figure()
    for label, values, colour, counts in (
        ("least empathetic", [-100 * r.least_share for r in ordered], "#c0504d", "least"),
        ("most empathetic", [100 * r.most_share for r in ordered], "#4f81bd", "most"),
    ):
        fig.add_bar(
            y=names,
            x=values,
            orientation="h",
            name=label,
            marker_color=colour,
            offset=starts,
            width=bar,
            text=[f"{abs(x):.0f}%" for x in values],
            customdata=[f"{getattr(r, counts)}/{r.n}" for r in ordered],
            textposition="auto",
            textangle=0,
            cliponaxis=False,
            hovertemplate=f"%{{y}}: {label} in %{{text}} (%{{customdata}})<extra></extra>",
        )
    return fig


def shares_chart(results: Sequence[SourceResult], title: str = "") -> go.Figure:
    """Least-empathetic share to the left, most-empathetic share to the right, per source.

    Sized for a phone too: each source's name sits on its own line(s) above its bars,
    inside the plot, so the bars keep the chart's whole width (names beside the bars took
    half of it on a phone); the shares are printed on the bars (the counts on hover and in
    the ranking table), the title on two lines and the legend under the plot.
    """
    if not results:
        return empty_figure("No votes yet: the shares appear after the first vote.")
    # The ranking's order, best at the top (Plotly draws the first row at the bottom).
    ordered = best_first(results)[::-1]
    # Plotly reads tags in text (<b>, <a href>): a teacher's label is shown as typed.
    labels = [html.escape(source_label(r.source), quote=False) for r in ordered]
    names = [wrap(label, 22) for label in labels]  # the bars' keys, shown on hover
    ticks = [wrap(label, LABEL_CHARS) for label in labels]  # the names above the bars
    row_px, starts = rows_of(ticks)
    bar = BAR_PX / row_px
    fig = share_bars(ordered, names, starts, bar)
    fig.update_layout(
        barmode="relative",
        title={
            "text": title
            or "Share of votes: least empathetic<br>(left) and most empathetic (right)",
            "font": {"size": 15},
        },
        # Plotly hides the x axis's ticks and grid lines under names inside the plot: the
        # bars print their shares, and the zero line is drawn as a shape.
        xaxis={
            "title": "% of the votes in which<br>the reply was shown",
            "range": [-100, 100],
            "showticklabels": False,
            "showgrid": False,
            "zeroline": False,
        },
        yaxis={
            "automargin": True,
            "ticklabelposition": "inside top",  # above the row's bars, from the left edge
            "tickvals": names,
            "ticktext": ticks,
            "ticks": "",
            "showgrid": False,
            "range": [-0.5, len(names) - 0.5],
        },
        shapes=zero_marks(starts, bar),
    )
    return legend_below(
        fig, 2, plot_px=row_px * len(names), top_px=80, below_plot_px=78, side_px=25
    )


def _interval(low: float, high: float) -> str:
    """The 95 % interval, or plainly that there are too few votes for one."""
    if math.isnan(low) or math.isnan(high):
        return f"not enough votes yet (an interval needs {MIN_VOTERS} voters)"
    return f"{fmt(low, 2, signed=True)} to {fmt(high, 2, signed=True)}"


def best_first(results: Sequence[SourceResult]) -> list[SourceResult]:
    """Best first by strength (ties by id): the ranking's order and the chart's, top down."""
    return sorted(results, key=lambda r: (-r.score, r.source))


def shared_ranks(scores: Sequence[float]) -> list[str]:
    """Ranks of strengths best first; strengths equal to two decimals (as printed) share the
    best of their ranks, marked "=" (a tie was ranked 2 and 3).

    >>> shared_ranks([0.9, 0.2, 0.2, -0.5]), shared_ranks([0.5, 0.501, 0.1])
    (['1', '2=', '2=', '4'], ['1=', '1=', '3'])
    """
    shown = [-math.inf if math.isnan(s) else round(s, 2) for s in scores]
    ranks = rankdata([-s for s in shown], method="min").astype(int).tolist()
    return [f"{r}{'=' if ranks.count(r) > 1 else ''}" for r in ranks]


def ranking_rows(results: Sequence[SourceResult]) -> list[list[object]]:
    """Rows for the ranking table (:data:`RANKING_HEADERS`), best first (:func:`best_first`),
    a tie sharing its rank (:func:`shared_ranks`)."""
    ordered = best_first(results)
    return [
        [
            rank,
            source_label(r.source),
            fmt(r.score, 2, signed=True),
            _interval(r.ci_low, r.ci_high),
            f"{percent(r.most_share)} ({r.most})",
            f"{percent(r.least_share)} ({r.least})",
            r.n,
        ]
        for rank, r in zip(shared_ranks([r.score for r in ordered]), ordered, strict=True)
    ]


def agreement_rows(agreements: Sequence[Agreement]) -> list[list[object]]:
    """Rows for the scorer-agreement table (:data:`AGREEMENT_HEADERS`)."""
    return [
        [
            scorer_label(a.scorer),
            a.votes,
            percent(a.top_match),
            percent(a.bottom_match),
            percent(a.chance),
        ]
        for a in agreements
    ]


def write_results(results: Sequence[SourceResult], path: Path) -> None:
    """The results CSV: one row per source with :data:`RESULT_COLUMNS` (cells formula-safe)."""
    write_table(path, [r.row() for r in results], RESULT_COLUMNS)


def source_label(source: str) -> str:
    """A reply's author for people: the responder's name, the prompt strategy, or the teacher.

    >>> source_label("human/counselchat"), source_label("teacher/warm one")
    ('Licensed therapist (CounselChat)', "Teacher's reply: warm one")
    """
    from responders.registry import get_responder
    from studies.strategies import load_strategy

    if source.startswith("teacher/"):
        return "Teacher's reply: " + source.removeprefix("teacher/")
    rid, _, strategy = source.partition("#")
    try:
        name = get_responder(rid).display_name
    except (KeyError, ValueError):
        return source
    if strategy:
        try:
            name += f" · {load_strategy(strategy).label}"
        except KeyError:
            name += f" · {strategy}"
    return name
