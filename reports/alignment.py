"""Figures, tables and the HTML page of an alignment report (pages and the CLI share them).

>>> rows = [{"human_overall": 1.0, "scorer_overall": 2.0}, {"human_overall": 3.0, "scorer_overall": 3.0}]
>>> fig = scatter(rows, ["overall"], low=1, high=3)
>>> [t.name for t in fig.data]
['overall', 'people = scorer']
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from core.numbers import fmt, p_value, with_interval

#: Plain-language readings of each statistic (for clinicians and teachers).
EXPLAIN: dict[str, str] = {
    "n": "Replies that both people and the scorer rated.",
    "pearson_r": "Do higher human ratings go with higher scores? 1 = perfectly in step, 0 = unrelated.",
    "pearson_t": "The test statistic behind Pearson's r; larger means less likely to be chance.",
    "pearson_p": "Chance of an r this far from 0 if scores and ratings were unrelated (small = real link).",
    "spearman_rho": "Like Pearson, but only the order counts: does the scorer rank replies as people do?",
    "cohens_d": "Cohen's d > 0: the scorer rates higher than people (in standard deviations); < 0: lower. ±0.2 small, ±0.5 medium, ±0.8 large.",
    "wasserstein": "How far apart the two spreads of scores are, in scale points (0 = same distribution).",
    "t_stat": "Paired t-test of scorer − people, reply by reply: > 0 the scorer is higher.",
    "t_p": "Chance of a gap this large if the scorer had no systematic shift (small = real shift).",
    "krippendorff_alpha": "Agreement as if the scorer were one more rater: 1 = perfect, 0 = no better than chance; 0.8+ is good, 0.67 the usual floor.",
    "qwk": "Agreement on whole levels (rounded), with big misses counting more: 1 = perfect, 0 = chance.",
    "mse": "Average squared miss per reply (0 = exact). It splits into bias² + variance below.",
    "f1": "After rounding to levels: how well the scorer finds each level, averaged over levels (1 = perfect).",
    "bias_sq": "The part of the miss a constant shift would remove: the scorer over- or under-rates.",
    "variance_term": "The part no shift removes: noise, or a spread unlike people's.",
    "human_mean": "People's mean rating.",
    "scorer_mean": "The scorer's mean.",
    "human_sd": "How much people's ratings vary.",
    "scorer_sd": "How much the scorer's values vary (smaller than people's: it plays safe).",
}
#: Legends sit under the plot, so a phone's narrow screen does not squeeze the plot itself.
BELOW = {"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0.5, "xanchor": "center"}
#: The columns of the summary table, in order.
TABLE_KEYS = (
    "n",
    "pearson_r",
    "spearman_rho",
    "cohens_d",
    "wasserstein",
    "krippendorff_alpha",
    "qwk",
    "mse",
    "bias_sq",
    "variance_term",
    "f1",
    "t_stat",
    "t_p",
)


#: Readable names of the statistics, for pages (the CLI and JSON keep the keys).
LABELS: dict[str, str] = {
    "n": "replies compared",
    "pearson_r": "Pearson r",
    "spearman_rho": "Spearman ρ (rank order)",
    "cohens_d": "Cohen's d (shift)",
    "wasserstein": "Wasserstein distance",
    "krippendorff_alpha": "Krippendorff's α",
    "qwk": "weighted κ on levels",
    "mse": "mean squared error",
    "bias_sq": "… of which bias²",
    "variance_term": "… of which variance",
    "f1": "F1 on levels",
    "t_stat": "paired t",
    "t_p": "p-value of the paired t",
}
#: Statistics shown without a bootstrap interval: counts, and a test and its p-value
#: (an interval around a p-value has no useful reading).
NO_INTERVAL = frozenset({"n", "t_stat", "t_p", "pearson_t", "pearson_p"})
#: The p-values: printed "< 0.01" or "< 0.001" where two decimals would read 0.00.
P_VALUES = frozenset({"t_p", "pearson_p"})


def table_rows(
    components: Mapping[str, Mapping[str, Any]], readable: bool = False
) -> list[list[str]]:
    """One row per statistic, one column per compared name, "value [low, high]".

    ``readable`` names rows as :data:`LABELS` does (pages); else by key (CLI).

    >>> table_rows({"overall": {"n": 9, "t_p": 0.04, "ci": {"t_p": (0.01, 0.2)}}}, True)[-1]
    ['p-value of the paired t', '0.04']
    >>> table_rows({"overall": {"t_p": 0.0002, "cohens_d": -0.001}})[-1], table_rows({"overall": {"cohens_d": -0.001}})[3]
    (['t_p', '< 0.001'], ['cohens_d', '0.00'])
    """
    rows = []
    for key in TABLE_KEYS:
        row = [LABELS[key] if readable else key]
        for result in components.values():
            ci = result.get("ci", {}).get(key)
            low, high = ci if ci and key not in NO_INTERVAL else (None, None)
            value = result.get(key)
            row.append(p_value(value) if key in P_VALUES else with_interval(value, low, high))
        rows.append(row)
    return rows


def _pairs(rows: Sequence[Mapping[str, Any]], name: str) -> tuple[np.ndarray, np.ndarray]:
    h = np.array(
        [np.nan if r.get(f"human_{name}") is None else r[f"human_{name}"] for r in rows],
        dtype=float,
    )
    s = np.array(
        [np.nan if r.get(f"scorer_{name}") is None else r[f"scorer_{name}"] for r in rows],
        dtype=float,
    )
    keep = ~(np.isnan(h) | np.isnan(s))
    return h[keep], s[keep]


def scatter(
    rows: Sequence[Mapping[str, Any]], names: Sequence[str], low: float, high: float, seed: int = 0
) -> go.Figure:
    """Human rating against the scorer's value, jittered, with the identity line."""
    rng = np.random.default_rng(seed)
    fig = go.Figure()
    for name in names:
        h, s = _pairs(rows, name)
        jitter = 0.06 * (high - low)
        fig.add_trace(
            go.Scatter(
                x=h + rng.uniform(-jitter, jitter, len(h)),
                y=s + rng.uniform(-jitter, jitter, len(s)),
                mode="markers",
                name=name,
                opacity=0.55,
            )
        )
    fig.add_trace(
        go.Scatter(
            x=[low, high],
            y=[low, high],
            mode="lines",
            name="people = scorer",
            line={"dash": "dash", "color": "grey"},
        )
    )
    fig.update_layout(
        title="People (across) against the scorer (up);<br>above the line: the scorer rates higher",
        xaxis_title="people",
        yaxis_title="scorer",
        height=480,
        legend=BELOW,
    )
    return fig


