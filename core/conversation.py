"""A support conversation: ordered turns, each the seeker's or the supporter's.

The one input model of the app. A single message is a conversation of one
turn, so every responder, scorer and study takes the same thing. One parser,
:func:`parse_conversation`, reads what people paste: lines that start with a
speaker (``Seeker:`` / ``Supporter:``, ``User:`` / ``Assistant:``,
``Client:`` / ``Therapist:``, ``Me:`` / ``You:``), a JSON list of
``{"role", "text"}``, or plain text (one seeker turn).

>>> conv = parse_conversation("Seeker: I lost my job.\\nSupporter: I'm sorry.\\nSeeker: I can't sleep.")
>>> conv.message, len(conv.history), conv.is_single
("I can't sleep.", 2, False)
>>> print(conv.transcript())
Seeker: I lost my job.
Supporter: I'm sorry.
Seeker: I can't sleep.
>>> parse_conversation("My dog died.").is_single
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from config import BUNDLED_DATA_DIR, SETTINGS
from core.textinput import InputError, clean_text

SEEKER, SUPPORTER = "seeker", "supporter"
#: The words a pasted line may start with, and whose turn they mark.
ROLE_WORDS: Mapping[str, str] = {
    "seeker": SEEKER,
    "user": SEEKER,
    "client": SEEKER,
    "me": SEEKER,
    "supporter": SUPPORTER,
    "assistant": SUPPORTER,
    "therapist": SUPPORTER,
    "counsellor": SUPPORTER,
    "counselor": SUPPORTER,
    "you": SUPPORTER,
}
#: Short conversations written for this project, for the pages' example pickers.
BUNDLED_FILE = BUNDLED_DATA_DIR / "conversations.jsonl"
#: The most turns one conversation may have.
MAX_TURNS = 40
_SPEAKER = re.compile(r"^\s*(" + "|".join(ROLE_WORDS) + r")\s*:\s?", re.IGNORECASE)
_LABEL = {SEEKER: "Seeker", SUPPORTER: "Supporter"}
#: A line that starts like a speaker's turn: a short name (one to three words) and a colon.
_LABELLED = re.compile(r"^\s*([A-Za-z][\w'’.-]*(?: [\w'’.-]+){0,2})\s*:(?:\s|$)")
#: Words before a colon that head a part of a post, never a speaker.
NOT_SPEAKERS = frozenset(
    {
        "edit", "update", "note", "ps", "p.s", "p.s.", "tl;dr", "tldr", "background",
        "context", "question", "answer", "warning", "trigger warning", "tw", "cw",
        "content warning", "summary", "source", "sources",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Turn:
    """One turn: who spoke (``seeker`` or ``supporter``) and what they wrote."""

    role: str
    text: str

    def to_dict(self) -> dict[str, str]:
        """``{"role", "text"}``, the JSON form the parser reads back."""
        return {"role": self.role, "text": self.text}


@dataclass(frozen=True)
class Conversation:
    """Ordered turns; when it ends on the seeker, :attr:`message` is what a reply answers."""

    turns: tuple[Turn, ...]

    @classmethod
    def single(cls, message: str) -> Conversation:
        """A conversation of one seeker turn."""
        return cls((Turn(SEEKER, message),))

    @property
    def message(self) -> str:
        """The seeker's last turn: the message the next reply answers."""
        return next(t.text for t in reversed(self.turns) if t.role == SEEKER)

    @property
    def history(self) -> tuple[Turn, ...]:
        """The turns before the last one (empty for a single message)."""
        return self.turns[:-1]

    @property
    def is_single(self) -> bool:
        """True for one seeker turn and nothing else."""
        return len(self.turns) == 1

    @property
    def ends_with_seeker(self) -> bool:
        """True when the next turn is the supporter's."""
        return self.turns[-1].role == SEEKER

    def seeker_texts(self) -> list[str]:
        """Every seeker turn, in order."""
        return [t.text for t in self.turns if t.role == SEEKER]

    def then(self, role: str, text: str) -> Conversation:
        """This conversation with one more turn (cleaned; same-speaker turns are joined).

        >>> Conversation.single("Hi").then("supporter", "Hello.").transcript()
        'Seeker: Hi\\nSupporter: Hello.'
        """
        return build([*self.turns, Turn(role, text)])

    def transcript(self, turns: Sequence[Turn] | None = None) -> str:
        """``Seeker: …`` / ``Supporter: …`` lines, the form the parser reads back."""
        return transcript(self.turns if turns is None else turns)

    def to_json(self) -> str:
        """A JSON list of ``{"role", "text"}``."""
        return json.dumps([t.to_dict() for t in self.turns], ensure_ascii=False)


