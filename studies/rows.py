"""Reading one row of a visitor's table (a CSV): the reply, the message and, when a
``conversation`` column is there, the turns before the message.

The ``conversation`` column holds turns as ``Seeker:`` / ``Supporter:`` lines or a JSON
list (:func:`core.conversation.parse_conversation`). It ends with the seeker's turn the
reply answers; when the row has no reply and the conversation ends with the supporter,
that last turn is the reply to score. A row without the column reads as before
(``message`` and ``reply``).

>>> item = score_item({"conversation": "Seeker: I lost my job.\\nSupporter: Oh no.\\nSeeker: I'm scared.",
...                    "reply": "What scares you most?"})
>>> item.message, len(item.history)
("I'm scared.", 2)
>>> score_item({"conversation": "Seeker: Hi\\nSupporter: Hello, I'm here."}).reply
"Hello, I'm here."
"""

from __future__ import annotations

from collections.abc import Mapping

from core.conversation import Conversation, Turn, parse_conversation
from scorers.base import ScoreItem

COLUMN = "conversation"


def conversation_of(row: Mapping[str, object]) -> Conversation | None:
    """The row's conversation ending on the seeker's turn, or None when it has none.

    Raises :class:`core.textinput.InputError` for an unreadable one.
    """
    text = str(row.get(COLUMN) or "").strip()
    if not text:
        return None
    return parse_conversation(text)


def score_item(row: Mapping[str, object]) -> ScoreItem:
    """What to score in the row (see the module); raises ``InputError`` for a bad conversation."""
    reply = str(row.get("reply") or "")
    text = str(row.get(COLUMN) or "").strip()
    if not text:
        return ScoreItem(reply, str(row.get("message") or "") or None)
    conversation = parse_conversation(text, want_reply=False)
    if not reply.strip() and not conversation.ends_with_seeker:
        reply, conversation = conversation.turns[-1].text, Conversation(conversation.history)
    if not conversation.ends_with_seeker:
        parse_conversation(conversation.transcript())  # raises the plain-words refusal
    return ScoreItem(reply, conversation.message, conversation.history)


def message_and_history(row: Mapping[str, object]) -> tuple[str | None, tuple[Turn, ...]]:
    """The message a reply to this row answers, and the turns before it."""
    conversation = conversation_of(row)
    if conversation is None:
        return str(row.get("message") or "") or None, ()
    return conversation.message, conversation.history
