"""The Vote page's "Make a new round" controls: question, responders, ways of prompting,
a teacher's own replies, scorers, seed and generation settings, and how long the round
they describe will take (:func:`round_estimate`).

The page passes what they hold to :func:`pages.vote.create`, which times the local model's
replies with :func:`timed`, so later estimates are this machine's own.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from typing import NamedTuple

import gradio as gr

from core.local_pace import reply_seconds
from core.progress import Progress
from core.questions import by_label, find_question, load_questions
from pages.widgets.api_names import KEYS
from pages.widgets.kept_words import ROUND_KEPT
from pages.widgets.keys import key_boxes
from pages.widgets.names import responder_choices, scorer_choices
from pages.widgets.progress import elapsed
from responders.base import Responder
from responders.registry import default_responder_ids, get_responder
from scorers.registry import offered_scorer_ids
from studies.strategies import load_strategies
from studies.votes.setup import THERAPIST, teacher_entries

#: The accordion that holds these controls: open for a teacher (``/vote``), not there at all
#: under a round link (``/vote?round=K7Q2``: a student sees the ballot alone).
TEACHER_LABEL = "Make a new round (teachers)"
#: The responders a round may ask (the therapist joins by itself on a bundled question).
RESPONDER_IDS = [rid for rid in default_responder_ids() if rid != THERAPIST]
#: (seconds, max tokens) of this server's latest local replies (any visitor's: the machine's pace).
TIMED: deque[tuple[float, int]] = deque(maxlen=12)
STEP = "writing reply"
AFTER = (
    "The line under the buttons says which reply is being written and for how long. Stop "
    "ends the round once the reply being written is finished (nothing is saved)."
)


#: The names of :attr:`Maker.inputs` in the ``/create_round`` endpoint, in their order.
INPUT_NAMES = (
    *("bundled_question", "message", "responders", "strategies", "teacher_replies", "scorers"),
    *("seed", "max_tokens", "temperature", *KEYS),
)


class Maker(NamedTuple):
    """The controls: ``inputs`` of :func:`pages.vote.create`, and the ``estimate`` with the
    inputs it is made from (the page refreshes it once a round has timed this machine)."""

    inputs: list[gr.components.Component]
    estimate: gr.Markdown
    estimate_inputs: list[gr.components.Component]


def teacher_view(request: gr.Request | None) -> gr.Accordion:
    """The teacher's accordion when the page opens: open, unless the address names a round
    (``/vote?round=K7Q2``, the link students get), when it is hidden entirely (a folded
    "Make a new round (teachers)" under a student's ballot only puzzled them; a teacher opens
    ``/vote`` without a round).

    >>> from types import SimpleNamespace as R
    >>> [teacher_view(R(query_params=q)).visible for q in ({"round": "K7Q2"}, {}, {"round": " "})]
    [False, True, True]
    >>> teacher_view(R(query_params={})).open
    True
    """
    code = (request.query_params.get("round") or "") if request else ""
    student = bool(code.strip())
    return gr.Accordion(open=not student, visible=not student)


def random_question() -> tuple[str, str]:
    """A bundled question picked at random: its dropdown label and its text."""
    import secrets

    question = secrets.choice(load_questions())
    return question.choice_label, question.question


def question_text(label: str | None) -> str:
    """The bundled question's text for a dropdown label (unchanged when none)."""
    question = by_label(label or "")
    return question.question if question else gr.skip()


def planned(message: str, responders: Sequence[str], strategies: Sequence[str]) -> list[str]:
    """The provider of each reply a round asks for, in order (as
    :func:`studies.votes.setup.generate_entries` asks): each model once per way of prompting,
    the therapist (``human``) once, and only for a bundled question.

    >>> planned("I feel alone.", ["local/qwen2.5-coder-1.5b"], ["study", "reader-persona"])
    ['local', 'local']
    """
    ids = list(dict.fromkeys(responders))
    if find_question(message or "") is not None and THERAPIST not in ids:
        ids.append(THERAPIST)
    ways = max(1, len(strategies))
    return [
        rid.partition("/")[0]
        for rid in ids
        for _ in range(ways if get_responder(rid).follows_prompt else 1)
    ]


def timed(progress: Progress, providers: Sequence[str], max_tokens: int) -> Progress:
    """``progress``, also timing each local reply of a round it reports on (from its step
    "writing reply k of n" to the next step) into :data:`TIMED`."""
    step: list[float] = []  # [index, started] of the local reply under way

    def report(done: int, total: int, what: str) -> None:
        if step and done != step[0]:
            TIMED.append((time.monotonic() - step[1], max_tokens))
            step.clear()
        local = total == len(providers) and done < total and providers[done] == "local"
        if local and what.startswith(STEP) and not step:
            step.extend([done, time.monotonic()])
        progress(done, total, what)

    return report