def asked(text: object) -> str | Conversation:
    """What a responder is asked for pasted ``text``: a single message stays text (so a
    bundled question is still found), several turns are a conversation.

    >>> asked("I can't sleep."), type(asked("Seeker: Hi\\nSupporter: Hey\\nSeeker: I'm low")).__name__
    ("I can't sleep.", 'Conversation')
    """
    conversation = parse_conversation(text)
    return conversation.message if conversation.is_single else conversation


def transcript(turns: Iterable[Turn]) -> str:
    """Turns as ``Seeker: …`` / ``Supporter: …`` lines.

    >>> transcript([Turn("seeker", "I miss her.")])
    'Seeker: I miss her.'
    """
    return "\n".join(f"{_LABEL[t.role]}: {t.text}" for t in turns)


def parse_conversation(text: object, *, want_reply: bool = True) -> Conversation:
    """The conversation in ``text`` (see the module); :class:`InputError` says what to fix.

    With ``want_reply`` (the default) it must end on the seeker's turn.

    >>> parse_conversation('[{"role": "user", "text": "Hi"}, {"role": "assistant", "text": "Hey"}]')
    Traceback (most recent call last):
    ...
    core.textinput.InputError: The conversation ends with the supporter's turn, so there is nothing for a reply to answer: end it with the seeker's next message, or delete the last supporter turn.
    """
    raw = clean_text(text, limit=_limit(text), what=_what(text))
    turns = _json_turns(raw) if raw.startswith("[") else None
    if turns is None:
        _refuse_unknown_speakers(raw)
        turns = _line_turns(raw) if _SPEAKER.match(raw) else [Turn(SEEKER, raw)]
    conversation = build(turns)
    if want_reply and not conversation.ends_with_seeker:
        raise InputError(
            "The conversation ends with the supporter's turn, so there is nothing for a reply "
            "to answer: end it with the seeker's next message, or delete the last supporter turn."
        )
    return conversation


def _looks_like_turns(text: object) -> bool:
    """Whether ``text`` is written as turns (JSON or speaker lines), before it is cleaned."""
    head = text.lstrip() if isinstance(text, str) else ""
    return head.startswith("[") or bool(_SPEAKER.match(head))


def _limit(text: object) -> int:
    """A plain message keeps the message limit; only a conversation gets the longer one."""
    return (
        SETTINGS.max_conversation_chars if _looks_like_turns(text) else SETTINGS.max_message_chars
    )


def _what(text: object) -> str:
    """How a refusal names ``text``.

    >>> _what("I can't sleep."), _what("Seeker: hi")
    ('message', 'conversation')
    """
    return "conversation" if _looks_like_turns(text) else "message"


def build(turns: Sequence[Turn]) -> Conversation:
    """A checked conversation: every turn cleaned, same-speaker neighbours joined.

    >>> build([Turn("seeker", "a"), Turn("seeker", "b")]).turns
    (Turn(role='seeker', text='a\\nb'),)
    """
    merged: list[Turn] = []
    for number, turn in enumerate(turns, 1):
        if turn.role not in _LABEL:
            raise InputError(
                f"Turn {number} has the speaker {turn.role!r}: use seeker or supporter "
                "(or user/assistant, client/therapist)."
            )
        what = "message" if len(turns) == 1 else f"turn {number} ({_LABEL[turn.role]})"
        text = clean_text(turn.text, what=what)
        if merged and merged[-1].role == turn.role:
            text = merged.pop().text + "\n" + text
        merged.append(Turn(turn.role, text))
    if not merged:
        raise InputError("The conversation is empty: paste a message or a conversation first.")
    if len(merged) > MAX_TURNS:
        raise InputError(
            f"The conversation has {len(merged)} turns; the limit is {MAX_TURNS}. "
            "Keep the most recent turns and try again."
        )
    return Conversation(tuple(merged))


