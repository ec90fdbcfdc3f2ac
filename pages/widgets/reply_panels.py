"""The Compare page's reply panels: one per offered responder, shown when ticked.

Each panel has its reply (Markdown, streamed), a status line, and its flag controls
(note + button) right beside it, shown only once there is a reply to flag. The status line has
a twin without its safety verdict (:data:`WITHOUT_SAFETY`), shown in its place while Blind holds
the scores back (:mod:`pages.widgets.score_area`). With them sits
"Try this reply in the Adversarial lab", hidden unless the app shows the lab as a tab
(:mod:`pages.widgets.send_to_lab`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import gradio as gr

from core.questions import by_label, find_question
from pages.widgets.kept_words import FLAG_KEPT
from pages.widgets.keys import typed_keys
from pages.widgets.send_to_lab import BUTTON as LAB_BUTTON
from responders.base import ResponderUnavailable
from responders.registry import (
    availability,
    default_responder_ids,
    get_responder,
    responder_class,
)

RESPONDER_IDS = default_responder_ids()
PER_ROW = 3
#: Around the safety verdict in a panel's status line (nothing on screen): the twin line drops
#: what lies between them.
SAFETY_START, SAFETY_END = "<!--safety-->", "<!--/safety-->"
#: What the twin says in the verdict's place.
SAFETY_HELD = "*Safety screen: hidden until you have rated every reply (Blind).*"
#: The status line without its safety verdict, made in the browser whenever the line changes
#: (while the run streams too, with no call to the server).
WITHOUT_SAFETY = (
    "(line) => (line || '').replace(/\\s*<!--safety-->[\\s\\S]*?<!--\\/safety-->/g, "
    f"'\\n\\n{SAFETY_HELD}')"
)
#: A person's own answers (the therapist): they exist for the bundled questions only, so a
#: picked question ticks them and a message that is no longer that question unticks them.
PEOPLE = [rid for rid in RESPONDER_IDS if responder_class(rid).is_person]


def responder_choices(*key_values: str) -> list[tuple[str, str]]:
    """Every offered responder as (readable name, id); the name says what a missing one needs.

    >>> dict((v, k) for k, v in responder_choices())["openai/gpt-4o"]
    'OpenAI: gpt-4o — needs OPENAI_API_KEY'
    """
    status = availability(typed_keys(*key_values))
    return [
        (get_responder(r).display_name + (f" — {why.split(':')[0]}" if why else ""), r)
        for r, why in status.items()
    ]


def refresh_choices(*key_values: str) -> gr.CheckboxGroup:
    """Update the responder list after a key was typed."""
    return gr.CheckboxGroup(choices=responder_choices(*key_values))


def panel_id(responder_id: str) -> str:
    """The HTML id of a responder's reply panel: ``reply-local-qwen2-5-coder-1-5b``."""
    return "reply-" + re.sub(r"\W+", "-", responder_id.replace("_", "-"))


def initial_status(responder_id: str) -> str:
    """A panel's line before any run: what the responder needs, if anything."""
    reason = availability()[responder_id]
    return "not run yet" if reason is None else f"unavailable: {reason}"


def default_selection() -> list[str]:
    """Responders ticked when the page opens: those ready that need no key (the local
    model, an OpenAI-compatible server the operator set up). The therapist is not among
    them: their answers exist for the bundled questions only, and picking one ticks them
    (a pasted message with the therapist ticked got one reply fewer than it seemed to ask).

    >>> "human/counselchat" in default_selection()
    False
    """
    ready = [rid for rid, reason in availability().items() if reason is None]
    chosen = [r for r in ready if not responder_class(r).needs_key and r not in PEOPLE]
    return chosen or [r for r in ready if r not in PEOPLE] or ready


def picked_question(label: str | None, selected: list[str]) -> tuple[object, object]:
    """A bundled question picked: its text for the message box, and the therapist ticked."""
    question = by_label(label or "")
    if question is None:  # the picker emptied: the message and the ticks stay as they are
        return gr.skip(), gr.skip()
    ticked = list(selected or [])
    return question.question, ticked + [rid for rid in PEOPLE if rid not in ticked]


def after_edit(
    message: str, label: str | None, selected: list[str]
) -> tuple[str | None, list[str]] | None:
    """The picker and the ticks once the message box says ``message`` (None: no change).

    While it is the picked question (spacing and case aside) nothing changes; once it is
    another bundled question, the picker names that one; once it is none of them, the picker
    is emptied and the therapist unticked, since their answer is only for a bundled question.

    >>> from core.questions import load_questions
    >>> q = load_questions()[0]
    >>> after_edit(q.question.upper(), q.choice_label, ["human/counselchat"]) is None
    True
    >>> after_edit("My own words.", q.choice_label, ["local/x", "human/counselchat"])
    (None, ['local/x'])
    >>> after_edit("My own words.", None, ["human/counselchat"]) is None
    True
    """
    picked = by_label(label or "")
    if picked is None:  # nothing picked: the ticks are the visitor's own
        return None
    found = find_question(message or "")
    if found is picked:
        return None
    if found is not None:
        return found.choice_label, list(selected or [])
    return None, [rid for rid in selected or [] if rid not in PEOPLE]


def message_edited(message: str, label: str | None, selected: list[str]) -> tuple[object, object]:
    """:func:`after_edit` as updates of the picker and the responder ticks."""
    change = after_edit(message, label, selected)
    return (gr.skip(), gr.skip()) if change is None else change


