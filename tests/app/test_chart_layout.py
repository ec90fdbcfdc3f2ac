"""Charts that read at 1280 px and on a 390 px phone (issue 30 point 6). The screenshots that
showed each problem and its fix are described in the commit; these checks hold the causes
away: a legend beside a plot, labels cut inside words, an empty chart drawn over a grid."""

from __future__ import annotations

import pandas as pd

from reports import batch as batch_charts
from reports.charts import NO_SCORES, radar_by_responder, radar_by_scorer
from reports.layout import wrap
from reports.votes import shares_chart
from studies.votes.tally import SourceResult

ARMS = [
    ("human/counselchat", "as-written"),
    ("openai-compatible/default", "study"),
    ("openai-compatible/default", "chain-of-empathy"),
    ("openai-compatible/default", "reader-persona"),
]


def _summary() -> pd.DataFrame:
    rows = [
        {"scorer": "bert-head", "responder": r, "strategy": s, "component": c,
         "mean": 1.5 + 0.2 * k, "ci_low": 1.3 + 0.2 * k, "ci_high": 1.7 + 0.2 * k}
        for k, (r, s) in enumerate(ARMS)
        for c in ("cognitive", "emotional", "behavioral", "overall")
    ]  # fmt: skip
    return pd.DataFrame(rows)


def test_wrapping_never_cuts_a_word():
    """ "Behaviora/l" was split mid-word."""
    for text in ("Behavioral", "judge-weighted/local/qwen2.5-coder-1.5b", "a " * 40):
        for width in (4, 12, 24, 36):
            words = text.split()
            assert wrap(text, width).replace("<br>", " ").split() == words


def test_batch_legends_sit_under_the_plot_which_keeps_its_size():
    """At 1280 px the legend beside the radar shrank it to a thumbnail."""
    radar = batch_charts.radar(_summary(), "bert-head")
    bars = batch_charts.bars(_summary(), "bert-head")
    for fig in (radar, bars):
        legend, margin = fig.layout.legend, fig.layout.margin
        assert legend.orientation == "v" and legend.y < 0 and legend.yanchor == "top"
        assert fig.layout.height - margin.t - margin.b >= 300  # the plot keeps 300 px or more
        assert all(len(line) <= 36 for t in fig.data for line in t.name.split("<br>"))
    assert list(radar.layout.polar.radialaxis.range) == [1, 3]
    assert list(radar.layout.polar.radialaxis.tickvals) == [1, 2, 3]
    one = batch_charts.radar(_summary()[_summary()["strategy"] == "study"], "bert-head")
    assert radar.layout.height > one.layout.height  # the legend's lines add height, not steal it


def test_the_vote_chart_fits_a_phone():
    """On a phone the labels and the title were cut."""
    sources = [
        "human/counselchat",
        "local/qwen2.5-coder-1.5b#chain-of-empathy",
        "teacher/a friend's reply",
    ]
    results = [
        SourceResult(s, 0.0, -0.1, 0.1, 0.2 * i, 0.1, 10, 2 * i, 1) for i, s in enumerate(sources)
    ]
    fig = shares_chart(results)
    assert fig.layout.yaxis.automargin is True and fig.layout.margin.l <= 30
    assert all(len(line) <= 22 for label in fig.data[0].y for line in label.split("<br>"))
    assert all(len(line) <= 40 for line in fig.layout.title.text.split("<br>"))
    assert fig.layout.legend.y < 0  # under the plot


def test_an_empty_chart_says_so_without_axes_or_grid():
    """Before any scores the radar showed "(no scores yet)" over a grid up to 4."""
    for fig in (radar_by_scorer({}), radar_by_responder({}), shares_chart([])):
        assert not fig.data and fig.layout.xaxis.visible is False
        assert fig.layout.yaxis.visible is False and fig.layout.polar.radialaxis.range is None
        (note,) = fig.layout.annotations
        assert "yet" in note.text
    assert radar_by_scorer({}).layout.annotations[0].text.replace("<br>", " ") == NO_SCORES


def test_batch_arms_keep_their_responders_compare_colour_and_differ_from_each_other():
    """Batch's radar and bars coloured arms in Plotly's own order, unlike Compare's charts; a
    responder's first arm now has its Compare colour and its other arms colours of their own."""
    from reports.colors import color_for

    summary = _summary()
    for figure in (
        batch_charts.radar(summary, "bert-head"),
        batch_charts.bars(summary, "bert-head"),
    ):
        colours = [
            t.line.color if t.type == "scatterpolar" else t.marker.color for t in figure.data
        ]
        assert colours[0] == color_for("human/counselchat")
        assert colours[1] == color_for("openai-compatible/default")
        assert len(set(colours)) == len(ARMS)


def test_radar_shapes_that_coincide_still_show_as_separate_outlines():
    """Three judges giving 3/3/3 drew one shape: each member has its own line style, the same
    in every subplot."""
    from scorers.base import Score

    same = Score.from_components("x", 3, 3, 3)
    table = {(r, s): same for r in ("a", "b") for s in ("judge-1", "judge-2", "judge-3")}
    figure = radar_by_responder(table)
    styles = {(t.name, t.line.dash) for t in figure.data}
    assert len({dash for _, dash in styles}) == 3  # three judges, three line styles
    assert len(styles) == 3  # each judge keeps its style on both responders' radars
