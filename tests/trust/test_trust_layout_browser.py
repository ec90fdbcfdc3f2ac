"""The Trust page's agreement results in a headless Chromium at 1280 and 390 px: the
statistics table wraps its explanations inside the page (at 1280 px they ran past the
table's right edge, cut off) and shows every row, and no chart title runs past its chart
or onto its plot. The scorer is a fast stand-in, so the test needs no model."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scorers.base import Score, Scorer
from tests.conftest import browser_page, require_chromium

pytestmark = pytest.mark.slow
require_chromium()


class Varied(Scorer):
    """Scores that differ from reply to reply (by length), so every chart has something."""

    id = "varied"

    def _score_batch(self, items):
        values = [1 + (len(item.reply) % 21) / 10 for item in items]
        return [Score.from_components(self.id, v, v, v) for v in values]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from pages import trust
    from pages.widgets.launch import launch_options
    from pages.widgets.style import CSS

    patch = pytest.MonkeyPatch()
    patch.setattr(trust, "checked_scorer", lambda *a: Varied())
    page = trust.build()
    page.queue().launch(
        prevent_thread_lock=True, quiet=True, server_name="127.0.0.1", css=CSS, **launch_options()
    )
    try:
        yield page.local_url
    finally:
        page.close()
        patch.undo()


#: Per statistics table: whether it runs past its box sideways, and whether rows hide below;
#: per chart: title texts outside the chart or on the plot.
LAYOUT_JS = """() => {
  const tables = [...document.querySelectorAll('.table-wrap')].filter(t => t.offsetParent);
  const rows = tables.map(t => {
    const views = [...t.querySelectorAll('.virtual-table-viewport')];
    return {wider: views.some(v => v.scrollWidth > v.clientWidth + 1),
            hidden_rows: views.some(v => v.scrollHeight > v.clientHeight + 2)};
  });
  const titles = [];
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const svg = plot.querySelector('svg.main-svg').getBoundingClientRect();
    const title = plot.querySelector('.gtitle');
    const r = title.getBoundingClientRect();
    const plotTop = Math.min(...[...plot.querySelectorAll('.bglayer rect')].map(b => b.getBoundingClientRect().top));
    if (r.left < svg.left - 1 || r.right > svg.right + 1 || r.bottom > plotTop + 1) titles.push(title.textContent);
  }
  return {tables: rows, titles};
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_the_agreement_results_fit(url, width):

    with browser_page(width, 900) as tab:
        tab.goto(url)
        tab.get_by_role("button", name="Compare with people").click()
        tab.get_by_text("replies scored").first.wait_for(timeout=120_000)
        tab.wait_for_timeout(1500)  # the tables' widths arrive in their own step
        found = tab.evaluate(LAYOUT_JS)
    (table,) = found["tables"]
    assert not table["hidden_rows"], found
    if width == 1280:  # on a phone the table scrolls sideways, under a cue that says so
        assert not table["wider"], found
    assert found["titles"] == [], found
