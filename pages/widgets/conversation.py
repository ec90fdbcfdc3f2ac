"""Conversation controls shared by the pages: a picker of example conversations, and a way to
carry a conversation on (a reply on screen becomes the supporter's turn, then the seeker's next).

The conversation itself is :mod:`core.conversation`; these only move text between boxes.
"""

from __future__ import annotations

import re

import gradio as gr

from core.conversation import SEEKER, SUPPORTER, bundled_conversations, parse_conversation
from core.textinput import InputError
from pages.widgets.reply_panels import RESPONDER_IDS
from pages.widgets.scores import names

#: How the message box explains what it takes.
MESSAGE_LABEL = "…or paste a message, a story, or a conversation"
MESSAGE_INFO = (
    "A conversation: one turn per line, each starting 'Seeker:' or 'Supporter:' "
    "(or 'User:'/'Assistant:'), ending with the seeker's turn. Every responder then writes "
    "the supporter's next turn, and the scores read the whole conversation."
)
#: What the carry-on note says once both turns are added (:func:`carried_note` reads it back).
ADDED = "Added: the message box now holds {turns} turns. Press **Get replies** for the next."
ADDED_PATTERN = r"Added: the message box now holds (\d+) turns\."


def conversation_picker() -> gr.Dropdown:
    """A dropdown of the example conversations (written for this project)."""
    return gr.Dropdown(
        choices=list(bundled_conversations()),
        value=None,
        label="…or pick an example conversation (written for this project)",
    )


def conversation_text(title: str | None) -> str:
    """The example conversation's text (``Seeker:`` / ``Supporter:`` lines) for a title.

    >>> conversation_text(next(iter(bundled_conversations()))).startswith("Seeker: ")
    True
    """
    found = bundled_conversations().get(title or "")
    return found.transcript() if found else gr.skip()


def conversation_edited(text: str, title: str | None) -> object:
    """The picker's value once the message box holds ``text``: cleared when the text is no
    longer the picked example conversation (a bundled question or the visitor's own words
    replaced it), else left as it is.

    >>> first = next(iter(bundled_conversations()))
    >>> conversation_edited("My exams are soon.", first) is None
    True
    >>> conversation_edited(conversation_text(first), first) == gr.skip()
    True
    """
    found = bundled_conversations().get(title or "")
    if found is None or " ".join(text.split()) == " ".join(found.transcript().split()):
        return gr.skip()
    return None


def carry_on_controls() -> tuple[gr.Dropdown, gr.Textbox, gr.Button, gr.Markdown]:
    """Which reply to keep as the supporter's turn, the seeker's next turn, and the button."""
    with gr.Accordion("Carry the conversation on (turn by turn)", open=False):
        gr.Markdown(
            "Keep one reply as the supporter's turn, write what the person says next, and "
            "press the button: the message box then holds the longer conversation. Press "
            "**Get replies** for everyone's next turn."
        )
        with gr.Row():
            chosen = gr.Dropdown(
                choices=[],  # the replies on screen, once there are some (carry_choices)
                value=None,
                label="Keep this reply as the supporter's turn",
            )
            next_turn = gr.Textbox(label="What the person says next", lines=2)
        button = gr.Button("Add both to the conversation", size="sm")
        done = gr.Markdown("")
    return chosen, next_turn, button, done


def carry_on(text: str, saved: dict, rid: str | None, next_turn: str) -> tuple[str, ...]:
    """The message box's conversation with the chosen reply and the seeker's next turn added;
    the two boxes are emptied (so a second press cannot add them twice) and a note says what
    happened.

    >>> saved = {"replies": {"a/b": {"text": "That sounds hard."}}}
    >>> text, *_, note = carry_on("I lost my job.", saved, "a/b", "Yes, and I'm scared.")
    >>> print(text)
    Seeker: I lost my job.
    Supporter: That sounds hard.
    Seeker: Yes, and I'm scared.
    """
    replies = (saved or {}).get("replies") or {}
    if not rid:
        raise gr.Error("Pick the reply to keep as the supporter's turn.")
    reply = replies.get(rid, {}).get("text")
    if not reply:
        raise gr.Error(
            f"{names(rid)} has no reply on screen (it was not asked, or could not answer "
            "this): pick another."
        )
    try:
        conversation = parse_conversation(text)
        longer = conversation.then(SUPPORTER, reply).then(SEEKER, next_turn)
    except InputError as exc:
        raise gr.Error(str(exc)) from None
    note = ADDED.format(turns=len(longer.turns))
    return longer.transcript(), None, "", note


def carry_choices(saved: dict, current: str | None) -> gr.Dropdown:
    """The "Keep this reply" menu: only the responders with a reply on screen, the one chosen
    kept, else the first (the only one, when one replied) picked; empty with no reply.

    >>> saved = {"replies": {"local/x": {"text": ""}, "human/counselchat": {"text": "Hm."}}}
    >>> menu = carry_choices(saved, None)
    >>> [rid for _, rid in menu.choices], menu.value
    (['human/counselchat'], 'human/counselchat')
    """
    replies = (saved or {}).get("replies") or {}
    ids = [rid for rid, reply in replies.items() if (reply or {}).get("text")]
    ids.sort(key=lambda rid: RESPONDER_IDS.index(rid) if rid in RESPONDER_IDS else len(ids))
    value = current if current in ids else (ids[0] if ids else None)
    return gr.Dropdown(choices=[(names(rid), rid) for rid in ids], value=value)


def carried_note(text: str, note: str) -> object:
    """The note under the carry-on button once the message box holds ``text``: an "Added: …
    N turns" note stays only while the box holds N turns (a picked question or conversation
    replaced it: emptied); any other note is emptied too (typing empties it at once).

    >>> note = ADDED.format(turns=3)
    >>> carried_note("Seeker: a\\nSupporter: b\\nSeeker: c", note) == gr.skip()
    True
    >>> carried_note("My exams are soon.", note), carried_note("x", "")
    ('', '')
    """
    said = re.match(ADDED_PATTERN, note or "")
    if said:
        try:
            if len(parse_conversation(text).turns) == int(said[1]):
                return gr.skip()
        except InputError:
            pass
    return ""


def wire_carry_on(
    chosen: gr.Dropdown, note: gr.Markdown, message: gr.Textbox, saved: gr.State, after: list
) -> None:
    """The carry-on menu refilled with the replies on screen once each event of ``after`` ends,
    and its note emptied when the message box changes by hand (typed, pasted, or replaced by
    a pick; :func:`carried_note`)."""
    for event in after:
        event.then(carry_choices, [saved, chosen], chosen, api_name=False, show_progress="hidden")
    message.input(lambda: "", None, note, api_name=False, show_progress="hidden")
    message.change(carried_note, [message, note], note, api_name=False, show_progress="hidden")
