"""Layout the charts share, so a chart reads on a 1280 px screen and on a 390 px phone.

- :func:`legend_below`: the legend under the plot, one entry a line, with the figure made
  taller by the legend's height, so a long legend never shrinks the plot to a thumbnail
  (a legend beside the plot takes its width; Plotly does not wrap legend text).
- :func:`wrap`: labels broken between words (never inside one) onto short lines.
- :func:`empty_figure`: a figure with a message and no axes or grid, for before any data.

>>> wrap("OpenAI-compatible server: default · Chain of Empathy (reason about the emotion first)")
'OpenAI-compatible server: default ·<br>Chain of Empathy (reason about the<br>emotion first)'
>>> wrap("Behavioral", 6)
'Behavioral'
"""

from __future__ import annotations

import textwrap

import plotly.graph_objects as go

#: Pixels one legend line takes (the default 12 px font and its spacing).
LEGEND_LINE_PX = 21
#: A label line's characters: fits a 390 px phone beside a legend swatch.
LABEL_WIDTH = 36


def wrap(text: str, width: int = LABEL_WIDTH) -> str:
    """``text`` on lines of at most ``width`` characters, broken only between words."""
    lines = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
    return "<br>".join(lines) or text


def lines_of(labels: list[str]) -> int:
    """How many lines these (wrapped) labels take in a legend."""
    return sum(label.count("<br>") + 1 for label in labels)


def legend_below(
    fig: go.Figure,
    legend_lines: int,
    *,
    plot_px: int = 320,
    top_px: int = 90,
    below_plot_px: int = 40,
    side_px: int = 40,
) -> go.Figure:
    """Put the legend under the plot, one entry a line, and size the figure so the plot
    area stays ``plot_px`` tall whatever the legend holds. ``below_plot_px`` leaves room
    for the x axis's tick labels and title between the plot and the legend.

    >>> fig = legend_below(go.Figure(), 4)
    >>> fig.layout.height, fig.layout.margin.b, fig.layout.legend.orientation
    (544, 134, 'v')
    """
    legend_px = legend_lines * LEGEND_LINE_PX + 10
    bottom = below_plot_px + legend_px
    fig.update_layout(
        height=top_px + plot_px + bottom,
        margin={"t": top_px, "b": bottom, "l": side_px, "r": side_px},
        legend={
            "orientation": "v",
            "x": 0,
            "xanchor": "left",
            "y": -below_plot_px / plot_px,
            "yanchor": "top",
        },
    )
    return fig


def empty_figure(message: str, height: int = 220) -> go.Figure:
    """A figure holding only ``message``, centred on short lines: no axes, grid or ticks
    (an empty chart once showed "(no scores yet)" over a grid running to 4).

    >>> fig = empty_figure("No scores yet.")
    >>> fig.layout.xaxis.visible, fig.layout.annotations[0].text
    (False, 'No scores yet.')
    """
    fig = go.Figure()
    fig.add_annotation(
        text=wrap(message),
        x=0.5,
        y=0.5,
        xref="paper",
        yref="paper",
        showarrow=False,
        font={"size": 14, "color": "#555"},
    )
    fig.update_layout(
        xaxis={"visible": False},
        yaxis={"visible": False},
        plot_bgcolor="rgba(0,0,0,0)",
        height=height,
        margin={"t": 20, "b": 20, "l": 20, "r": 20},
    )
    return fig
