"""The Batch page's options: where the questions come from (bundled or a CSV), who replies,
the prompt strategies, who scores, reply length, replies per question and the run's name.

The page (:mod:`pages.batch`) lays them out above its Run button and plans and runs with them.
"""

from __future__ import annotations

import gradio as gr

from pages.widgets.names import responder_choices, scorer_choices
from responders.registry import LOCAL_DEFAULT, THERAPIST, default_responder_ids
from scorers.registry import offered_scorer_ids
from studies.strategies import load_strategies

#: What the question source radio offers.
BUNDLED, UPLOAD = "Bundled CounselChat questions", "My own questions (CSV)"
#: The options as the page starts (for the first plan line).
DEFAULT_RESPONDERS, MAX_TOKENS = [LOCAL_DEFAULT, THERAPIST], 200


def batch_options() -> list[gr.components.Component]:
    """The plan's controls, wired to each other (the bundled draw hides for an upload); returns
    (n, seed, source, upload, responders, strategies, scorers, max tokens, samples, run name),
    :data:`pages.batch.BATCH_NAMES` in order."""
    with gr.Row():
        source = gr.Radio([BUNDLED, UPLOAD], value=BUNDLED, label="Questions")
        n = gr.Slider(1, 100, value=5, step=1, label="Bundled questions to draw")
        seed = gr.Number(0, precision=0, label="Draw (seed)")
    upload = gr.File(
        label="Your questions (CSV with a 'question' or a 'conversation' column)",
        type="filepath",
        visible=False,
    )
    source.change(
        lambda s: (gr.update(visible=s == UPLOAD), gr.update(visible=s == BUNDLED),
                   gr.update(visible=s == BUNDLED)),
        source, [upload, n, seed], api_name=False,
    )  # fmt: skip
    responders = gr.CheckboxGroup(
        responder_choices(default_responder_ids()),
        value=DEFAULT_RESPONDERS,
        label="Responders (the therapists' answers ignore the prompt strategy)",
    )
    strategies = gr.CheckboxGroup(
        [(s.label, s.id) for s in load_strategies().values()],
        value=["study"],
        label="Prompt strategies",
    )
    scorers = gr.CheckboxGroup(
        scorer_choices(offered_scorer_ids()), value=["bert-head"], label="Scorers"
    )
    with gr.Row():
        max_tokens = gr.Slider(16, 2048, value=MAX_TOKENS, step=16, label="Longest reply (tokens)")
        samples = gr.Slider(1, 5, value=1, step=1, label="Replies per question")
        name = gr.Textbox(value="my-batch", label="Run name (same name = continue)")
    return [n, seed, source, upload, responders, strategies, scorers, max_tokens, samples, name]
