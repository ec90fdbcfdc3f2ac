"""What the Stories page runs when a button is pressed: one reader, the five-reader grid, and
the bundled stories beside people's ratings (the page itself is :mod:`pages.stories`).

>>> rating_row("no persona", Score.unscored("j", "the judge failed"))[-2:]
['unscored', 'the judge failed']
"""

from __future__ import annotations

import gradio as gr
import plotly.graph_objects as go

from config import KEY_ENV_VARS, Keys
from core.numbers import cell, p_value
from core.stories import has_human_ratings
from core.textinput import InputError
from pages.widgets.judge import judge_options
from pages.widgets.names import scorer_name
from pages.widgets.progress import gradio_progress
from pages.widgets.typed_judge import typed_judge
from reports.story_charts import persona_chart, rating_distribution
from scorers.base import Score, Scorer
from scorers.judge.story import checked_story, get_story_judge
from scorers.rubric import load_rubric
from studies import stories as st

RUBRIC = load_rubric("story-evocation")
# The page functions take the key boxes as key_1…key_4, in KEY_ENV_VARS order (Gradio
# finds the progress argument only among named parameters, never after *args).
assert len(KEY_ENV_VARS) == 4

#: Why "Compare with people" cannot run where the stories carry no people's ratings (the
#: bundled own stories; EmpathicStories, which has them, is installed separately).
NO_PEOPLE = (
    "Not available on this server: the stories in use have no people's ratings to compare "
    "with (the line at the foot of the page says how to add them)."
)
CAUTION = (
    "**How far to trust this:** each story's human rating is one crowd worker's answer to "
    "*how much could people empathize with this story* (1–5), and the ratings lean high "
    "(72 of 79 are 4 or 5). Expect low correlations for any judge; the distances "
    "(Cohen's d: positive = the judge rates higher than people; Wasserstein: how far apart "
    "the two sets of ratings are, in rating points) say more than r here. With few "
    "stories, p-values are rough."
)


def _judge(
    judge_id: str, settings: tuple[float, float, str, str, str, str], key_values: tuple[str, ...]
) -> tuple[Scorer, dict, Keys]:
    """The story judge ``judge_id`` with the chosen options (``settings``: the six judge
    controls' values) and the typed keys, or a plain refusal; with those options and keys."""
    options = judge_options(*settings)
    judge, keys = typed_judge(get_story_judge, judge_id, key_values, **options)
    return judge, options, keys


def _story(text: str) -> str:
    """The story cleaned and within the judge's limit, counted the way the limit counts;
    a plain refusal otherwise, before any judge is built or asked."""
    try:
        return checked_story(text)
    except InputError as exc:
        raise gr.Error(str(exc)) from None


def rating_row(name: str, score: Score) -> list[object]:
    """One table row: reader, the three ratings, status and the judge's reason."""
    why = score.rationale if score.ok else score.reason
    if score.spread is not None:
        why = f"spread ±{score.spread:.2f}. {why or ''}"
    return [name, *(cell(score.value(c), 2) for c in RUBRIC.components), score.status, why or ""]


def rate_story(
    story: str,
    judge_id: str,
    samples: float,
    temperature: float,
    gender: str,
    concern: str,
    taking: str,
    shared: str,
    key_1: str = "",
    key_2: str = "",
    key_3: str = "",
    key_4: str = "",
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
) -> tuple[list[list[object]], go.Figure]:
    """Rate one story with the chosen judge and persona: the table row and its chart."""
    text = _story(story)
    settings = (samples, temperature, gender, concern, taking, shared)
    judge, options, _ = _judge(judge_id, settings, (key_1, key_2, key_3, key_4))
    progress(0.2, desc="the judge is reading (the local model took 30–70 s on a 2-core CPU)")
    score = judge.score(text)
    name = st.persona_name(options["persona"])
    return [rating_row(name, score)], persona_chart([(name, score)], judge=scorer_name(judge_id))


def run_grid(
    story: str,
    judge_id: str,
    samples: float,
    temperature: float,
    gender: str,
    concern: str,
    taking: str,
    shared: str,
    key_1: str = "",
    key_2: str = "",
    key_3: str = "",
    key_4: str = "",
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
) -> tuple[list[list[object]], go.Figure]:
    """Rate the story as five readers: no persona, low/high concern × (no) shared experience."""
    text = _story(story)
    settings = (samples, temperature, gender, concern, taking, shared)
    _, options, keys = _judge(judge_id, settings, (key_1, key_2, key_3, key_4))
    rows = st.persona_grid(
        text,
        judge_id,
        samples=options["samples"],
        temperature=options["temperature"],
        keys=keys,
        progress=gradio_progress(progress),
    )
    table = [rating_row(r.name, r.score) for r in rows]
    chart = persona_chart([(r.name, r.score) for r in rows], judge=scorer_name(judge_id))
    return table, chart


def run_comparison(
    count: float,
    judge_id: str,
    samples: float,
    temperature: float,
    gender: str,
    concern: str,
    taking: str,
    shared: str,
    key_1: str = "",
    key_2: str = "",
    key_3: str = "",
    key_4: str = "",
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
) -> tuple[list[list[object]], go.Figure, str]:
    """Rate the first ``count`` bundled stories and set them beside the people's ratings."""
    if not has_human_ratings():  # the page's note and credit line already say why, once
        raise gr.Error(NO_PEOPLE)
    settings = (samples, temperature, gender, concern, taking, shared)
    _, options, keys = _judge(judge_id, settings, (key_1, key_2, key_3, key_4))
    result = st.compare_with_humans(
        judge_id,
        options["persona"],
        limit=int(count),
        samples=options["samples"],
        temperature=options["temperature"],
        keys=keys,
        progress=gradio_progress(progress),
    )
    table = _agreement_rows(result)
    chart = _distribution(result, judge_id)
    note = CAUTION + (
        f"\n\n{result.unscored} stories could not be rated." if result.unscored else ""
    )
    return table, chart, note


def _agreement_rows(result: st.HumanComparison) -> list[list[object]]:
    """The agreement table: a row per rating, its figures rounded as the headers read them."""
    return [
        [
            RUBRIC.label(r["component"]),
            r["n"],
            *(
                p_value(r[k], 3) if k.endswith("_p") else cell(r[k], d)
                for k, d in (
                    ("pearson_r", 2),
                    ("pearson_p", 3),
                    ("model_mean", 2),
                    ("human_mean", 2),
                    ("cohens_d", 2),
                    ("wasserstein", 2),
                    ("t_p", 3),
                )
            ),
        ]
        for r in result.table
    ]


def _distribution(result: st.HumanComparison, judge_id: str) -> go.Figure:
    """The people's ratings and the judge's empathy ratings, side by side (stories the judge
    could not rate left out)."""
    pairs = [
        (s.empathizable, sc.value("empathy"))
        for s, sc in zip(result.stories, result.scores, strict=True)
    ]
    pairs = [(h, j) for h, j in pairs if j is not None]
    return rating_distribution(
        [h for h, _ in pairs],
        [j for _, j in pairs],
        f"{len(pairs)} bundled stories, the judge reading as: {result.persona}",
        judge_name=scorer_name(judge_id),
    )
