"""Resonance: how empathically similar two stories are; find stories that resonate with one.

Runs alone with ``python -m pages.resonance``.
"""

from __future__ import annotations

import tempfile

import gradio as gr
import plotly.graph_objects as go

from config import SETTINGS
from core.numbers import cell
from core.stories import attribution, find_story, load_stories
from pages.widgets.api_names import KEYS, named
from pages.widgets.keys import key_boxes
from pages.widgets.names import scorer_choices
from pages.widgets.notice import notice_box, reports_problems, scroll_cue, with_notice
from pages.widgets.progress import gradio_progress
from pages.widgets.typed_judge import typed_judge
from reports.story_charts import resonance_chart
from scorers.registry import sampled_judge_ids
from scorers.resonance import (
    ASPECTS,
    ORDER_GAP_WARNING,
    Method,
    Pair,
    PairRating,
    get_resonance_method,
)
from scorers.rubric import load_rubric
from studies import resonance as rs

RUBRIC = load_rubric("resonance")
METHODS = [
    ("Embedding (MiniLM: fast, sees mostly the topic)", "embedding"),
    *scorer_choices(sampled_judge_ids()),
]
METHOD_HELP = (
    "**embedding**: how close the two texts are for a sentence encoder (MiniLM), "
    "mapped to 1–4 (cosine 0 or less → 1, cosine 1 → 4). Fast, but it mostly sees a "
    "shared topic (the event), not a shared feeling or lesson. **judge**: a language "
    "model rates the pair twice, once in each order, and the two are averaged."
)
MATCH_HEADERS = ["story", "source", *(RUBRIC.label(a) for a in ASPECTS), "status", "opening"]
METRIC_HEADERS = ["aspect", "pairs", "Pearson r", "Spearman ρ", "MSE", "macro-F1 (at 2.5)"]


def _method(method_id: str, key_values: tuple[str, ...]) -> Method:
    """The method ``method_id`` with the typed keys (``key_values``: the key boxes), or a
    plain refusal when it is unknown or cannot run."""
    return typed_judge(get_resonance_method, method_id, key_values)[0]


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def one_number(rating: PairRating) -> bool:
    """True when every aspect holds the same value from one comparison (an embedding of
    whole stories, with no aspect summaries): showing four bars would pretend otherwise."""
    values = {round(rating.value(a) or 0.0, 6) for a in ASPECTS}
    return rating.order_gap is None and len(values) == 1


def rating_markdown(rating: PairRating) -> str:
    """The four similarities in words, with the order gap and a position-bias warning."""
    if not rating.ok:
        return f"**Could not rate this pair:** {rating.reason}"
    if one_number(rating):
        return (
            f"- Similarity of the two stories: **{rating.value(ASPECTS[-1]):.2f}** of 4\n\n"
            "The embedding compared the whole stories, so it cannot tell the event, the "
            "emotion and the moral apart: this is one number, not four. A judge rates each "
            "aspect on its own."
        )
    lines = [f"- {RUBRIC.label(a)}: **{rating.value(a):.2f}** of 4" for a in ASPECTS]
    if rating.order_gap is not None:
        lines.append(
            f"- Difference between the two orders: {rating.order_gap:.2f} "
            "(mean over the four aspects)"
        )
        if rating.position_bias:
            lines.append(
                f"\n⚠️ **Position bias:** the judge's answer changed by {ORDER_GAP_WARNING:g} "
                "or more when the stories swapped places; treat these numbers as unreliable."
            )
    if rating.rationale:
        lines.append(f"\n*Judge's reason (story A first):* {rating.rationale}")
    return "\n".join(lines)


def pick_example(label: str) -> str:
    """A bundled story's text (or no change)."""
    story = find_story(label or "")
    return story.story if story else gr.skip()


def rate_pair(
    story_a: str,
    story_b: str,
    method_id: str,
    key_1: str = "",
    key_2: str = "",
    key_3: str = "",
    key_4: str = "",
    progress: gr.Progress = gr.Progress(),  # noqa: B008 (Gradio's progress idiom)
) -> tuple[str, go.Figure | None]:
    """The four similarities of two pasted stories."""
    method = _method(method_id, (key_1, key_2, key_3, key_4))
    progress(0.2, desc="rating (a judge reads the pair twice: ~20–120 s locally)")
    (rating,) = method.rate_pairs([Pair(story_a, story_b)])
    if not rating.ok:
        raise gr.Error(rating.reason or "the pair could not be rated")
    if one_number(rating):  # one similarity: no chart of four identical bars
        return rating_markdown(rating), None
    return rating_markdown(rating), resonance_chart(rating.values, rating.orders)


def _aspect_cells(rating: PairRating) -> list[object]:
    """The four similarities, or only the overall one where one number stands for all
    four (an embedding cannot tell the aspects apart: the others show '–')."""
    if rating.ok and one_number(rating):
        return ["–"] * (len(ASPECTS) - 1) + [_round(rating.value(ASPECTS[-1]))]
    return [_round(rating.value(a)) for a in ASPECTS]


def find_matches(
    story: str,
    method_id: str,
    top: float,
    key_1: str = "",
    key_2: str = "",
    key_3: str = "",
    key_4: str = "",
    progress: gr.Progress = gr.Progress(),  # noqa: B008
) -> list[list[object]]:
    """The bundled stories that resonate most with ``story``, best first."""
    method = _method(method_id, (key_1, key_2, key_3, key_4))
    same = [s.story_id for s in load_stories() if s.story.strip() == story.strip()]
    try:
        matches = rs.find_resonant(
            story,
            method,
            top=int(top),
            exclude_id=same[0] if same else None,  # a bundled story does not match itself
            progress=gradio_progress(progress),
        )
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    return [
        [
            m.story.story_id,
            m.story.source,
            *_aspect_cells(m.rating),
            m.rating.status,
            " ".join(m.story.story.split()[:16]) + "…",
        ]
        for m in matches
    ]


