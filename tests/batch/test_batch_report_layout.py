"""The batch report's texts fit at 1280 px and on a 390 px phone: chart titles clear the
plot, arm names never overlap, a table wider than the screen says to swipe it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from reports.batch import SHOW_CUES, BatchReport, write_report
from reports.batch_charts import TITLE_LINE_PX
from studies.batch.plan import BatchQuestion, BatchSettings, plan_rows
from studies.batch.store import RunFolder
from tests.conftest import CHROMIUM, browser_page

#: An LLM judge's name takes four title lines: its notes sat on the plot, over the "3" tick.
SCORERS = ("bert-head", "judge-weighted/local/qwen2.5-coder-1.5b")
SETTINGS = BatchSettings(
    ("human/counselchat", "local/qwen2.5-coder-1.5b", "openai-compatible/default"),
    ("study", "chain-of-empathy"),
    SCORERS,
    as_written=("human/counselchat",),
)


def realistic_run(folder: Path) -> BatchReport:
    """Five arms with long names, two scorers, a few failures; the report written."""
    questions = [BatchQuestion(str(i), f"We argue about money every week ({i})?") for i in range(6)]
    rng = np.random.default_rng(0)
    rows = []
    for task in plan_rows(questions, SETTINGS):
        row = {k: getattr(task, k) for k in ("question_id", "responder", "strategy", "sample")}
        row.update(settings_hash=task.settings_hash, question=task.question)
        if task.responder == "openai-compatible/default" and task.question_id == "0":
            row.update(status="error", error="server error (HTTP 500)")
        else:
            row.update(status="ok", reply="reply")
            for scorer in SCORERS:
                values = np.clip(2 + rng.normal(0, 0.4) + np.array([0, -0.2, 0.2]), 1, 3)
                parts = (f"{scorer}/cognitive", f"{scorer}/emotional", f"{scorer}/behavioral")
                row.update(dict(zip(parts, values, strict=True)))
                row.update({f"{scorer}/status": "ok", f"{scorer}/overall": values.mean()})
        rows.append(row)
    RunFolder(folder).open(questions, SETTINGS, "local").append_many(rows)
    return write_report(folder)


def test_every_chart_title_sits_above_its_plot(tmp_path):
    report = realistic_run(tmp_path)
    assert len(report.figures) == 6
    for fig in report.figures:
        title = fig.layout.title
        lines = title.text.count("<br>") + 1
        assert title.yref == "container" and title.y == 1 and title.yanchor == "top"
        assert fig.layout.margin.t >= title.pad.t + TITLE_LINE_PX * lines, title.text
    judge_title = report.figures[3].layout.title.text
    assert judge_title.count("<br>") + 1 == 6  # four lines of name, two of notes


def test_the_box_chart_names_its_arms_in_a_legend_not_under_the_boxes(tmp_path):
    """Five arm names under the boxes overlapped one another on a phone."""
    boxes = realistic_run(tmp_path).figures[2]
    assert boxes.data[0].type == "box" and boxes.layout.xaxis.showticklabels is False
    assert boxes.layout.showlegend and boxes.layout.legend.y < 0  # under the plot
    assert all(len(line) <= 36 for t in boxes.data for line in t.name.split("<br>"))
    assert boxes.layout.height - boxes.layout.margin.t - boxes.layout.margin.b >= 300


def test_a_wide_table_says_so_at_any_width(tmp_path):
    """At 1280 px the table of differences hid its last columns with no word about it
    (the cue showed on narrow screens only)."""
    page = realistic_run(tmp_path).path.read_text(encoding="utf-8")
    assert SHOW_CUES in page and "max-width:700px" not in page
    assert "<th>A − B, mean [95% interval]</th>" in page  # readable names (the cold walk)


@pytest.mark.slow
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
@pytest.mark.parametrize("width", [1280, 390])
def test_in_a_browser_titles_clear_the_plots_and_the_wide_table_is_cued(tmp_path, width):
    report = realistic_run(tmp_path)
    with browser_page(width, 900) as tab:
        tab.goto(report.path.as_uri())
        tab.locator(".js-plotly-plot .main-svg").nth(len(report.figures) - 1).wait_for()
        tab.wait_for_timeout(500)
        found = tab.evaluate(LAYOUT_JS)
    assert found["titles_on_plots"] == [], found
    assert found["overlapping_ticks"] == [], found
    if width == 390:
        assert found["cues"][1] is True  # the differences table is wider than the phone
    assert all(shown == wide for shown, wide in zip(found["cues"], found["wide"], strict=True))


#: Titles whose box reaches into the plot area (or the polar's labels) below them; tick
#: labels of one axis that overlap; and, per table, whether its cue shows and it is wider.
LAYOUT_JS = """() => {
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const titles = [], ticks = [];
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const title = plot.querySelector('.gtitle').getBoundingClientRect();
    const below = [...plot.querySelectorAll('.bglayer rect, .angularaxistick text, .ytick text')];
    if (below.some(el => title.bottom > el.getBoundingClientRect().top + 1)) titles.push(plot.querySelector('.gtitle').textContent);
    const xs = [...plot.querySelectorAll('.xtick text')].map(t => t.getBoundingClientRect());
    for (let i = 1; i < xs.length; i++) if (overlap(xs[i - 1], xs[i])) ticks.push(i);
  }
  const wides = [...document.querySelectorAll('.wide')];
  return {titles_on_plots: titles, overlapping_ticks: ticks,
          cues: wides.map(w => getComputedStyle(w.previousElementSibling).display !== 'none'),
          wide: wides.map(w => w.scrollWidth > w.clientWidth + 1)};
}"""