def _line_turns(raw: str) -> list[Turn]:
    """Turns from ``Speaker: text`` lines; a line without a speaker continues the turn above."""
    turns: list[list[str]] = []
    for line in raw.split("\n"):
        found = _SPEAKER.match(line)
        if found:
            turns.append([ROLE_WORDS[found.group(1).lower()], line[found.end() :]])
        else:
            turns[-1][1] += "\n" + line
    return [Turn(role, text) for role, text in turns]


def _refuse_unknown_speakers(raw: str) -> None:
    r"""Refuse (:class:`InputError`) a paste whose lines name a speaker this app does not know,
    when it reads as a conversation: beside known speakers, or two or more such lines. Their
    words would otherwise be credited to the turn above, or the whole paste read as one
    message. One line such as "Edit:" or "Mum: she said…" in a plain message stays a message.

    >>> _refuse_unknown_speakers("Seeker: I'm low.\nFriend: cheer up!\nSeeker: See?")
    Traceback (most recent call last):
    ...
    core.textinput.InputError: Line 2 starts with “Friend:”, a speaker this app does not know, so it cannot tell whose words they are. Start each turn with Seeker: (the person who needs support) or Supporter: (the one answering), or User:/Assistant:, Client:/Therapist:, Me:/You:. Someone else's words go inside a turn: Seeker: My friend said “…”.
    >>> _refuse_unknown_speakers("I'm low.\nEdit: thanks all\nUpdate: better")
    """
    lines = raw.split("\n")
    found = [(n, m[1]) for n, line in enumerate(lines, 1) if (m := _LABELLED.match(line))]
    known = [n for n, label in found if label.lower() in ROLE_WORDS]
    unknown = [
        (n, label)
        for n, label in found
        if label.lower() not in ROLE_WORDS and label.lower() not in NOT_SPEAKERS
    ]
    if not unknown or (not known and len(unknown) < 2):
        return
    number, label = unknown[0]
    raise InputError(
        f"Line {number} starts with “{label}:”, a speaker this app does not know, so it cannot "
        "tell whose words they are. Start each turn with Seeker: (the person who needs "
        "support) or Supporter: (the one answering), or User:/Assistant:, Client:/Therapist:, "
        "Me:/You:. Someone else's words go inside a turn: Seeker: My friend said “…”."
    )


def _json_turns(raw: str) -> list[Turn] | None:
    """Turns from a JSON list of ``{"role", "text"}`` (or ``content``); None if not JSON."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
        raise InputError(
            'A conversation in JSON must be a list of {"role": ..., "text": ...} objects.'
        )
    turns = []
    for number, item in enumerate(data, 1):
        role = str(item.get("role", "")).strip().lower()
        text = item.get("text", item.get("content", ""))
        turns.append(Turn(ROLE_WORDS.get(role, role or "(none)"), str(text or "")))
        if not str(text or "").strip():
            raise InputError(f"Turn {number} of the conversation is empty: write it or delete it.")
    return turns


@lru_cache(maxsize=1)
def bundled_conversations() -> dict[str, Conversation]:
    """The example conversations by title (written for this project; see assets/data/README.md).

    >>> examples = bundled_conversations()
    >>> len(examples) >= 5 and all(c.ends_with_seeker for c in examples.values())
    True
    """
    found = {}
    for line in BUNDLED_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            found[item["title"]] = build([Turn(t["role"], t["text"]) for t in item["turns"]])
    return found
