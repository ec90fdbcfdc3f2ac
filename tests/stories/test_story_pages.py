"""The Stories and Resonance pages: their functions with a fake judge, and the Resonance page
driven headlessly through gradio_client with the packaged encoder."""

from __future__ import annotations

import csv

import gradio as gr
import pytest

from core.stories import load_stories
from pages import resonance as resonance_page
from pages import stories as stories_page
from pages.stories import AGREEMENT_HEADERS
from scorers.judge import story as story_module
from tests.stories.test_stories import FakeJudge, rating

NO_OPTIONS = (1, 0.0, "", "", "", "")  # samples, temperature, persona parts
STORY = "I moved to a new city alone and cried every night for a month."


@pytest.fixture
def fake_story_judge(monkeypatch):
    responder = FakeJudge(
        answer=lambda msg, system: rating(5, 4, 4) if "high empathic" in system else rating(3, 2, 4)
    )
    real = story_module.base.judge_responder

    def judge_responder(spec: str, **options):  # type: ignore[no-untyped-def]
        real("judge", **options) if spec.startswith("judge") else real(spec, **options)
        return responder  # ids are still checked by the real parser

    monkeypatch.setattr(story_module.base, "judge_responder", judge_responder)
    story_module._JUDGES.clear()
    yield responder
    story_module._JUDGES.clear()


def test_rate_story_shows_the_three_ratings_and_the_persona(fake_story_judge):
    (row,), chart = stories_page.rate_story(STORY, "judge/fake/v1", 1, 0.0, "", "high", "", "yes")
    assert chart.data, "a single rating is drawn too (the chart stayed empty before)"
    assert row[:4] == ["high concern, shared experience", 5.0, 4.0, 4.0]
    assert row[4] == "ok" and row[5] == "moved"


def test_rate_story_refuses_empty_text_and_non_judges(fake_story_judge):
    with pytest.raises(gr.Error, match="empty"):
        stories_page.rate_story("  ", "judge/fake/v1", *NO_OPTIONS)
    with pytest.raises(gr.Error, match="not a judge"):
        stories_page.rate_story(STORY, "bert-head", *NO_OPTIONS)


def test_persona_grid_table_and_chart(fake_story_judge):
    table, chart = stories_page.run_grid(STORY, "judge/fake/v1", *NO_OPTIONS)
    assert table[0][0] == "no persona" and len(table) == 5
    assert [r[1] for r in table] == [3.0, 3.0, 3.0, 5.0, 5.0]
    assert len(chart.data) == 3 and list(chart.data[0].y) == [3.0, 3.0, 3.0, 5.0, 5.0]


def test_human_comparison_table_chart_and_caution(fake_story_judge):
    table, chart, note = stories_page.run_comparison(5, "judge/fake/v1", *NO_OPTIONS)
    assert [r[1] for r in table] == [5, 5, 5]
    human_mean = sum(s.empathizable for s in load_stories()[:5]) / 5
    assert table[0][5] == round(human_mean, 2) and table[0][4] == 3.0
    assert "one crowd worker" in note and sum(chart.data[0].y) == 5
    p_columns = [AGREEMENT_HEADERS.index(h) for h in AGREEMENT_HEADERS if "p" in h.split()]
    for row in table:  # a tiny p-value reads "< 0.001", never 0.0 (issue 30)
        assert all(row[i] != 0 and row[i] != "0.000" for i in p_columns), row


def test_example_story_shows_attribution():
    first = load_stories()[0]
    text, credit = stories_page.pick_example(first.choice_label)
    assert text == first.story and "Shen" in credit and first.story_id in credit


@pytest.fixture(scope="module")
def client():
    from gradio_client import Client

    demo = resonance_page.build()
    demo.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1")
    try:
        yield Client(demo.local_url, verbose=False)
    finally:
        demo.close()


