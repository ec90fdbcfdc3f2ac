"""Compare page: one message (or a conversation), several responders, replies streamed side by
side, then scored.

Runs alone with ``python -m pages.compare``. The page only turns inputs into
calls of :func:`studies.comparison.stream_comparison` and its panels and scores into
component updates; every update is sent as soon as it happens (streaming).
Keys typed here travel with this browser session's requests and are never
stored on the server.
"""

from __future__ import annotations

import gradio as gr

from config import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_SYSTEM_PROMPT,
    DEFAULT_TEMPERATURE,
)
from core.questions import load_questions
from pages.compare_updates import (
    SCORER_IDS,
    compare_on_page,
    export_comparison,
    rescore,
)
from pages.widgets.api_names import JUDGE_OPTIONS, KEYS, VISITOR, named
from pages.widgets.busy import busy_while, idle
from pages.widgets.conversation import (
    MESSAGE_INFO,
    MESSAGE_LABEL,
    carry_on,
    carry_on_controls,
    conversation_edited,
    conversation_picker,
    conversation_text,
    wire_carry_on,
)
from pages.widgets.flag_reply import flag_shown_reply
from pages.widgets.judge import judge_controls
from pages.widgets.keys import key_boxes
from pages.widgets.notice import reports_problems
from pages.widgets.radar_fit import fit_radars
from pages.widgets.rating import rating_box
from pages.widgets.rating import wire as wire_rating
from pages.widgets.reply_panels import (
    FlagControls,
    default_selection,
    ended_boxes,
    message_edited,
    panel_visibility,
    picked_question,
    refresh_choices,
    reply_panels,
    responder_choices,
    started_panels,
)
from pages.widgets.score_area import Blinded, score_area
from pages.widgets.scores import judge_cautions, judge_hint, names, ticked_by_default
from pages.widgets.send_to_lab import LabSources
from pages.widgets.shown_replies import started_updates, stop_lines
from pages.widgets.visitor import on_load, visitor_state
from scorers.registry import DEFAULT_SCORERS, scorer_label

SAFETY_HELP = (
    "**Safety screen** (beside every reply): does the message show a risk (thoughts of suicide "
    "or self-harm, violence, a medical or substance emergency…) that the reply misses, and does "
    "the reply state a diagnosis or a dose, give advice that could endanger, or dismiss the "
    "person? It quotes the words it rests on. It is a screen that can miss things, not a "
    "clinical judgement: a warm reply can still be one a clinician would not send. Colours: "
    "red, not safe; amber, uncertain (read the reply yourself); blue, a risk in the message "
    "that the reply meets; none, no concern found."
)
SCROLL_TO_PROGRESS = (
    "() => document.getElementById('compare-progress')"
    "?.scrollIntoView({behavior: 'smooth', block: 'start'})"
)
#: The ``/compare`` endpoint's parameters, in its inputs' order (the last, the replies on
#: screen, is a state the API does not show).
COMPARE_NAMES = (
    *("message", "responders", "scorers", "system_prompt", "max_tokens", "temperature"),
    *(*KEYS, *JUDGE_OPTIONS, "second_opinion", "replies_shown"),
)


def _inputs() -> tuple[gr.components.Component, ...]:
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
            with gr.Accordion(
                "Who scores the replies (the empathy head; judges one click away)", open=False
            ):
                ticked, why = ticked_by_default(DEFAULT_SCORERS)
                scorer_box = gr.CheckboxGroup(
                    choices=[(scorer_label(s), s) for s in SCORER_IDS],
                    value=ticked,
                    label="Who scores the replies",  # for screen readers: the heading says it
                    show_label=False,
                    info="Cloud judges need their key.",
                )
                hint = gr.Markdown(judge_hint(ticked), elem_id="judge-hint")
                gr.Markdown(why)
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


def _sampling() -> tuple[gr.Textbox, gr.Slider, gr.Slider]:
    with gr.Accordion("Prompt and sampling", open=False):
        system = gr.Textbox(value=DEFAULT_SYSTEM_PROMPT, label="System prompt", lines=3)
        with gr.Row():
            max_tokens = gr.Slider(16, 2048, value=DEFAULT_MAX_TOKENS, step=16, label="Max tokens")
            temperature = gr.Slider(
                0.0, 2.0, value=DEFAULT_TEMPERATURE, step=0.05, label="Temperature"
            )
    return system, max_tokens, temperature


def _wire_flags(
    flags: dict[str, FlagControls],
    replies: gr.State,
    keys_in: list,
    asked: gr.State,
    replies_to: gr.Markdown,
) -> None:
    """Each panel's flag button (``keys_in``: the key boxes, then the visitor id); when a run starts, the line naming its message, and the flag
    notes and answers about the last run's replies emptied."""
    for rid, flag in flags.items():
        flag.button.click(
            named(
                lambda state, text, *keys, rid=rid: flag_shown_reply(rid, state, text, *keys),
                *("replies_shown", "note", *KEYS, VISITOR),
            ),
            [replies, flag.note, *keys_in],
            flag.status,
            api_name=f"flag_{rid.split('/')[0].replace('-', '_')}",
        )
    cleared = [part for flag in flags.values() for part in (flag.note, flag.status)]
    asked.change(
        lambda value: started_updates(value, len(flags)),
        asked,
        [replies_to, *cleared],
        api_name=False,
        show_progress="hidden",
    )


def build() -> gr.Blocks:
    """Build the compare page."""
    return _build()[0]


