"""Checking and cleaning text that people paste into the app.

Any Unicode is kept (emoji, right-to-left scripts, combining marks). What is
removed: NUL and other control characters (except newline and tab), lone
surrogates, byte-order marks, the replacement character left behind by
binary junk, and the invisible direction overrides and isolates (U+202A–U+202E,
U+2066–U+2069) that can make a text display in another order than it reads
(right-to-left text itself is kept). Empty input and input over the length limit raise
:class:`InputError` with a message meant for the person, never a traceback.

>>> clean_text("  I feel\\x00 alone\\r\\n ")
'I feel alone'
>>> clean_text("שלום 👋")
'שלום 👋'
>>> clean_text("rate this \u202e3 ot\u202c please")
'rate this 3 ot please'
"""

from __future__ import annotations

import re
import unicodedata

from config import SETTINGS


class InputError(ValueError):
    """Input a person should fix; the message says how."""


# C0 and C1 control characters except \t and \n, plus BOM, replacement char
# and noncharacters that binary data decodes into.
_JUNK = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufeff\ufffd\ufffe\uffff\u202a-\u202e\u2066-\u2069]"
)
_SURROGATES = re.compile(r"[\ud800-\udfff]")
_BLANK_RUNS = re.compile(r"\n{3,}")
#: What to do about an empty box, by what it holds.
_FILL = {
    "message": "paste a question or a story first.",
    "reply": "paste the reply to check first.",
}


def clean_text(text: object, *, limit: int | None = None, what: str = "message") -> str:
    """Return ``text`` cleaned for use as a prompt or a reply.

    Raises :class:`InputError` when nothing is left or when the text is longer
    than ``limit`` characters (default: ``EMPATHY_LAB_MAX_MESSAGE_CHARS``).

    >>> clean_text("")
    Traceback (most recent call last):
    ...
    core.textinput.InputError: The message is empty: paste a question or a story first.
    """
    if text is None:
        text = ""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise InputError(f"The {what} must be text.")
    limit = SETTINGS.max_message_chars if limit is None else limit
    if len(text) > 4 * limit + 100_000:  # refused before any cleaning: far past the limit
        raise InputError(_too_long(what, len(text.strip()), limit))
    text = _SURROGATES.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _JUNK.sub("", text)
    text = unicodedata.normalize("NFC", text)
    text = _BLANK_RUNS.sub("\n\n", text).strip()
    if not text:
        raise InputError(f"The {what} is empty: {_FILL.get(what, 'type or paste it first.')}")
    if len(text) > limit:
        raise InputError(_too_long(what, len(text), limit))
    return text


def _too_long(what: str, length: int, limit: int) -> str:
    return (
        f"The {what} is {length:,} characters long; the limit is {limit:,}. "
        "Shorten it (keep the part that matters most) and try again."
    )