def rate_file(
    file: str | None,
    method_id: str,
    key_1: str = "",
    key_2: str = "",
    key_3: str = "",
    key_4: str = "",
    progress: gr.Progress = gr.Progress(),  # noqa: B008
) -> tuple[list[list[object]], str]:
    """Rate an uploaded CSV of pairs; metrics for every ``human_<aspect>`` column it has."""
    if not file:
        raise gr.Error("Upload a CSV file with story_a and story_b columns first.")
    try:
        rows = rs.read_pairs(file, max_bytes=SETTINGS.max_upload_bytes)
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    method = _method(method_id, (key_1, key_2, key_3, key_4))
    rated = rs.rate_pair_rows(rows, method, gradio_progress(progress))
    with tempfile.NamedTemporaryFile("w", suffix="-resonance.csv", delete=False) as fh:
        path = fh.name
    rs.write_rows(path, rated, judge=method.id != "embedding")
    metrics = [
        [
            m["aspect"],
            m["n"],
            *(cell(m[k]) for k in ("pearson_r", "spearman_rho", "mse", "macro_f1")),
        ]
        for m in rs.metrics_from_rows(rated)
    ]
    return metrics, path


def build() -> gr.Blocks:
    """Build the Resonance page."""
    with gr.Blocks(title="Empathy Lab · Resonance") as page:
        gr.Markdown(
            "## Resonance: would these two storytellers understand each other?\n"
            "Two people tend to empathize with each other when their stories share the main "
            "event, the feelings and how they change, and the lesson drawn (Shen et al.). "
            "Each is rated from 1 (not at all similar) to 4 (very similar). People "
            "themselves often disagree on this, so no method can be very exact."
        )
        gr.Markdown(METHOD_HELP)
        method = gr.Dropdown(METHODS, value="embedding", label="Method")
        keys, _ = key_boxes()
        story_a = _pair_section(method, keys)
        _find_section(story_a, method, keys)
        _file_section(method, keys)
        gr.Markdown(f"<small>{attribution()}</small>")
    return page


def _pair_section(method: gr.Dropdown, keys: list[gr.Textbox]) -> gr.Textbox:
    """Two stories side by side (each may be a bundled example) and their rating; returns
    story A, which the search below starts from."""
    choices = [s.choice_label for s in load_stories()]
    with gr.Row():
        with gr.Column():
            example_a = gr.Dropdown(choices, value=None, label="Example story A")
            story_a = gr.Textbox(label="Story A", lines=7)
        with gr.Column():
            example_b = gr.Dropdown(choices, value=None, label="Example story B")
            story_b = gr.Textbox(label="Story B", lines=7)
    compare = gr.Button("Rate the pair", variant="primary")
    with gr.Row():
        verdict = gr.Markdown()
        chart = gr.Plot()
    example_a.change(pick_example, example_a, story_a, api_name=False)
    example_b.change(pick_example, example_b, story_b, api_name=False)
    compare.click(
        named(reports_problems(1)(rate_pair), "story_a", "story_b", "method_id", *KEYS),
        [story_a, story_b, method, *keys], [verdict, chart], api_name="rate_pair",
    )  # fmt: skip
    return story_a


def _find_section(story_a: gr.Textbox, method: gr.Dropdown, keys: list[gr.Textbox]) -> None:
    """The bundled stories that resonate most with story A, best first."""
    gr.Markdown(
        "### Find resonant stories\nRank the bundled stories by how much they resonate "
        "with story A. The embedding ranks every story in the bank; a judge re-ranks the embedding's "
        "10 best (two calls each)."
    )
    with gr.Row():
        top = gr.Slider(1, 10, value=5, step=1, label="Matches to show")
        find = gr.Button("Find resonant stories")
    find_notice = notice_box()
    scroll_cue()
    matches = gr.Dataframe(
        headers=MATCH_HEADERS,
        interactive=False,
        wrap=True,
        max_height=900,
        # Fixed widths: unset, the long opening took the row and the rating columns were
        # squeezed until their headers stood one letter a line.
        column_widths=["80px", "170px", "95px", "95px", "95px", "130px", "70px", "480px"],
    )
    find.click(
        named(with_notice(find_matches, 1), "story", "method_id", "top", *KEYS),
        [story_a, method, top, *keys], [find_notice, matches], api_name="find",
    )  # fmt: skip


def _file_section(method: gr.Dropdown, keys: list[gr.Textbox]) -> None:
    """An uploaded CSV of pairs rated, with the method's agreement with any people's labels."""
    gr.Markdown(
        "### Rate your own pairs\nUpload a CSV with `story_a` and `story_b` columns. Add "
        "`human_event`, `human_emotion`, `human_moral` or `human_empathy` columns (1–4) "
        "to see how well the method agrees with your labels."
    )
    upload = gr.File(label="Pairs (CSV)", file_types=[".csv"], type="filepath")
    rate_button = gr.Button("Rate the file")
    file_notice = notice_box()
    # A fixed column count: Gradio then draws no column menu ("⋮"), which on a phone sat
    # over the "Pearson r" header; a read-only table of a few rows needs no menu.
    metrics = gr.Dataframe(
        headers=METRIC_HEADERS,
        interactive=False,
        column_count=(len(METRIC_HEADERS), "fixed"),
    )
    rated_file = gr.File(label="Rated pairs (CSV)")
    rate_button.click(
        named(with_notice(rate_file, 2), "file", "method_id", *KEYS),
        [upload, method, *keys], [file_notice, metrics, rated_file], api_name="rate_file",
    )  # fmt: skip


demo = build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