def test_resonance_page_rates_a_pair_finds_matches_and_rates_a_file(client, tmp_path):
    a, b = load_stories()[0].story, load_stories()[1].story
    verdict, chart = client.predict(a, b, "embedding", "", "", "", "", api_name="/rate_pair")
    assert "of 4" in verdict and "Position bias" not in verdict
    # the embedding compares whole stories: one similarity, said so, and no four equal bars
    assert "one number, not four" in verdict and chart is None
    notice, found = client.predict(a, "embedding", 3, "", "", "", "", api_name="/find")
    assert notice == ""
    ids = [row[0] for row in found["data"]]
    assert len(ids) == 3 and load_stories()[0].story_id not in ids
    # one similarity per match, under Overall; the aspects it cannot tell apart show '–'
    assert all(row[2:5] == ["–", "–", "–"] and isinstance(row[5], float) for row in found["data"])
    path = tmp_path / "pairs.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["story_a", "story_b", "human_empathy"])
        writer.writeheader()
        for i, label in enumerate([1, 2, 3, 4]):
            writer.writerow(
                {"story_a": a, "story_b": load_stories()[i + 1].story, "human_empathy": label}
            )
    from gradio_client import handle_file

    _notice, metrics, rated = client.predict(handle_file(str(path)), "embedding", "", "", "", "",
                                             api_name="/rate_file")  # fmt: skip
    (row,) = metrics["data"]
    assert row[0] == "empathy" and row[1] == 4
    with open(rated, encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 4 and all(r["status"] == "ok" for r in rows)


def test_resonance_page_explains_bad_input(client):
    verdict, _ = client.predict("", "x", "embedding", "", "", "", "", api_name="/rate_pair")
    assert verdict.startswith("⚠️") and "empty" in verdict  # a lasting notice, not a toast


def test_position_bias_warning_text():
    from scorers.resonance import PairRating

    values = dict.fromkeys(("event", "emotion", "moral", "empathy"), 2.5)
    text = resonance_page.rating_markdown(PairRating("judge/x", values, order_gap=1.25))
    assert "Position bias" in text and "1.25" in text
    calm = resonance_page.rating_markdown(PairRating("judge/x", values, order_gap=0.5))
    assert "Position bias" not in calm


def _wired(page, fn=None, api_name=None) -> object:
    """The page's event that runs ``fn`` (or is called ``api_name``)."""
    (found,) = [
        f
        for f in page.fns.values()
        if (fn is not None and f.fn is fn) or (api_name and f.api_name == api_name)
    ]
    return found


def test_pasting_a_story_clears_the_example_picker_and_its_credit():
    """Issue 30 (7b): after a visitor pasted their own story the picker still said
    "dev-0" and credited it."""
    first = load_stories()[0]
    assert stories_page.story_edited(STORY, first.choice_label) == (None, "")
    # an edit that leaves the example's story as it was keeps the picker and credit
    kept = stories_page.story_edited(first.story, first.choice_label)
    assert all(isinstance(v, type(gr.skip())) for v in kept)
    event = _wired(stories_page.demo, stories_page.story_edited)
    story_box, picker = event.inputs
    assert [t[1] for t in event.targets] == ["input"] and event.targets[0][0] == story_box._id
    assert [type(o).__name__ for o in event.outputs] == ["Dropdown", "Markdown"]
    assert event.outputs[0] is picker  # the picker itself, and the credit under it


def test_a_story_over_the_limit_is_refused_plainly_before_any_judge_runs(fake_story_judge):
    """Issue 30 (7b): a 20,000-character paste was counted as 20,389 (the whole prompt)
    and reported as "the judge failed". Now: the story's own count, cleaned as the limit
    counts it, and no judge is asked."""
    from core.textinput import clean_text
    from scorers.judge.story import max_story_chars

    limit = max_story_chars()
    pasted = ("I lost my job and my flat in one week.\r\n" * 600)[:20_000]
    counted = len(clean_text(pasted, limit=10**6))
    assert counted < 20_000  # the paste's \r\n count once, as the limit counts them
    for api_name in ("rate_story", "persona_grid"):
        handler = _wired(stories_page.demo, api_name=api_name).fn
        notice, *_ = handler(pasted, "judge/fake/v1", *NO_OPTIONS)
        assert notice == (
            f"⚠️ The story is {counted:,} characters long; the limit is {limit:,}. "
            "Shorten it (keep the part that matters most) and try again."
        )
    assert fake_story_judge.prompts == []  # refused before any judge ran
    # a story as long as the limit fits the judge's prompt, questions included
    longest = ("I lost my job and my flat in one week. " * 600)[:limit]
    (row,), _chart = stories_page.rate_story(longest, "judge/fake/v1", *NO_OPTIONS)
    assert row[4] == "ok", row[5]
    # through the judge alone (the studies' way) the reason is the same plain refusal
    judge = story_module.get_story_judge("judge/fake/v1")
    score = judge.score(longest + " and then some more")
    assert score.status == "unscored" and score.reason.startswith("The story is")
    assert "judge failed" not in score.reason and len(fake_story_judge.prompts) == 1