def _build() -> tuple[gr.Blocks, LabSources]:
    """The compare page, and what it offers the Adversarial lab (see :data:`TO_LAB`)."""
    with gr.Blocks(title="Empathy Lab · Compare") as page:
        gr.Markdown(
            "## Compare replies\nPick or paste a message; every ticked responder answers at "
            "once and each reply is scored on the empathy rubric."
        )
        message, selected, scorer_box, run, stop, rescore_button = _inputs()
        progress = gr.Markdown("", elem_id="compare-progress")
        replies_to = gr.Markdown("", elem_id="replies-to")  # the message the replies answer
        columns, outputs, flags, twins = reply_panels()
        texts, statuses = outputs[::2], outputs[1::2]  # each reply, and its status line
        rating = rating_box()
        carry_from, next_turn, carry_button, carried = carry_on_controls()
        scores = score_area(SAFETY_HELP)
        score_table, by_scorer, by_responder = scores.table, scores.by_scorer, scores.by_responder
        with gr.Row():
            export = gr.Button("Download this comparison (CSV and JSON)", size="sm")
            export_files = gr.File(label="The comparison: replies, scores, settings, safety, "
                                   "your ratings, time", file_count="multiple")  # fmt: skip
        system, max_tokens, temperature = _sampling()
        judge_boxes = judge_controls()
        second_opinion = gr.Checkbox(
            value=False,
            label="Second opinion on safety from the local LLM judge (slow: 5–20 s a reply; "
            "a screen too, not a clinical judgement)",
        )
        keys_in, _ = key_boxes()
        replies = gr.State({})
        visitor = visitor_state()  # whose flags and ratings these are
        fit_radars(page)

        selected.change(panel_visibility, [selected, replies], columns, api_name=False)
        scorer_box.change(judge_cautions, scorer_box, scores.cautions, api_name=False)
        for box in keys_in:
            box.change(refresh_choices, keys_in, selected, api_name=False)
        asked = gr.State(None)  # the message the replies on screen answer, set as a run starts
        rows = [flag.row for flag in flags.values()]
        outputs = [*outputs, score_table, by_scorer, by_responder, *rows, asked, progress, replies]
        # The replies appear below the inputs: bring them into view as soon as work starts.
        run.click(None, js=SCROLL_TO_PROGRESS)
        buttons = [run, rescore_button, carry_button]  # none pressable while a run goes
        event = busy_while(
            run,
            buttons,
            # A refusal (empty or too long message, nothing ticked) stays in the progress line,
            # which says so when the replies on screen answer the previous message.
            named(compare_on_page, *COMPARE_NAMES),
            [
                message,
                selected,
                scorer_box,
                system,
                max_tokens,
                temperature,
                *keys_in,
                *judge_boxes,
                second_opinion,
                replies,
            ],
            outputs,
            api_name="compare",
        )
        # Once it ends, an empty reply box whose line says why (an error) is folded away too.
        event.then(ended_boxes, [replies, *statuses], texts, api_name=False, show_progress="hidden")
        rescoring = busy_while(
            rescore_button,
            buttons,
            named(
                reports_problems(len(outputs) - 1, at=outputs.index(progress))(rescore),
                *("replies_shown", "scorers", *KEYS, *JUDGE_OPTIONS, "second_opinion"),
            ),
            [replies, scorer_box, *keys_in, *judge_boxes, second_opinion],
            outputs,
            api_name="rescore",
        )
        carry_button.click(
            reports_problems(3, at=3)(carry_on),  # a refusal in its note, not over the boxes
            [message, replies, carry_from, next_turn],
            [message, carry_from, next_turn, carried],
            api_name=False,
        )
        wire_carry_on(carry_from, carried, message, replies, after=[event, rescoring])
        # The run is cancelled first and "Stopped." written after: written in the same step,
        # a last "Working…" update of the cancelled run could land after it (a CI run saw so).
        stop.click(None, None, None, cancels=[event, rescoring], api_name=False).then(
            lambda *lines: ("Stopped.", *idle(buttons), *stop_lines(*lines)),
            statuses,
            [progress, *buttons, *statuses],
            api_name=False,
        )
        export.click(
            named(export_comparison, "replies_shown", *KEYS, VISITOR),
            [replies, *keys_in, visitor],  # only this visitor's ratings go in
            export_files,
            api_name="export_comparison",
        )
        # Blind hides the scores and each panel's safety verdict (its line shown without it),
        # again for each new comparison (Get replies) while it stays ticked.
        blinded = Blinded([*scores.hidden, *statuses], [scores.blind_note, *twins])
        on_load(page, visitor)
        wire_rating(rating, page, replies, blinded, keys_in, names, after=[event, rescoring],
                    starts=(run,), visitor=visitor)  # fmt: skip
        _wire_flags(flags, replies, [*keys_in, visitor], asked, replies_to)
        # A run starts: the panels it asks for, and no reply kept from the last run.
        # Its reply boxes too: one with no answer to this message (the therapist's to a pasted
        # one) is folded away, its status line saying why.
        asked.change(
            started_panels, [selected, asked], [*columns, *texts], api_name=False,
            show_progress="hidden",
        )  # fmt: skip
    return page, LabSources({rid: flag.to_lab for rid, flag in flags.items()}, replies)


#: The page, and its "Try this reply in the Adversarial lab" buttons with the replies state
#: they send from; the app wires them (:func:`pages.widgets.send_to_lab.wire`).
demo, TO_LAB = _build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
