"""Stories: how much empathy a personal story evokes in a reader, by judge and reader persona.

Runs alone with ``python -m pages.stories``.
"""

from __future__ import annotations

import gradio as gr
import plotly.graph_objects as go

from config import KEY_ENV_VARS
from core.numbers import cell, p_value
from core.stories import attribution, find_story, has_human_ratings, load_stories
from core.textinput import InputError
from pages.widgets.judge import judge_controls, judge_options
from pages.widgets.keys import key_boxes, typed_keys
from pages.widgets.names import scorer_choices
from pages.widgets.notice import notice_box, scroll_cue, with_notice
from pages.widgets.progress import gradio_progress
from reports.story_charts import persona_chart, rating_distribution
from scorers.base import Score, Scorer
from scorers.judge.story import checked_story, get_story_judge, max_story_chars
from scorers.registry import SAMPLED_JUDGE, sampled_judge_ids
from scorers.rubric import load_rubric
from studies import stories as st

RUBRIC = load_rubric("story-evocation")
# The page functions take the key boxes as key_1…key_4, in KEY_ENV_VARS order (Gradio
# finds the progress argument only among named parameters, never after *args).
assert len(KEY_ENV_VARS) == 4
JUDGES = sampled_judge_ids()
#: "why" read as a reason, but the small local judge often writes a summary of the story
#: where the prompt asks what moved it: the column says whose words they are.
RATING_HEADERS = [
    "reader",
    *(RUBRIC.label(c) for c in RUBRIC.components),
    "status",
    "the judge's note",
]
#: Where the page takes a visitor who pressed a button: the results sat below the fold.
SCROLL_TO_RATINGS = (
    "() => document.getElementById('story-ratings')"
    "?.scrollIntoView({behavior: 'smooth', block: 'start'})"
)
AGREEMENT_HEADERS = [
    "rating",
    "stories",
    "Pearson r",
    "p",
    "judge mean",
    "people mean",
    "Cohen's d",
    "Wasserstein",
    "paired t p",
]
CAUTION = (
    "**How far to trust this:** each story's human rating is one crowd worker's answer to "
    "*how much could people empathize with this story* (1–5), and the ratings lean high "
    "(72 of 79 are 4 or 5). Expect low correlations for any judge; the distances "
    "(Cohen's d: positive = the judge rates higher than people; Wasserstein: how far apart "
    "the two sets of ratings are, in rating points) say more than r here. With few "
    "stories, p-values are rough."
)


def _judge(judge_id: str, options: dict, keys: dict) -> Scorer:
    try:
        judge = get_story_judge(judge_id, keys=keys, **options)
    except KeyError as exc:
        raise gr.Error(str(exc.args[0])) from None
    reason = judge.unavailable_reason()
    if reason:
        raise gr.Error(f"{judge_id} cannot run: {reason}")
    return judge


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


def pick_example(label: str) -> tuple[str, str]:
    """(story, attribution) of a bundled story."""
    story = find_story(label or "")
    if story is None:
        return gr.skip(), ""
    credit = f"<small>{attribution()} Story `{story.story_id}` ({story.source}).</small>"
    return story.story, credit


