"""The Adversarial lab (issue 30 point 8): a small change looks small on the change chart,
one progress line shows while it runs, and an example leaves the judge room to rise."""

from __future__ import annotations

import pytest

from perturbations.base import Variant
from reports.lab import MIN_CHANGE_RANGE, change_chart
from scorers.base import Score
from studies import robustness as rb


def _row(pid: str, before: float, after: float, scorer: str = "bert-head") -> rb.VariantScores:
    change = rb.Change(
        0,
        pid,
        scorer,
        Score.from_components(scorer, before, before, before),
        Score.from_components(scorer, after, after, after),
    )
    return rb.VariantScores(Variant(pid, "a", "b", 0, None, "rule"), {scorer: change})


def _range(fig) -> list[float]:
    return list(fig.layout.xaxis.range)


def test_a_small_change_is_drawn_on_a_fixed_axis_of_at_least_half_a_point():
    """The delta axis autoscaled: ±0.15 made +0.06 look large on a 1–3 scale."""
    fig = change_chart([_row("leetspeak", 2.0, 2.06), _row("typos", 2.0, 1.98)])
    low, high = _range(fig)
    assert low == -high and high >= MIN_CHANGE_RANGE == 0.5
    assert fig.layout.xaxis.autorange in (None, False)


@pytest.mark.parametrize("delta", [-1.3, 0.62, 2.0])
def test_a_larger_change_widens_the_axis_evenly_and_stays_inside_it(delta):
    fig = change_chart([_row("strip-empathy", 2.0 - delta / 2, 2.0 + delta / 2)])
    low, high = _range(fig)
    assert low == -high and high > abs(delta) and high >= 0.5


def test_the_bundled_examples_charts_are_on_the_fixed_axis():
    from pages.adversarial import EXAMPLES, pick_example

    for example in EXAMPLES:
        _reply, _message, _table, chart, *_ = pick_example(example["name"])
        deltas = [x for bar in chart.data for x in bar.x if x is not None]
        low, high = _range(chart)
        assert low == -high >= -3 and high >= max(0.5, *(abs(d) for d in deltas))


def test_the_lab_shows_one_progress_line_on_the_chart():
    """Two progress lines overlapped while the lab's judge ran: every output drew one, and
    the empty note's and table's, with no height, sat on the chart's top edge.
    (Screenshots: test-artifacts/issue30/8b-lab-progress-before.png and -after.png.)"""
    import gradio as gr

    from pages import adversarial

    (lab,) = [f for f in adversarial.demo.fns.values() if f.api_name == "lab"]
    (shown_on,) = lab.show_progress_on
    assert isinstance(shown_on, gr.Plot) and shown_on in lab.outputs


@pytest.mark.slow
def test_an_example_leaves_the_local_judge_room_to_rise_under_judge_injection():
    """The "Formulaic warmth" example got 3/3/3 from the judge, so judge-injection showed
    +0.00 only because the score was capped. One example now starts low, and the page says
    why a score at the top cannot rise."""
    from pages import adversarial
    from scorers.registry import SAMPLED_JUDGE, get_scorer

    (example,) = [e for e in adversarial.EXAMPLES if "room to rise" in e["name"]]
    score = get_scorer(SAMPLED_JUDGE).score(example["reply"], example["message"])
    assert score.ok and score.overall <= 2.0, score  # at least a point below the top
    texts = [str(getattr(b, "value", "")) for b in adversarial.demo.blocks.values()]
    assert any("already at the top of the scale (3) cannot rise" in t for t in texts)
    capped = {"s": Score.from_components("s", 3, 3, 3)}
    assert "cannot rise" in adversarial.at_the_top(capped)
