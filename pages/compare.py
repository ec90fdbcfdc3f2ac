"""Compare page: one message (or a conversation), several responders, replies streamed side by
side, then scored.

Runs alone with ``python -m pages.compare``. The page only turns inputs into
calls of :func:`studies.comparison.stream_comparison` and its panels and scores into
component updates; every update is sent as soon as it happens (streaming).
Keys typed here travel with this browser session's requests and are never
stored on the server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import gradio as gr

from pages.compare_updates import (
    SCORER_IDS,
    compare_on_page,
    export_comparison,
    rescore,
)
from pages.widgets.api_names import JUDGE_OPTIONS, KEYS, VISITOR, named
from pages.widgets.busy import busy_while, idle
from pages.widgets.compare_inputs import compare_inputs, sampling_controls
from pages.widgets.conversation import carry_on, carry_on_controls, wire_carry_on
from pages.widgets.flag_reply import flag_shown_reply
from pages.widgets.judge import judge_controls
from pages.widgets.keys import key_boxes
from pages.widgets.notice import reports_problems
from pages.widgets.radar_fit import fit_radars
from pages.widgets.rating import RatingBox, rating_box
from pages.widgets.rating import wire as wire_rating
from pages.widgets.reply_panels import (
    FlagControls,
    ended_boxes,
    panel_visibility,
    refresh_choices,
    reply_panels,
    started_panels,
)
from pages.widgets.score_area import Blinded, ScoreArea, score_area
from pages.widgets.scores import names, scores_note
from pages.widgets.send_to_lab import LabSources
from pages.widgets.shown_replies import started_updates, stop_lines
from pages.widgets.visitor import on_load, visitor_state

if TYPE_CHECKING:
    from gradio.events import Dependency

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


class _Parts(NamedTuple):
    """The page's components that its events use, as :func:`_layout` makes them."""

    message: gr.Textbox
    selected: gr.CheckboxGroup
    scorer_box: gr.CheckboxGroup
    run: gr.Button
    stop: gr.Button
    rescore_button: gr.Button
    progress: gr.Markdown
    replies_to: gr.Markdown
    columns: list[gr.Column]
    #: Each panel's reply box and its status line, in turn.
    outputs: list[gr.components.Component]
    flags: dict[str, FlagControls]
    twins: list[gr.Markdown]
    rating: RatingBox
    #: :func:`carry_on_controls`: the reply kept, the next turn, the button, its note.
    carry: tuple[gr.Dropdown, gr.Textbox, gr.Button, gr.Markdown]
    scores: ScoreArea
    export: gr.Button
    export_files: gr.File
    #: The system prompt, max tokens and temperature (:func:`sampling_controls`).
    sampling: tuple[gr.Textbox, gr.Slider, gr.Slider]
    judge_boxes: list[gr.components.Component]
    second_opinion: gr.Checkbox
    keys_in: list[gr.Textbox]
    replies: gr.State
    visitor: gr.BrowserState

    @property
    def texts(self) -> list[gr.components.Component]:
        """Each panel's reply box."""
        return self.outputs[::2]

    @property
    def statuses(self) -> list[gr.components.Component]:
        """Each panel's status line."""
        return self.outputs[1::2]


def _build() -> tuple[gr.Blocks, LabSources]:
    """The compare page, and what it offers the Adversarial lab (see :data:`TO_LAB`)."""
    with gr.Blocks(title="Empathy Lab · Compare") as page:
        gr.Markdown(
            "## Compare replies\nPick or paste a message; every ticked responder answers at "
            "once and each reply is scored on the empathy rubric."
        )
        parts = _layout(page)
        _wire(page, parts)
    return page, LabSources({rid: flag.to_lab for rid, flag in parts.flags.items()}, parts.replies)


def _layout(page: gr.Blocks) -> _Parts:
    """The page under its heading: the inputs, the replies, rating and scores, the settings."""
    message, selected, scorer_box, run, stop, rescore_button = compare_inputs(SCORER_IDS)
    progress = gr.Markdown("", elem_id="compare-progress")
    replies_to = gr.Markdown("", elem_id="replies-to")  # the message the replies answer
    columns, outputs, flags, twins = reply_panels()
    rating = rating_box()
    carry = carry_on_controls()
    scores = score_area(SAFETY_HELP)
    with gr.Row():
        export = gr.Button("Download this comparison (CSV and JSON)", size="sm")
        export_files = gr.File(label="The comparison: replies, scores, settings, safety, "
                               "your ratings, time", file_count="multiple")  # fmt: skip
    sampling = sampling_controls()
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
    return _Parts(
        message, selected, scorer_box, run, stop, rescore_button, progress, replies_to,
        columns, outputs, flags, twins, rating, carry, scores, export, export_files, sampling,
        judge_boxes, second_opinion, keys_in, replies, visitor,
    )  # fmt: skip


