"""Conversation controls shared by the pages: a picker of example conversations, and a way to
carry a conversation on (a reply on screen becomes the supporter's turn, then the seeker's next).

The conversation itself is :mod:`core.conversation`; these only move text between boxes.
"""

from __future__ import annotations

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
                choices=[(names(rid), rid) for rid in RESPONDER_IDS],
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
    turns = len(longer.turns)
    note = f"Added: the message box now holds {turns} turns. Press **Get replies** for the next."
    return longer.transcript(), None, "", note
