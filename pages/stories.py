"""Stories: how much empathy a personal story evokes in a reader, by judge and reader persona.

Runs alone with ``python -m pages.stories``.
"""

from __future__ import annotations

import re

import gradio as gr

from core.stories import attribution, find_story, has_human_ratings, load_stories
from pages.story_runs import NO_PEOPLE, RUBRIC, rate_story, run_comparison, run_grid
from pages.widgets.api_names import JUDGE_OPTIONS, KEYS, named
from pages.widgets.judge import judge_controls
from pages.widgets.keys import key_boxes
from pages.widgets.names import scorer_choices
from pages.widgets.notice import notice_box, scroll_cue, with_notice
from scorers.judge.story import max_story_chars
from scorers.registry import SAMPLED_JUDGE, sampled_judge_ids

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
#: The API's names for the judge's inputs every button takes: the judge, its options, the keys.
INPUT_NAMES = ("judge_id", *JUDGE_OPTIONS, *KEYS)
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


def judge_choices(ids: list[str]) -> list[tuple[str, str]]:
    """(short name, id) for the Judge dropdown: the box already says "Judge", and a phone
    cut "LLM judge: Local model (Qwen2.5-Coder 1.5B, CPU)" under its arrow. The value stays
    the id; the chart's title names the judge in full.

    >>> judge_choices(["judge/local/qwen2.5-coder-1.5b", "judge/openai/gpt-4o"])
    [('Local model (CPU)', 'judge/local/qwen2.5-coder-1.5b'), ('OpenAI: gpt-4o', 'judge/openai/gpt-4o')]
    """
    short = [
        re.sub(r"\([^(),]+, CPU\)", "(CPU)", name.removeprefix("LLM judge: "))
        for name, _ in scorer_choices(ids)
    ]
    return list(zip(short, ids, strict=True))


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
        example, story, credit, inputs, buttons = _story_controls()
        outputs = _rating_outputs()
        compare, comparison_outputs = _comparison_section()
        example.change(pick_example, example, [story, credit], api_name=False)
        story.input(story_edited, [story, example], [example, credit], api_name=False)
        _wire_ratings(story, inputs, buttons, outputs)
        compare.click(
            named(with_notice(run_comparison, 3), "count", *INPUT_NAMES),
            [comparison_outputs[0], *inputs],
            comparison_outputs[1:],
            api_name="compare_with_people",  # not "compare": the app has that (Compare's)
            show_progress_on=[comparison_outputs[2]],  # the agreement table, as above
        )
    return page


def _story_controls() -> tuple[
    gr.Dropdown, gr.Textbox, gr.Markdown, list[gr.components.Component], tuple[gr.Button, ...]
]:
    """The example picker, the story, its credit line, the judge's inputs (the judge, its
    options, the keys: :data:`INPUT_NAMES`) and the two buttons (Rate, Compare personas)."""
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
            judge = gr.Dropdown(judge_choices(JUDGES), value=SAMPLED_JUDGE, label="Judge")
            settings = judge_controls()
            keys, _ = key_boxes()
            with gr.Row():
                rate = gr.Button("Rate the story", variant="primary")
                grid = gr.Button("Compare reader personas")
    return example, story, credit, [judge, *settings, *keys], (rate, grid)


def _rating_outputs() -> list[gr.components.Component]:
    """Where a rating shows: the notice, the ratings table and the chart."""
    notice = notice_box()
    scroll_cue()
    # The one place a rating's progress shows (the events below): the judge's line and
    # bar, without Gradio's timer ("own-clock"), whose estimate read "24.5/12.5s" once a
    # second request queued; the notice and the chart show none (the line was said twice).
    ratings = gr.Dataframe(
        elem_id="story-ratings",
        elem_classes=["own-clock"],
        headers=RATING_HEADERS,
        interactive=False,
        wrap=True,
        column_widths=["150px", "130px", "130px", "150px", "90px", "420px"],
    )
    # No "Plot" badge: the chart has its own title, and on a phone Plotly's toolbar sat
    # over the badge.
    grid_chart = gr.Plot(show_label=False)
    return [notice, ratings, grid_chart]


def _wire_ratings(
    story: gr.Textbox,
    inputs: list[gr.components.Component],
    buttons: tuple[gr.Button, ...],
    outputs: list[gr.components.Component],
) -> None:
    """Rate the story, and Compare reader personas: each brings the ratings into view and
    shows its progress on the table alone (``outputs``: notice, table, chart)."""
    rate, grid = buttons
    for button in (rate, grid):
        button.click(None, js=SCROLL_TO_RATINGS)
    rate.click(
        named(with_notice(rate_story, 2), "story", *INPUT_NAMES),
        [story, *inputs],
        outputs,
        api_name="rate_story",
        show_progress_on=[outputs[1]],
    )
    grid.click(
        named(with_notice(run_grid, 2), "story", *INPUT_NAMES),
        [story, *inputs],
        outputs,
        api_name="persona_grid",
        show_progress_on=[outputs[1]],
    )


def _comparison_section() -> tuple[gr.Button, list[gr.components.Component]]:
    """The section that compares the judge with people: its button, then the story count
    and the four outputs (notice, agreement table, distribution chart, caution)."""
    gr.Markdown(
        "### How close is the judge to people?\nRate the bundled stories and compare with "
        "the people's ratings. The judge options above (persona included) apply."
    )
    rated = has_human_ratings()  # a Space has only the project's own stories: no ratings
    if not rated:
        gr.Markdown(f"*{NO_PEOPLE}*", elem_id="story-no-people")
    with gr.Row():
        count = gr.Slider(
            2, max(2, len(load_stories())), value=10, step=1, label="Bundled stories to rate",
            interactive=rated,
        )  # fmt: skip
        compare = gr.Button("Compare with people", interactive=rated)
    compare_notice = notice_box()
    agreement = gr.Dataframe(
        headers=AGREEMENT_HEADERS, interactive=False, wrap=True, elem_classes=["own-clock"]
    )
    distribution = gr.Plot(show_label=False)
    caution = gr.Markdown()
    gr.Markdown(f"<small>{attribution()}</small>")
    return compare, [count, compare_notice, agreement, distribution, caution]


demo = build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