def local_reply_seconds(max_tokens: float) -> tuple[float, float, str]:
    """(low, high) seconds of one local reply, and where that comes from: the replies this
    server has timed with ``max_tokens``, else the measured pace (:mod:`core.local_pace`:
    a typical reply, and one that runs to its limit).

    >>> TIMED.clear(); local_reply_seconds(320)
    (5.5, 17.6, 'on a 2-core CPU')
    >>> TIMED.extend([(4.2, 320), (8.9, 320), (30.0, 1024)]); local_reply_seconds(320)
    (4.2, 8.9, 'as timed on this server')
    >>> TIMED.clear()
    """
    times = [seconds for seconds, tokens in TIMED if tokens == int(max_tokens)]
    if times:
        return min(times), max(times), "as timed on this server"
    typical, longest = reply_seconds(int(max_tokens))
    return typical, longest, "on a 2-core CPU"


def span(low: float, high: float) -> str:
    """``about 12 s``, ``about 10–30 s``, ``about 1 min 05 s–2 min 10 s``.

    >>> span(0.4, 0.7), span(12, 12.4), span(3.7, 33), span(40, 130)
    ('under a second', 'about 12 s', 'about 3–33 s', 'about 40 s–2 min 10 s')
    """
    if high < 1:
        return "under a second"
    low_text, high_text = elapsed(low), elapsed(high)
    if low_text == high_text:
        return f"about {high_text}"
    if high < 60:
        return f"about {low_text.removesuffix(' s')}–{high_text}"
    return f"about {low_text}–{high_text}"


def round_estimate(
    label: str | None,
    message: str,
    responders: list[str],
    strategies: list[str],
    teacher: str,
    max_tokens: float,
) -> str:
    """How many replies the round on the controls has, whose, and how long writing them takes
    (the local model's replies one after another, as timed or from its measured pace)."""
    question = by_label(label or "")
    text = question.question if question and not (message or "").strip() else message or ""
    chosen = [r for r in responders or [] if r in RESPONDER_IDS]
    providers = planned(text, chosen, strategies or [])
    local, pasted = providers.count("local"), len(teacher_entries(teacher or ""))
    cloud = len(providers) - local - providers.count("human")
    count = len(providers) + pasted
    if count < 2:
        return (
            f"This makes {count} {'reply' if count == 1 else 'replies'}; a round needs at "
            "least two: tick another model or way of prompting, pick a bundled question (its "
            "therapist's answer joins) or paste replies of your own."
        )
    low, high, source = local_reply_seconds(max_tokens)
    cloud_low, cloud_high = Responder.typical_seconds
    parts = [f"{local} from the local model ({span(low, high)} each, {source})"] if local else []
    models = "a cloud model" if cloud == 1 else "cloud models"
    parts += [f"{cloud} from {models} ({span(cloud_low, cloud_high)} each)"] if cloud else []
    parts += ["the therapist's real answer"] if "human" in providers else []
    parts += [f"{pasted} of your own"] if pasted else []
    listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    head = f"**This round: {count} replies**: {listed}."
    if not local + cloud:
        return f"{head} None to write: the round is ready once scored."
    total = span(local * low + cloud * cloud_low, local * high + cloud * cloud_high)
    return f"{head} Writing them takes {total}, one after another, then scoring. {AFTER}"


def maker_controls() -> Maker:
    """The teacher's controls (inside an accordion): the inputs of :func:`pages.vote.create`,
    and the estimate of the round they describe."""
    gr.Markdown(f"<small>{ROUND_KEPT}</small>")  # read before anything is typed
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
    described = [picker, message, responders, strategies, teacher, max_tokens]
    estimate = gr.Markdown(round_estimate(*(c.value for c in described)))  # type: ignore[arg-type]
    keys_in, _ = key_boxes()
    picker.change(question_text, picker, message, api_name=False)
    lucky.click(random_question, None, [picker, message], api_name=False)
    for control in described:
        control.change(
            round_estimate, described, estimate, api_name=False, show_progress="hidden",
            trigger_mode="always_last",
        )  # fmt: skip
    inputs = [picker, message, responders, strategies, teacher, scorers, seed, max_tokens,
              temperature, *keys_in]  # fmt: skip
    return Maker(inputs, estimate, described)
