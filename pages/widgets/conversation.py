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


def carry_on_controls() -> tuple[gr.Dropdown, gr.Textbox, gr.Button]:
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
    return chosen, next_turn, button


def carry_on(text: str, saved: dict, rid: str | None, next_turn: str) -> str:
    """The message box's conversation with the chosen reply and the seeker's next turn added.

    >>> saved = {"replies": {"a/b": {"text": "That sounds hard."}}}
    >>> print(carry_on("I lost my job.", saved, "a/b", "Yes, and I'm scared."))
    Seeker: I lost my job.
    Supporter: That sounds hard.
    Seeker: Yes, and I'm scared.
    """
    reply = ((saved or {}).get("replies") or {}).get(rid or "", {}).get("text")
    if not reply:
        raise gr.Error("Pick a reply that is on screen (get replies first).")
    try:
        conversation = parse_conversation(text)
        longer = conversation.then(SUPPORTER, reply).then(SEEKER, next_turn)
    except InputError as exc:
        raise gr.Error(str(exc)) from None
    return longer.transcript()
