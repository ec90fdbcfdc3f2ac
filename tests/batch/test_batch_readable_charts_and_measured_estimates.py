"""Newcomer walk, Batch: the charts' titles were covered (at 1280 px by the plot's label
badge, "(MiniLM + / trained head)"; at 390 px by the toolbar too); the report's tables
showed raw column names (arm_a, n_questions, p_holm, significant False); and the time
estimates were about ten times too long ("30–100 s each", "ETA 2–8 min") where the
default batch took 30 s. Screenshots go to ``test-artifacts/walk-fixes/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import ROOT
from pages import batch
from pages.widgets.visitor import ensure_visitor
from reports.batch import TERMS, TOOLBAR_PX
from tests.batch.test_batch_report_layout import realistic_run
from tests.conftest import CHROMIUM, browser_page

SHOTS = ROOT / "test-artifacts" / "walk-fixes"
RAW_NAMES = ("arm_a", "arm_b", "n_questions", "mean_difference", "diff_low", "p_holm",
             "significant", "cohens_d", "ci_low", "ci_high")  # fmt: skip


def test_the_plan_line_is_computed_from_the_rows_at_the_measured_pace() -> None:
    line = batch.plan_line(*batch._PLAN_DEFAULTS)
    assert line == (
        "10 replies planned (5 from the local model, one at a time: about 6 s each on a "
        "2-core CPU, up to about 11 s when a reply runs to its 200-token limit). Expect about "
        "30 s, at most about 55 s."
    )  # the walk measured 30 s for this plan
    n, seed, source, upload, responders, strategies, _, samples = batch._PLAN_DEFAULTS
    longer = batch.plan_line(20, seed, source, upload, responders, strategies, 200, samples)
    assert "Expect about 2 min" in longer  # four times the rows, four times the time
    short = batch.plan_line(n, seed, source, upload, responders, strategies, 64, samples)
    assert "its 64-token limit" not in short and "about 4 s each" in short
    assert "30–100" not in batch.INTRO


def test_the_running_time_left_is_never_the_fixed_guess(tmp_path, monkeypatch) -> None:
    """Before the first reply the engine guessed a fixed range ("ETA 2–8 min" for a
    30 s batch); the page shows only this run's own pace."""
    monkeypatch.setattr(batch, "RUNS_DIR", tmp_path)
    said: list[str] = []
    status, *_ = batch.run_page(
        3, 0, batch.BUNDLED, None, ["human/counselchat"], ["study"], [], 64, 1, "eta",
        ensure_visitor(None), "", "", "", "",
        progress=lambda *_, desc="", **__: said.append(desc),
    )  # fmt: skip
    assert "**3** replies made" in status
    assert said and not any("a guess" in line for line in said), said
    assert "time left: known after the first reply" in said[0]


def test_the_report_tables_have_readable_names_and_plain_values(tmp_path) -> None:
    report = realistic_run(tmp_path)
    page = report.path.read_text(encoding="utf-8")
    tables = page[page.index("<h2>Differences between arms</h2>") :]
    for raw in RAW_NAMES:
        assert raw not in tables, raw
    for header in ("arm A", "arm B", "questions", "A − B, mean [95% interval]", "Cohen's d",
                   "p, Holm-corrected", "differ (Holm p &lt; 0.05)", "replies scored",
                   "mean [95% interval]", "what failed"):  # fmt: skip
        assert f"<th>{header}</th>" in tables, header
    assert "<td>False</td>" not in tables and "<td>True</td>" not in tables
    assert "<td>no</td>" in tables or "<td>yes</td>" in tables
    assert "<td>Licensed therapist (CounselChat) · as written (no prompt)</td>" in tables
    assert [term for term, _ in TERMS][1:] == [
        "A − B, mean [95% interval]",
        "Cohen's d",
        "Wasserstein",
        "p, p Holm-corrected, differ",
    ]  # the reading guide names the columns as the tables do
    raw = (tmp_path / "tests.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "p_holm" in raw and "significant" in raw  # the CSV for analysis keeps its names


def test_every_chart_title_starts_below_the_toolbar(tmp_path) -> None:
    for fig in realistic_run(tmp_path).figures:
        assert fig.layout.title.pad.t >= TOOLBAR_PX + 20, fig.layout.title.text


def test_the_page_charts_have_no_label_badge() -> None:
    plots = [b for b in batch.demo.blocks.values() if type(b).__name__ == "Plot"]
    assert len(plots) == 2 and not any(p.show_label for p in plots)


#: Per chart: its title's box, the toolbar's, and the Gradio label badges over the chart.
COVERED_JS = """() => {
  const box = el => el && el.getBoundingClientRect();
  const meet = (a, b) => a && b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const badges = [...document.querySelectorAll('[data-testid=block-label]')].map(box);
  return [...document.querySelectorAll('.js-plotly-plot')].map(plot => {
    const title = box(plot.querySelector('.gtitle'));
    return {title: plot.querySelector('.gtitle').textContent,
            by_toolbar: meet(title, box(plot.querySelector('.modebar'))),
            by_badge: badges.some(b => meet(title, b))};
  });
}"""


@pytest.mark.slow
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_in_a_browser_the_chart_titles_are_uncovered(tmp_path, monkeypatch, size) -> None:
    from pages.widgets.style import CSS

    monkeypatch.setattr(batch, "RUNS_DIR", tmp_path)
    page = batch.build()
    page.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1", css=CSS)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        with browser_page(size[0], size[1]) as tab:
            tab.goto(page.local_url)
            tab.get_by_label("Local model", exact=False).first.uncheck()  # therapists only
            tab.get_by_role("button", name="Run", exact=True).click()
            plot = tab.locator(".js-plotly-plot").first
            plot.wait_for(timeout=120_000)
            tab.wait_for_timeout(1000)
            plot.scroll_into_view_if_needed()
            plot.hover()  # the toolbar shows while the pointer is over the chart
            tab.wait_for_timeout(500)
            found = tab.evaluate(COVERED_JS)
            tab.screenshot(path=str(SHOTS / f"batch-chart-titles-{size[0]}.png"))
    finally:
        page.close()
    assert len(found) == 2, found
    for chart in found:
        assert chart["title"].startswith("Empathy head (MiniLM +trained head)"), chart
        assert not chart["by_toolbar"] and not chart["by_badge"], chart