def panel_visibility(selected: list[str], saved: dict | None = None) -> list[gr.Column]:
    """Show the panels of ticked responders, and of those whose reply is on screen
    (``saved``: the page's replies state): unticking one, say the therapist when the message
    is edited, keeps its reply in view until the next run starts.

    >>> [c.visible for c in panel_visibility(["human/counselchat"])][:2]
    [False, True]
    >>> shown = {"replies": {"human/counselchat": {"text": "I hear you."}}}
    >>> [c.visible for c in panel_visibility([], shown)][:2]
    [False, True]
    """
    replies = (saved or {}).get("replies") or {}
    kept = {rid for rid, reply in replies.items() if (reply or {}).get("text")}
    return [gr.Column(visible=rid in (selected or []) or rid in kept) for rid in RESPONDER_IDS]


def has_answer(responder_id: str, asked: tuple[str, int, float] | None) -> bool:
    """Whether ``responder_id`` can answer what a run asks (``asked``: the message, how many
    turns came before it, when; :func:`pages.widgets.shown_replies.asked_value`). A model always
    writes; a person's answer exists only for a bundled question on its own.

    >>> from core.questions import load_questions
    >>> q = load_questions()[0].question
    >>> has_answer("human/counselchat", (q, 0, 0.0)), has_answer("human/counselchat", (q, 2, 0.0))
    (True, False)
    >>> has_answer("human/counselchat", ("My own words.", 0, 0.0))
    False
    """
    if responder_id not in PEOPLE or not asked:
        return True
    message, before, _ = asked
    person = get_responder(responder_id)
    try:
        person.history_attribution() if before else person.attribution(message)
    except ResponderUnavailable:
        return False
    return True


def started_panels(selected: list[str], asked: tuple[str, int, float] | None) -> list:
    """When a run starts: the panels it asks for (:func:`panel_visibility`), then each panel's
    reply box, folded away where its responder has no answer to this message (the therapist
    for a pasted message: the panel keeps its name and the line saying why, not an empty box).

    >>> out = started_panels(["human/counselchat"], ("My own words.", 0, 0.0))
    >>> human = RESPONDER_IDS.index("human/counselchat")
    >>> out[human].visible, out[len(RESPONDER_IDS) + human]["visible"]
    (True, False)
    """
    boxes = [gr.update(visible=has_answer(rid, asked)) for rid in RESPONDER_IDS]
    return [*panel_visibility(selected), *boxes]


def ended_boxes(saved: dict | None, *status_lines: str) -> list[dict]:
    """Once a run ends: each panel's reply box folded away where nothing was written and its
    status line says why (unavailable here, or an error), shown otherwise.

    >>> lines = ["error: could not reach the server"] + ["done"] * (len(RESPONDER_IDS) - 1)
    >>> [u["visible"] for u in ended_boxes({}, *lines)][:2]
    [False, True]
    """
    replies = (saved or {}).get("replies") or {}
    return [
        gr.update(
            visible=bool((replies.get(rid) or {}).get("text"))
            or not str(line or "").startswith(("error", "unavailable"))
        )
        for rid, line in zip(RESPONDER_IDS, status_lines, strict=True)
    ]


class FlagControls(NamedTuple):
    """A panel's flag controls: the group (hidden while the panel has no reply), the note, the
    button, the answer below them, and the button sending the reply to the lab."""

    row: gr.Column
    note: gr.Textbox
    button: gr.Button
    status: gr.Markdown
    to_lab: gr.Button


def _status_lines(responder_id: str) -> tuple[gr.Markdown, gr.Markdown]:
    """A panel's status line, and its twin without the safety verdict (hidden until Blind
    shows it in the line's place), kept in step by the browser."""
    status = gr.Markdown(initial_status(responder_id))
    twin = gr.Markdown(initial_status(responder_id), visible=False)
    quiet = {"api_name": False, "show_progress": "hidden"}
    status.change(None, status, twin, js=WITHOUT_SAFETY, **quiet)
    return status, twin


def reply_panels() -> tuple[list[gr.Column], list[gr.components.Component], dict, list]:
    """A column per offered responder (visible when ticked): its name, reply, status line (and
    its twin without the safety verdict, hidden) and flag controls; returns the columns, the
    (reply, status) outputs, each one's flag controls and the twins.
    """
    columns: list[gr.Column] = []
    outputs: list[gr.components.Component] = []
    flags: dict[str, FlagControls] = {}
    twins: list[gr.Markdown] = []
    ticked = default_selection()
    for start in range(0, len(RESPONDER_IDS), PER_ROW):
        with gr.Row(equal_height=False):
            for rid in RESPONDER_IDS[start : start + PER_ROW]:
                with gr.Column(  # the panel, found by its id even when its reply box folds
                    visible=rid in ticked, min_width=280, elem_id=f"{panel_id(rid)}-column"
                ) as column:
                    gr.Markdown(f"**{get_responder(rid).display_name}** <small>`{rid}`</small>")
                    text = gr.Markdown(
                        "",
                        elem_id=panel_id(rid),
                        elem_classes=["reply-panel"],
                        min_height=80,
                        max_height=420,
                    )
                    status, twin = _status_lines(rid)
                    with gr.Column(visible=False, elem_classes=["flag-row"]) as row:
                        gr.Markdown(f"<small>{FLAG_KEPT}</small>")  # before the note
                        with gr.Row(equal_height=True):  # the button as tall as the box
                            note = gr.Textbox(  # the label names it for screen readers
                                label="Why flag this reply? (optional)",
                                placeholder="Why flag it? (optional)",
                                show_label=False,
                            )
                            button = gr.Button("Flag this reply", size="sm")
                        flag_status = gr.Markdown()
                        to_lab = gr.Button(LAB_BUTTON, size="sm", visible=False)
                columns.append(column)
                outputs += [text, status]
                flags[rid] = FlagControls(row, note, button, flag_status, to_lab)
                twins.append(twin)
    return columns, outputs, flags, twins
