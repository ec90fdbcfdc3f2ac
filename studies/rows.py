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

from core.conversation import Conversation, parse_conversation
from scorers.base import ScoreItem

COLUMN = "conversation"


def score_item(row: Mapping[str, object]) -> ScoreItem:
    """What to score in the row (see the module); raises ``InputError`` for a bad conversation."""
    reply = str(row.get("reply") or "")
    text = str(row.get(COLUMN) or "").strip()
    if not text:
        return ScoreItem(reply, str(row.get("message") or "") or None)
    conversation = parse_conversation(text, want_reply=False)
    if not reply.strip() and not conversation.ends_with_seeker and conversation.history:
        reply, conversation = conversation.turns[-1].text, Conversation(conversation.history)
    if not conversation.ends_with_seeker:
        parse_conversation(conversation.transcript())  # raises the plain-words refusal
    return ScoreItem(reply, conversation.message, conversation.history)
