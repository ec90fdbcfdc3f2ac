"""Blind-vote rounds: one message, several replies with their sources hidden, shareable by code.

A round holds the message, each reply with its source (a responder id such
as ``local/qwen2.5-coder-1.5b`` or ``human/counselchat``) and settings, a
seed, and the scores the scorers gave each reply (shown only after a vote).
It is saved as JSON in ``<votes dir>/rounds/<CODE>.json`` and so survives a
restart. Every voter sees the same replies in their own order, drawn from the
round's seed and their voter id, labelled A, B, C…; the vote log records the
source ids in the order shown, never the letters alone.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> rnd = create_round("I feel alone", [Entry("a/x", "You are not alone."),
...     Entry("b/y", "Call someone."), Entry("c/z", "That sounds hard.")], seed=3, folder=folder)
>>> load_round(rnd.code.lower(), folder) == rnd
True
>>> [source for _, source in ballot(rnd, "voter-1")] == [source for _, source in ballot(rnd, "voter-1")]
True
>>> sorted(source for _, source in ballot(rnd, "voter-1"))
['a/x', 'b/y', 'c/z']
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import re
import secrets
import string
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from config import APP_VERSION, SETTINGS
from core.textinput import InputError, clean_text

#: Code letters: no 0/O, 1/I/L, so a code read aloud in a classroom is unambiguous.
CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "0O1IL")
CODE_LENGTH = 4
_CODE_SHAPE = re.compile(r"^[A-Z0-9]{3,12}$")
LETTERS = string.ascii_uppercase
MAX_REPLIES = 8


@dataclass(frozen=True)
class Entry:
    """One reply in a round and who wrote it (``source``: a responder id)."""

    source: str
    text: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    attribution: str = ""


@dataclass(frozen=True)
class VoteRound:
    """A saved round; ``scores`` maps scorer id -> source -> :meth:`Score.to_dict` view."""

    code: str
    message: str
    entries: tuple[Entry, ...]
    seed: int
    created: str = ""
    question_id: int | None = None
    app_version: str = APP_VERSION
    scores: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)

    @property
    def sources(self) -> list[str]:
        """Source ids in the order they were given."""
        return [e.source for e in self.entries]

    def entry(self, source: str) -> Entry:
        """The entry written by ``source``."""
        return next(e for e in self.entries if e.source == source)

    def to_json(self) -> str:
        """The round as the JSON text saved on disk."""
        return json.dumps(asdict(self), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str) -> VoteRound:
        """Read :meth:`to_json` output back."""
        data = json.loads(text)
        data["entries"] = tuple(Entry(**e) for e in data["entries"])
        return cls(**data)


def votes_dir(folder: Path | None = None) -> Path:
    """The folder of rounds and the vote log: ``folder`` or ``EMPATHY_LAB_VOTES_DIR``."""
    return Path(folder) if folder else SETTINGS.votes_dir


def rounds_dir(folder: Path | None = None) -> Path:
    """Where rounds are saved: ``<votes dir>/rounds``."""
    return votes_dir(folder) / "rounds"


def normalize_code(code: str) -> str:
    """A code as typed (any case, spaces, a pasted ``?round=``) in its saved form.

    >>> normalize_code(" k7q2 ")
    'K7Q2'
    >>> normalize_code("../etc")
    Traceback (most recent call last):
    ...
    core.textinput.InputError: '../etc' is not a round code: codes look like K7Q2.
    """
    text = (code or "").strip().split("round=")[-1].strip().upper()
    if not _CODE_SHAPE.match(text):
        raise InputError(f"{code.strip()!r} is not a round code: codes look like K7Q2.")
    return text


def check_entries(entries: Sequence[Entry]) -> tuple[Entry, ...]:
    """Entries with clean text and distinct sources; InputError otherwise."""
    if not 2 <= len(entries) <= MAX_REPLIES:
        raise InputError(
            f"A round needs 2 to {MAX_REPLIES} replies; it has {len(entries)}. "
            "Pick more responders (or fewer)."
        )
    sources = [e.source.strip() for e in entries]
    if any(not s or "|" in s for s in sources) or len(set(sources)) != len(sources):
        raise InputError(f"Each reply needs its own source id (without '|'): got {sources}.")
    return tuple(
        replace(e, source=s, text=clean_text(e.text, what=f"reply from {s}"))
        for e, s in zip(entries, sources, strict=True)
    )


def create_round(
    message: str,
    entries: Sequence[Entry],
    *,
    seed: int | None = None,
    question_id: int | None = None,
    folder: Path | None = None,
) -> VoteRound:
    """Check, save and return a new round under a fresh code (InputError for bad input)."""
    rnd = VoteRound(
        code="",
        message=clean_text(message),
        entries=check_entries(entries),
        seed=secrets.randbelow(2**31) if seed is None else int(seed),
        created=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        question_id=question_id,
    )
    target = rounds_dir(folder)
    target.mkdir(parents=True, exist_ok=True)
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        rnd = replace(rnd, code=code)
        try:
            with (target / f"{code}.json").open("x", encoding="utf-8") as fh:
                fh.write(rnd.to_json())
            return rnd
        except FileExistsError:
            continue


def save_round(rnd: VoteRound, folder: Path | None = None) -> None:
    """Overwrite a saved round atomically (used to add scores)."""
    path = rounds_dir(folder) / f"{rnd.code}.json"
    tmp = path.with_name(f".{rnd.code}.{secrets.token_hex(4)}.tmp")
    tmp.write_text(rnd.to_json(), encoding="utf-8")
    os.replace(tmp, path)


def load_round(code: str, folder: Path | None = None) -> VoteRound:
    """The saved round with ``code``; InputError when there is none or it is damaged."""
    code = normalize_code(code)
    path = rounds_dir(folder) / f"{code}.json"
    try:
        return VoteRound.from_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"There is no round {code}: check the code.") from None
    except (ValueError, TypeError, KeyError) as exc:
        raise InputError(f"Round {code} is damaged ({path}): {exc}") from None


def list_rounds(folder: Path | None = None) -> list[VoteRound]:
    """Every readable saved round, newest first (damaged files are skipped)."""
    found: list[VoteRound] = []
    for path in rounds_dir(folder).glob("*.json"):
        try:
            found.append(load_round(path.stem, folder))
        except InputError:
            continue
    return sorted(found, key=lambda r: r.created, reverse=True)


def voter_order(rnd: VoteRound, voter: str) -> list[str]:
    """Sources in the order ``voter`` sees them (``voter=""``: the round's own order).

    >>> rnd = VoteRound("K7Q2", "m", (Entry("a", "x"), Entry("b", "y"), Entry("c", "z")), seed=1)
    >>> voter_order(rnd, "s1") == voter_order(rnd, "s1")
    True
    """
    order = rnd.sources
    random.Random(f"{rnd.seed}:{voter}").shuffle(order)
    return order


def ballot(rnd: VoteRound, voter: str) -> list[tuple[str, str]]:
    """``[(letter, source), …]`` as ``voter`` sees them."""
    return list(zip(LETTERS, voter_order(rnd, voter), strict=False))
