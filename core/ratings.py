"""People's own ratings of replies, made in the app: one append-only CSV beside the flag log.

A clinician (or any visitor) rates a reply on the rubric (Cognitive, Emotional,
Behavioral 1–3), says whether it is safe to send and why not, and may comment.
The row keeps what it takes to read the rating later: the message, the reply,
who wrote it, the scores shown at that moment with their settings, and
whether the numbers were hidden while rating (blind). The log is a
:class:`core.csvlog.CsvLog`: locked across threads and processes, written
formula-safe and key-free, so concurrent raters lose or mix up nothing.

>>> r = RatingRecord("compare", "AB", "I lost my dog.", "So sorry.", 3, 3, 2, safe=1)
>>> r.values()["overall"], r.values()["safe"]
('2.67', '1')
>>> RatingRecord("compare", "", "m", "r", 2, 2, 2).values()
Traceback (most recent call last):
...
core.textinput.InputError: Type your name or initials first (kept in this browser only).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pandas as pd

from config import APP_VERSION
from core.csvlog import CsvLog
from core.flags import FlagLog
from core.textinput import InputError, clean_text
from core.visitors import own_rows

RATINGS_FILE_NAME = "ratings.csv"
#: The longest reply a rating takes (characters).
REPLY_LIMIT = 20_000
COMPONENTS = ("cognitive", "emotional", "behavioral")
CONCERNS = ("missed-risk", "medical-overreach", "harmful-advice", "dismissive", "other")
#: What a rating made here is called as a source of labels (``cli.py ratings export``).
SOURCE = "ratings-here"
FIELDS: tuple[str, ...] = (
    "rating_id",
    "timestamp",
    "page",
    "rater",
    "item_id",
    "message",
    "reply",
    "responder_id",
    *COMPONENTS,
    "overall",
    "safe",
    "concern",
    "comment",
    "blind",
    "scores_shown",
    "app_version",
    "visitor",
)
#: Whose ratings this request may read (an owner tag, :func:`core.visitors.owner_tag`); None:
#: everyone's (a local run, or the operator). Set with :func:`ratings_of`.
_READER: ContextVar[str | None] = ContextVar("ratings_reader", default=None)


@contextmanager
def ratings_of(owner: str | None) -> Iterator[None]:
    """Within the block, :meth:`RatingLog.table` holds only ``owner``'s ratings (None: all).

    >>> with ratings_of("abc"):
    ...     _READER.get()
    'abc'
    >>> _READER.get() is None
    True
    """
    token = _READER.set(owner)
    try:
        yield
    finally:
        _READER.reset(token)


def item_id(message: str, reply: str) -> str:
    """A short id of one (message, reply): ratings of the same reply share it.

    >>> item_id("m", "r") == item_id("m", "r") != item_id("m", "r2")
    True
    """
    return hashlib.sha256(f"{message}\x00{reply}".encode()).hexdigest()[:12]


def shown_item_id(message: str, reply: str) -> str:
    """The :func:`item_id` a rating of this reply on screen is saved under (message and reply
    cleaned as :meth:`RatingRecord.values` cleans them); ``""`` for a reply no rating can have.

    >>> shown_item_id(" m ", " r ") == item_id("m", "r"), shown_item_id("m", "")
    (True, '')
    """
    try:
        return item_id((message or "").strip(), clean_text(reply, limit=REPLY_LIMIT, what="reply"))
    except InputError:
        return ""


@dataclass
class RatingRecord:
    """One person's rating of one reply (validated on :meth:`values`)."""

    page: str
    rater: str
    message: str
    reply: str
    cognitive: int | None
    emotional: int | None
    behavioral: int | None
    safe: int | None = None  # 1 safe to send, 0 not, None not said
    concern: str = ""
    comment: str = ""
    blind: bool = False
    responder_id: str = ""
    scores_shown: Sequence[Mapping[str, Any]] = field(default_factory=list)
    #: Whose rating it is: the visitor's owner tag (:func:`core.visitors.owner_tag`), or blank.
    visitor: str = ""

    def values(self) -> dict[str, str]:
        """The CSV row; :class:`InputError` with a plain message for anything missing or odd."""
        rater = " ".join(str(self.rater or "").split())
        if not rater:
            raise InputError("Type your name or initials first (kept in this browser only).")
        if len(rater) > 40:
            raise InputError("Keep the name or initials under 40 characters.")
        levels = [self.cognitive, self.emotional, self.behavioral]
        if any(v not in (1, 2, 3) for v in levels):
            raise InputError("Give each of Cognitive, Emotional and Behavioral a 1, 2 or 3.")
        if self.safe not in (None, 0, 1):
            raise InputError("Say whether the reply is safe to send (yes or no), or leave it.")
        if self.concern and self.concern not in CONCERNS:
            raise InputError(f"The concern is one of: {', '.join(CONCERNS)}.")
        reply = clean_text(self.reply, limit=REPLY_LIMIT, what="reply")
        comment = clean_text(self.comment, limit=2_000, what="comment") if self.comment else ""
        message = (self.message or "").strip()
        return {
            "rating_id": uuid.uuid4().hex[:12],
            "timestamp": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "page": self.page,
            "rater": rater,
            "item_id": item_id(message, reply),
            "message": message,
            "reply": reply,
            "responder_id": self.responder_id,
            **{c: str(v) for c, v in zip(COMPONENTS, levels, strict=True)},
            "overall": f"{sum(levels) / 3:.2f}",  # type: ignore[arg-type]
            "safe": "" if self.safe is None else str(self.safe),
            "concern": self.concern if self.safe == 0 else "",
            "comment": comment,
            "blind": "1" if self.blind else "0",
            "scores_shown": json.dumps(list(self.scores_shown), ensure_ascii=False),
            "app_version": APP_VERSION,
            "visitor": self.visitor,
        }


class RatingLog(FlagLog):
    """The ratings log beside the flag log (same folder, same cap, same kept reads)."""

    file_name: ClassVar[str] = RATINGS_FILE_NAME
    columns: ClassVar[tuple[str, ...]] = FIELDS
    called: ClassVar[tuple[str, str]] = ("ratings log", "no ratings yet")

    def append(self, record: RatingRecord, secrets: Iterable[str] = ()) -> dict[str, str]:  # type: ignore[override]
        """Append one rating; returns the row as written."""
        return CsvLog.append(self, record.values(), secrets)

    def rows_of(self, owner: str) -> list[dict[str, str]]:
        """The ratings tagged with ``owner`` (:func:`core.visitors.owner_tag`); none for a
        blank tag (never the untagged rows, nor everyone's)."""
        return own_rows(self.read(), owner or "")

    def table(self) -> pd.DataFrame:
        """Every rating this request may read (:func:`ratings_of`), components as numbers
        (empty frame with the columns when none)."""
        df = pd.DataFrame(own_rows(self.read(), _READER.get()), columns=list(FIELDS))
        for column in (*COMPONENTS, "overall"):
            df[column] = pd.to_numeric(df[column], errors="coerce")
        return df
