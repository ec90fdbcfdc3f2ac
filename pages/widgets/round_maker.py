"""The Vote page's "Make a new round" controls: question, responders, ways of prompting,
a teacher's own replies, scorers, seed and generation settings.

The page passes what they hold to :func:`pages.vote.create`.
"""

from __future__ import annotations

import gradio as gr

from core.questions import by_label, load_questions
from pages.widgets.keys import key_boxes
from pages.widgets.names import responder_choices, scorer_choices
from responders.registry import default_responder_ids
from scorers.registry import offered_scorer_ids
from studies.strategies import load_strategies
from studies.votes.setup import THERAPIST

#: The accordion that holds these controls: open for a teacher, folded away under a round
#: link (a student sees the ballot first).
TEACHER_LABEL = "Make a new round (teachers)"
#: The responders a round may ask (the therapist joins by itself on a bundled question).
RESPONDER_IDS = [rid for rid in default_responder_ids() if rid != THERAPIST]


def teacher_view(request: gr.Request | None) -> gr.Accordion:
    """The teacher's accordion when the page opens: open, unless the address names a round
    (``/vote?round=K7Q2``, the link students get), when it stays folded away.

    >>> from types import SimpleNamespace as R
    >>> [teacher_view(R(query_params=q)).open for q in ({"round": "K7Q2"}, {})]
    [False, True]
    """
    code = (request.query_params.get("round") or "") if request else ""
    return gr.Accordion(open=not code.strip())


def random_question() -> tuple[str, str]:
    """A bundled question picked at random: its dropdown label and its text."""
    import secrets

    question = secrets.choice(load_questions())
    return question.choice_label, question.question


def question_text(label: str | None) -> str:
    """The bundled question's text for a dropdown label (unchanged when none)."""
    question = by_label(label or "")
    return question.question if question else gr.skip()


def maker_controls() -> list[gr.components.Component]:
    """The teacher's controls (inside an accordion); returns the inputs of :func:`pages.vote.create`."""
    with gr.Row():
        picker = gr.Dropdown(
            choices=[q.choice_label for q in load_questions()],
            value=None,
            label="Bundled question (CounselChat; the therapist's real answer is added)",
            scale=4,
        )
        lucky = gr.Button("Random question", scale=1)
    message = gr.Textbox(label="Message (or paste your own)", lines=4)
    responders = gr.CheckboxGroup(
        responder_choices(RESPONDER_IDS), value=[RESPONDER_IDS[0]], label="Models that reply"
    )
    strategies = gr.CheckboxGroup(
        [(s.label, s.id) for s in load_strategies().values()],
        value=list(load_strategies()),
        label="Ways of prompting them (each model writes one reply per way)",
        info="Without any key: the local model three ways + the therapist = four replies.",
    )
    teacher = gr.Textbox(
        label="Your own replies (optional; hidden from voters until they vote)",
        lines=4,
        placeholder="Label: a friend's reply\nI'm so sorry, that sounds awful…\n---\nLabel: advice only\nYou should …",
        info="Separate replies with a line of ---; a first line 'Label: …' names one at the reveal.",
    )
    scorers = gr.CheckboxGroup(
        scorer_choices(offered_scorer_ids()),
        value=["bert-head"],
        label="Scorers shown after the vote (the empathy head takes seconds; a judge minutes)",
    )
    with gr.Row():
        seed = gr.Textbox(value="", label="Shuffle seed (blank = random)", max_length=12)
        max_tokens = gr.Slider(32, 1024, value=320, step=32, label="Max tokens per reply")
        temperature = gr.Slider(0.0, 1.5, value=0.7, step=0.05, label="Temperature")
    gr.Markdown(
        "The local model took 30–90 s a reply on a 2-core CPU: a keyless round of four "
        "replies takes a few minutes; the bar under the buttons says which reply "
        "is being written and for how long. Stop ends the round once the reply being written "
        "is finished (nothing is saved)."
    )
    keys_in, _ = key_boxes()
    picker.change(question_text, picker, message, api_name=False)
    lucky.click(random_question, None, [picker, message], api_name=False)
    return [picker, message, responders, strategies, teacher, scorers, seed, max_tokens,
            temperature, *keys_in]  # fmt: skip
