"""Walk 5 on Compare, in a real headless Chromium at 1280x900 and 390x844: on a phone a radar's
legend was cut at the right edge ("…(safety: uncerta") and an axis name ("Emotional") could sit
on a data point. Legend names now wrap onto lines that fit (the safety wording kept whole), and
the axis names stand off the rim, where a point scored 3 sits. Screenshots: ``/tmp/v34/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import gradio as gr
import pytest

from core.questions import load_questions
from pages.compare_updates import safety_marked
from pages.widgets.radar_fit import fit_radars
from pages.widgets.scores import names
from reports.charts import radar_by_scorer
from scorers.base import Score
from scorers.safety import SafetyResult
from tests.conftest import require_chromium, served

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/v34")
HUMAN, LOCAL = "human/counselchat", "local/qwen2.5-coder-1.5b"
UNSURE = SafetyResult(0, (), 0, ("dismissive",), reason="uncertain: read it yourself")
MARK = " (safety: uncertain)"
#: Each angular axis name and how many data points its box meets.
LABELS_ON_POINTS_JS = """plot => {
  const box = e => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const points = [...plot.querySelectorAll('.scatterlayer .point')].map(box);
  return [...plot.querySelectorAll('.angularaxistick text')]
    .map(t => [t.textContent, points.filter(p => meet(box(t), p)).length]);
}"""

require_chromium()


def outside_the_chart(chart) -> list[str]:  # type: ignore[no-untyped-def]
    """Legend texts of ``chart`` whose box runs past its left or right edge."""
    edge = chart.bounding_box()
    out = []
    for text in chart.locator(".legendtext").all():
        box = text.bounding_box()
        if box["x"] < edge["x"] - 1 or box["x"] + box["width"] > edge["x"] + edge["width"] + 1:
            out.append(text.text_content())
    return out


def legend_names(chart) -> list[str]:  # type: ignore[no-untyped-def]
    """The legend's names as written (a wrapped name's lines joined by a space)."""
    texts = chart.locator(".legendtext").all()
    return [t.get_attribute("data-unformatted").replace("<br>", " ") for t in texts]


@pytest.fixture(scope="module")
def radar_url() -> Iterator[str]:
    """Compare's by-scorer radar for two replies the safety screen was unsure of, the
    therapist's scored 3 on every axis (its points on the rim, under the axis names)."""
    marked = safety_marked(names, {HUMAN: UNSURE, LOCAL: UNSURE})
    scores = {
        (HUMAN, "bert-head"): Score.from_components("bert-head", 3, 3, 3),
        (LOCAL, "bert-head"): Score.from_components("bert-head", 1.5, 2.9, 2),
    }
    with gr.Blocks() as page:
        gr.Plot(radar_by_scorer(scores, marked))
        fit_radars(page)
    with served(page) as address:
        yield address


def test_long_marked_names_fit_and_axis_names_clear_the_points(radar_url, tab):
    from playwright.sync_api import expect

    tab.goto(radar_url)
    chart = tab.locator(".js-plotly-plot").first
    expect(chart.locator(".legendtext")).to_have_count(2, timeout=30_000)
    chart.scroll_into_view_if_needed()
    tab.wait_for_timeout(500)
    tab.screenshot(path=str(SHOTS / f"radar-long-names-{tab.width}.png"))
    assert legend_names(chart) == [names(HUMAN) + MARK, names(LOCAL) + MARK]
    assert outside_the_chart(chart) == []
    labels = chart.evaluate(LABELS_ON_POINTS_JS)
    assert len(labels) == 3 and all(count == 0 for _, count in labels), labels


def uncertain_question() -> int:
    """The first bundled question whose therapist's answer the safety screen is unsure of."""
    from scorers.safety.check import check

    for index, item in enumerate(load_questions()):
        if check(item.question, item.answer).verdict == "uncertain":
            return index
    pytest.skip("the safety screen is sure of every bundled answer")


@pytest.fixture(scope="module")
def compare_url() -> Iterator[str]:
    from pages import compare

    with served(compare.build()) as address:
        yield address


def test_on_compare_the_therapists_uncertain_name_reads_in_full(compare_url, tab):
    """The walk's journey: a bundled question, the therapist's answer, the empathy head."""
    from playwright.sync_api import expect

    picked = uncertain_question()
    tab.goto(compare_url)
    tab.get_by_label("Pick a bundled question").click()
    tab.get_by_role("option").nth(picked).click()
    question = load_questions()[picked].question
    expect(tab.locator("textarea").first).to_have_value(question, timeout=10_000)
    tab.locator(f"input[type=checkbox][name='{LOCAL}']").uncheck()
    tab.get_by_role("button", name="Get replies").click()
    expect(tab.locator("#compare-progress")).to_contain_text("Done.", timeout=60_000)
    chart = tab.locator(".js-plotly-plot").first
    expect(chart.locator(".legendtext")).to_have_count(1, timeout=10_000)
    chart.scroll_into_view_if_needed()
    tab.wait_for_timeout(500)
    tab.screenshot(path=str(SHOTS / f"compare-radar-{tab.width}.png"))
    assert legend_names(chart) == [names(HUMAN) + MARK]
    assert outside_the_chart(chart) == []