def distributions(
    rows: Sequence[Mapping[str, Any]], names: Sequence[str], low: float, high: float
) -> go.Figure:
    """People's and the scorer's values overlaid, one panel per compared name."""
    fig = make_subplots(rows=1, cols=max(1, len(names)), subplot_titles=list(names))
    for col, name in enumerate(names, start=1):
        h, s = _pairs(rows, name)
        for values, who, colour in ((h, "people", "#1f77b4"), (s, "scorer", "#d62728")):
            fig.add_trace(
                go.Histogram(
                    x=values,
                    name=who,
                    legendgroup=who,
                    showlegend=col == 1,
                    opacity=0.55,
                    marker_color=colour,
                    xbins={"start": low - 0.125, "end": high + 0.125, "size": 0.25},
                ),
                row=1,
                col=col,
            )
    fig.update_layout(
        barmode="overlay", title="How the two sets of values spread", height=380, legend=BELOW
    )
    return fig


def mean_shift(components: Mapping[str, Mapping[str, Any]]) -> go.Figure:
    """Scorer mean − people's mean per compared name, with the bootstrap interval of Cohen's d beside."""
    names = list(components)
    shift = [components[n]["scorer_mean"] - components[n]["human_mean"] for n in names]
    fig = go.Figure(
        go.Bar(
            x=names,
            y=shift,
            text=[f"d = {fmt(components[n]['cohens_d'], 2)}" for n in names],
            marker_color=["#d62728" if v > 0 else "#1f77b4" for v in shift],
        )
    )
    fig.update_layout(
        title="Mean shift (scorer − people), in scale points;<br>d is Cohen's d (the shift in SDs)",
        yaxis_title="scorer − people",
        height=340,
    )
    return fig


def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return _jsonable(value.item())
    return value


def report_json(components: Mapping[str, Mapping[str, Any]], **about: Any) -> str:
    """report.json: one object per compared name (NaN written as null), each with ``about`` too."""
    return (
        json.dumps(
            {name: _jsonable({**about, **result}) for name, result in components.items()},
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    )


def _table_html(components: Mapping[str, Mapping[str, Any]]) -> str:
    head = "".join(f"<th>{html.escape(n)}</th>" for n in components)
    body = ""
    for row in table_rows(components):
        cells = "".join(f"<td>{html.escape(c)}</td>" for c in row[1:])
        tip = html.escape(EXPLAIN.get(row[0], ""))
        body += (
            f"<tr><th title='{tip}'>{html.escape(row[0])}</th>{cells}<td class='ex'>{tip}</td></tr>"
        )
    return f"<table><tr><th>statistic</th>{head}<th>what it means</th></tr>{body}</table>"


def write_html(
    path: Path, report: Mapping[str, Any], calibration: Mapping[str, Any] | None = None
) -> Path:
    """A standalone HTML page: summary, table, the three figures (and before/after calibration)."""
    comps = report["components"]
    names = list(comps)
    parts = [
        f"<h1>Alignment of {html.escape(report['scorer'])} with people</h1>",
        f"<p>Data: {html.escape(report['data'])} — {html.escape(report.get('note', ''))}. "
        f"{report['n_scored']} of {report['n_rows']} replies scored.</p>",
        _table_html(comps),
    ]
    low, high = report.get("low", 1), report.get("high", 3)
    figures = [
        scatter(report["rows"], names, low, high),
        distributions(report["rows"], names, low, high),
        mean_shift(comps),
    ]
    if calibration:
        parts.append(
            "<h2>Before calibration (rows the calibration never saw)</h2>"
            + _table_html(calibration["before"])
        )
        parts.append("<h2>After calibration (same rows)</h2>" + _table_html(calibration["after"]))
    for i, fig in enumerate(figures):
        parts.append(fig.to_html(full_html=False, include_plotlyjs="inline" if i == 0 else False))
    style = "body{font-family:sans-serif;max-width:1100px;margin:auto}td,th{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left}.ex{color:#555;font-size:90%}"
    page = f"<!doctype html><html><head><meta charset='utf-8'><title>Alignment report</title><style>{style}</style></head><body>{''.join(parts)}</body></html>"
    path.write_text(page, encoding="utf-8")
    return path
