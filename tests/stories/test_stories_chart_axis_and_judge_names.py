"""Issue 30, walk 4, the Stories page (no browser): the rating chart's axis reads 1–5 (it ran
from 0), its plots carry no "Plot" badge for Plotly's toolbar to sit over on a phone, and the
Judge dropdown shows short names (the value stays the judge's id)."""

from __future__ import annotations

from scorers.base import Score


def test_the_rating_axis_shows_the_scale_and_no_zero():
    from reports.story_charts import persona_chart, resonance_chart

    score = Score.from_values(
        "j", {"empathy": 1, "affective": 3, "cognitive": 5}, "story-evocation"
    )
    axis = persona_chart([("no persona", score)]).layout.yaxis
    assert list(axis.tickvals) == [1, 2, 3, 4, 5]
    assert 0 < axis.range[0] < 1 and 5 <= axis.range[1] < 5.5  # a rating of 1 still shows a bar
    resonance = resonance_chart({a: 2.0 for a in ("event", "emotion", "moral", "empathy")})
    assert (
        list(resonance.layout.yaxis.tickvals) == [1, 2, 3, 4]
        and resonance.layout.yaxis.range[0] > 0
    )


def test_the_stories_plots_have_no_badge_under_the_toolbar():
    from pages import stories

    plots = [b for b in stories.demo.blocks.values() if type(b).__name__ == "Plot"]
    assert len(plots) == 2 and not any(p.show_label for p in plots)


def test_the_judge_dropdown_shows_short_names_and_keeps_the_ids():
    from pages import stories

    (judge,) = [b for b in stories.demo.blocks.values() if getattr(b, "label", "") == "Judge"]
    names = dict((value, name) for name, value in judge.choices)
    assert names["judge/local/qwen2.5-coder-1.5b"] == "Local model (CPU)"
    assert list(names) == stories.JUDGES and judge.value == "judge/local/qwen2.5-coder-1.5b"
    assert all(not n.startswith("LLM judge") and len(n) <= 34 for n in names.values())