def _wire(page: gr.Blocks, parts: _Parts) -> None:
    """Every event of the page but its inputs' own (:func:`compare_inputs`), in their order."""
    parts.selected.change(
        panel_visibility, [parts.selected, parts.replies], parts.columns, api_name=False
    )
    asked = gr.State(None)  # the message the replies on screen answer, set as a run starts
    # the trust notes above the scores; a conversation's first say how it fared with experts
    for changed in (parts.scorer_box, asked):
        changed.change(
            scores_note, [parts.scorer_box, asked], parts.scores.cautions, api_name=False,
            show_progress="hidden",
        )  # fmt: skip
    for box in parts.keys_in:
        box.change(refresh_choices, parts.keys_in, parts.selected, api_name=False)
    rows = [flag.row for flag in parts.flags.values()]
    scores = parts.scores
    outputs = [*parts.outputs, scores.table, scores.by_scorer, scores.by_responder, *rows, asked,
               parts.progress, parts.replies]  # fmt: skip
    # The replies appear below the inputs: bring them into view as soon as work starts.
    parts.run.click(None, js=SCROLL_TO_PROGRESS)
    buttons = [parts.run, parts.rescore_button, parts.carry[2]]  # none pressable while a run goes
    event, rescoring = _wire_runs(parts, buttons, outputs)
    _wire_after(page, parts, buttons, [event, rescoring])
    _wire_flags(
        parts.flags, parts.replies, [*parts.keys_in, parts.visitor], asked, parts.replies_to
    )
    # A run starts: the panels it asks for, and no reply kept from the last run.
    # Its reply boxes too: one with no answer to this message (the therapist's to a pasted
    # one) is folded away, its status line saying why.
    asked.change(
        started_panels, [parts.selected, asked], [*parts.columns, *parts.texts], api_name=False,
        show_progress="hidden",
    )  # fmt: skip


def _wire_runs(
    parts: _Parts, buttons: list[gr.Button], outputs: list[gr.components.Component]
) -> tuple[Dependency, Dependency]:
    """Get replies and Score again, each greying ``buttons`` while it runs; returns their
    events (what Stop cancels)."""
    settings = [*parts.sampling, *parts.keys_in, *parts.judge_boxes, parts.second_opinion]
    event = busy_while(
        parts.run,
        buttons,
        # A refusal (empty or too long message, nothing ticked) stays in the progress line,
        # which says so when the replies on screen answer the previous message.
        named(compare_on_page, *COMPARE_NAMES),
        [parts.message, parts.selected, parts.scorer_box, *settings, parts.replies],
        outputs,
        api_name="compare",
    )
    # Once it ends, an empty reply box whose line says why (an error) is folded away too.
    event.then(
        ended_boxes, [parts.replies, *parts.statuses], parts.texts, api_name=False,
        show_progress="hidden",
    )  # fmt: skip
    rescoring = busy_while(
        parts.rescore_button,
        buttons,
        named(
            reports_problems(len(outputs) - 1, at=outputs.index(parts.progress))(rescore),
            *("replies_shown", "scorers", *KEYS, *JUDGE_OPTIONS, "second_opinion"),
        ),
        [parts.replies, parts.scorer_box, *parts.keys_in, *parts.judge_boxes, parts.second_opinion],
        outputs,
        api_name="rescore",
    )
    return event, rescoring


def _wire_after(
    page: gr.Blocks, parts: _Parts, buttons: list[gr.Button], runs: list[Dependency]
) -> None:
    """Carrying the conversation on, Stop, the download, Blind and the rating, once ``runs``
    (Get replies, Score again) are wired."""
    carry_from, next_turn, carry_button, carried = parts.carry
    carry_button.click(
        reports_problems(3, at=3)(carry_on),  # a refusal in its note, not over the boxes
        [parts.message, parts.replies, carry_from, next_turn],
        [parts.message, carry_from, next_turn, carried],
        api_name=False,
    )
    wire_carry_on(carry_from, carried, parts.message, parts.replies, after=runs)
    # The run is cancelled first and "Stopped." written after: written in the same step,
    # a last "Working…" update of the cancelled run could land after it (a CI run saw so).
    parts.stop.click(None, None, None, cancels=runs, api_name=False).then(
        lambda *lines: ("Stopped.", *idle(buttons), *stop_lines(*lines)),
        parts.statuses,
        [parts.progress, *buttons, *parts.statuses],
        api_name=False,
    )
    parts.export.click(
        named(export_comparison, "replies_shown", *KEYS, VISITOR),
        [parts.replies, *parts.keys_in, parts.visitor],  # only this visitor's ratings go in
        parts.export_files,
        api_name="export_comparison",
    )
    # Blind hides the scores and each panel's safety verdict (its line shown without it),
    # again for each new comparison (Get replies) while it stays ticked.
    scores = parts.scores
    blinded = Blinded([*scores.hidden, *parts.statuses], [scores.blind_note, *parts.twins])
    on_load(page, parts.visitor)
    wire_rating(parts.rating, page, parts.replies, blinded, parts.keys_in, names, after=runs,
                starts=(parts.run,), visitor=parts.visitor)  # fmt: skip


#: The page, and its "Try this reply in the Adversarial lab" buttons with the replies state
#: they send from; the app wires them (:func:`pages.widgets.send_to_lab.wire`).
demo, TO_LAB = _build()

if __name__ == "__main__":
    from pages.widgets.launch import launch_options

    demo.launch(**launch_options())