def story_edited(text: str, label: str | None) -> tuple[object, object]:
    """(picker, credit) once the visitor types or pastes into the story box: an example's
    name and credit go as soon as the text is no longer that example's story."""
    story = find_story(label or "")
    if story is not None and (text or "").strip() == story.story.strip():
        return gr.skip(), gr.skip()
    return None, ""


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
    options = judge_options(samples, temperature, gender, concern, taking, shared)
    judge = _judge(judge_id, options, typed_keys(key_1, key_2, key_3, key_4))
    progress(0.2, desc="the judge is reading (the local model took 30–70 s on a 2-core CPU)")
    score = judge.score(text)
    name = st.persona_name(options["persona"])
    return [rating_row(name, score)], persona_chart([(name, score)])


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
    options = judge_options(samples, temperature, gender, concern, taking, shared)
    keys = typed_keys(key_1, key_2, key_3, key_4)
    _judge(judge_id, options, keys)
    rows = st.persona_grid(
        text,
        judge_id,
        samples=options["samples"],
        temperature=options["temperature"],
        keys=keys,
        progress=gradio_progress(progress),
    )
    table = [rating_row(r.name, r.score) for r in rows]
    return table, persona_chart([(r.name, r.score) for r in rows])


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
    if not has_human_ratings():
        raise gr.Error("The stories in use have no human ratings to compare with. " + attribution())
    options = judge_options(samples, temperature, gender, concern, taking, shared)
    keys = typed_keys(key_1, key_2, key_3, key_4)
    _judge(judge_id, options, keys)
    result = st.compare_with_humans(
        judge_id,
        options["persona"],
        limit=int(count),
        samples=options["samples"],
        temperature=options["temperature"],
        keys=keys,
        progress=gradio_progress(progress),
    )
    table = [
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
    pairs = [
        (s.empathizable, sc.value("empathy"))
        for s, sc in zip(result.stories, result.scores, strict=True)
    ]
    pairs = [(h, j) for h, j in pairs if j is not None]
    chart = rating_distribution(
        [h for h, _ in pairs],
        [j for _, j in pairs],
        f"{len(pairs)} bundled stories, judge read as: {result.persona}",
    )
    note = CAUTION + (
        f"\n\n{result.unscored} stories could not be rated." if result.unscored else ""
    )
    return table, chart, note


def build() -> gr.Blocks:
    """Build the Stories page."""
    with gr.Blocks(title="Empathy Lab · Stories") as page:
        gr.Markdown(
            "## Stories: how much empathy does a story evoke?\nPaste a personal story. A judge "
            "reads it as a reader would and answers three questions from 1 (not at all) to 5 "
            "(extremely): how much empathy they feel for the storyteller, how much sympathy, "
            "compassion and being moved they feel (*affective*), and how well they understand "
            "the storyteller's perspective and feelings (*cognitive*), after Roshanaei et al. "
            "A *reader persona* asks the judge to read as a particular reader."
        )
        with gr.Row():
            with gr.Column(scale=3):
                example = gr.Dropdown(
                    [s.choice_label for s in load_stories()], value=None, label="Example story"
                )
                story = gr.Textbox(
                    label="Story",
                    lines=8,
                    info=f"your own or an example; at most {max_story_chars():,} characters",
                )
                credit = gr.Markdown()
            with gr.Column(scale=2):
                judge = gr.Dropdown(scorer_choices(JUDGES), value=SAMPLED_JUDGE, label="Judge")
                settings = judge_controls()
                keys, _ = key_boxes()
                with gr.Row():
                    rate = gr.Button("Rate the story", variant="primary")
                    grid = gr.Button("Compare reader personas")
        notice = notice_box()
        scroll_cue()
        ratings = gr.Dataframe(
            elem_id="story-ratings",
            headers=RATING_HEADERS,
            interactive=False,
            wrap=True,
            column_widths=["150px", "130px", "130px", "150px", "90px", "420px"],
        )
        grid_chart = gr.Plot()

        compare, comparison_outputs = _comparison_section()
        inputs = [judge, *settings, *keys]
        example.change(pick_example, example, [story, credit], api_name=False)
        story.input(story_edited, [story, example], [example, credit], api_name=False)
        for button in (rate, grid):
            button.click(None, js=SCROLL_TO_RATINGS)
        rate.click(
            with_notice(rate_story, 2),
            [story, *inputs],
            [notice, ratings, grid_chart],
            api_name="rate_story",
        )
        grid.click(
            with_notice(run_grid, 2),
            [story, *inputs],
            [notice, ratings, grid_chart],
            api_name="persona_grid",
        )
        compare.click(
            with_notice(run_comparison, 3),
            [comparison_outputs[0], *inputs],
            comparison_outputs[1:],
            api_name="compare",
        )
    return page


def _comparison_section() -> tuple[gr.Button, list[gr.components.Component]]:
    """The section that compares the judge with people: its button, then the story count
    and the four outputs (notice, agreement table, distribution chart, caution)."""
    gr.Markdown(
        "### How close is the judge to people?\nRate the bundled stories and compare with "
        "the people's ratings. The judge options above (persona included) apply."
    )
    with gr.Row():
        count = gr.Slider(
            2, max(2, len(load_stories())), value=10, step=1, label="Bundled stories to rate"
        )
        compare = gr.Button("Compare with people")
    compare_notice = notice_box()
    agreement = gr.Dataframe(headers=AGREEMENT_HEADERS, interactive=False, wrap=True)
    distribution = gr.Plot()
    caution = gr.Markdown()
    gr.Markdown(f"<small>{attribution()}</small>")
    return compare, [count, compare_notice, agreement, distribution, caution]


demo = build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
