"""Radar grids that fit their chart's width: two radars a row on a wide screen, one on a phone.

A Plotly grid's subplots share the figure's width, so on a 390 px phone two radars side by
side overlapped (titles over each other, axis names cut). The figure (see
:func:`reports.charts._fit_to_width`) carries both arrangements in ``layout.meta``; this
script, run once when the page loads, applies the one that fits each chart whenever the
chart is drawn, redrawn or resized (Gradio draws charts responsive to their container).
"""

from __future__ import annotations

import gradio as gr

#: Runs in the browser. A chart is fitted after each draw (``plotly_afterplot``, which a
#: resize also fires); charts drawn later are found as they appear.
FIT_RADARS_JS = """
() => {
  if (window.empathyLabRadarFit) return;
  const fit = (gd) => {
    const meta = gd.layout && gd.layout.meta;
    if (!meta || !meta.narrow || !window.Plotly || !gd.clientWidth) return;
    const want = gd.clientWidth < meta.narrow_below ? meta.narrow : meta.wide;
    if (gd.layout.height !== want.height) window.Plotly.relayout(gd, want);
  };
  const hook = () => {
    document.querySelectorAll('.js-plotly-plot').forEach((gd) => {
      if (!gd.empathyLabFit && typeof gd.on === 'function') {
        gd.empathyLabFit = true;
        gd.on('plotly_afterplot', () => fit(gd));
      }
      fit(gd);
    });
  };
  window.empathyLabRadarFit = new MutationObserver(hook);
  window.empathyLabRadarFit.observe(document.body, {childList: true, subtree: true});
  hook();
}
"""


def fit_radars(page: gr.Blocks) -> None:
    """Have ``page`` fit its radar grids to their width in the browser (no server call)."""
    page.load(None, js=FIT_RADARS_JS, api_name=False)
