"""The Compare page's inputs: the message, who replies, who scores, and prompt and sampling.

The page (:mod:`pages.compare`) lays them out above its replies and wires its runs to them.
"""

from __future__ import annotations

import gradio as gr

from config import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_SYSTEM_PROMPT,
    DEFAULT_TEMPERATURE,
)
from core.questions import load_questions
from pages.widgets.conversation import (
    MESSAGE_INFO,
    MESSAGE_LABEL,
    conversation_edited,
    conversation_picker,
    conversation_text,
)
from pages.widgets.reply_panels import (
    default_selection,
    message_edited,
    picked_question,
    responder_choices,
)
from pages.widgets.scores import judge_hint, ticked_by_default
from scorers.registry import DEFAULT_SCORERS, scorer_label


def compare_inputs(scorer_ids: list[str]) -> tuple[gr.components.Component, ...]:
    """The message (a bundled question, an example conversation or typed), who replies, the
    run, Stop and Score again buttons, and who scores (``scorer_ids`` offered), wired to each
    other; returns (message, responders, scorers, run, stop, score again)."""
    with gr.Row():
        with gr.Column(scale=3):
            picker = gr.Dropdown(
                choices=[q.choice_label for q in load_questions()],
                value=None,
                label="Pick a bundled question (CounselChat; these also get a therapist's answer)",
            )
            conversations = conversation_picker()
            message = gr.Textbox(
                label=MESSAGE_LABEL,
                info=MESSAGE_INFO,
                lines=5,
                placeholder="I haven't been sleeping since my mother died…",
            )
        with gr.Column(scale=2):
            selected = gr.CheckboxGroup(
                choices=responder_choices(),
                value=default_selection(),
                label="Who replies",
                info="Cloud models need a key (see API keys below).",
            )
            with gr.Row():
                run = gr.Button("Get replies", variant="primary")
                stop = gr.Button("Stop", variant="secondary")
            rescore_button = gr.Button(
                "Score these replies again (no new replies: tick a judge first)", size="sm"
            )
            scorer_box, hint = _scorer_choice(scorer_ids)
    picker.change(picked_question, [picker, selected], [message, selected], api_name=False)
    # Typed or pasted over: neither the picker nor the therapist's tick claims it any more.
    message.change(
        message_edited,
        [message, picker, selected],
        [picker, selected],
        api_name=False,
        show_progress="hidden",
    )
    scorer_box.change(judge_hint, scorer_box, hint, api_name=False)
    conversations.change(conversation_text, conversations, message, api_name=False)
    message.change(conversation_edited, [message, conversations], conversations, api_name=False)
    return message, selected, scorer_box, run, stop, rescore_button


def _scorer_choice(scorer_ids: list[str]) -> tuple[gr.CheckboxGroup, gr.Markdown]:
    """Who scores the replies (``scorer_ids`` offered, the defaults ticked), in a closed
    accordion, and the hint under the ticks."""
    with gr.Accordion(
        "Who scores the replies (the empathy head; judges one click away)", open=False
    ):
        ticked, why = ticked_by_default(DEFAULT_SCORERS)
        scorer_box = gr.CheckboxGroup(
            choices=[(scorer_label(s), s) for s in scorer_ids],
            value=ticked,
            label="Who scores the replies",  # for screen readers: the heading says it
            show_label=False,
            info="Cloud judges need their key.",
        )
        hint = gr.Markdown(judge_hint(ticked), elem_id="judge-hint")
        gr.Markdown(why)
    return scorer_box, hint


def sampling_controls() -> tuple[gr.Textbox, gr.Slider, gr.Slider]:
    """The system prompt, max tokens and temperature, in a closed accordion."""
    with gr.Accordion("Prompt and sampling", open=False):
        system = gr.Textbox(value=DEFAULT_SYSTEM_PROMPT, label="System prompt", lines=3)
        with gr.Row():
            max_tokens = gr.Slider(16, 2048, value=DEFAULT_MAX_TOKENS, step=16, label="Max tokens")
            temperature = gr.Slider(
                0.0, 2.0, value=DEFAULT_TEMPERATURE, step=0.05, label="Temperature"
            )
    return system, max_tokens, temperature
