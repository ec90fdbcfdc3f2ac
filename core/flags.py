"""The flag log: cases people want a second look at, in one append-only CSV.

The log is a :class:`core.csvlog.CsvLog` (locked across threads and
processes, header once, formula-sanitised, key-free, synced); this module
says what a flagged case holds: what it takes to reproduce it.

>>> FlagRecord(page="compare", message="m", reply="=1+1").values()["reply"]
'=1+1'

The same reply flagged again for the same reason is not written twice
(:meth:`FlagLog.append_once`).
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from filelock import FileLock

from config import APP_VERSION, SETTINGS
from core.cells import unsanitize_cell
from core.csvlog import CsvLog, CsvLogError

FLAG_FILE_NAME = "flags.csv"
FIELDS: tuple[str, ...] = (
    "flag_id",
    "timestamp",
    "page",
    "message",
    "reply",
    "responder_id",
    "model",
    "system_prompt",
    "max_tokens",
    "temperature",
    "scores",
    "perturbation_id",
    "perturbation_seed",
    "perturbation_method",
    "original_reply",
    "app_version",
    "note",
    "visitor",
)
#: The cells that make two flags the same reply (flagged on the same page, by the same visitor).
SAME_REPLY: tuple[str, ...] = ("page", "responder_id", "message", "reply", "visitor")
#: The kept keys of a safety check's entry in ``scores``: the screen's (``safety_verdict`` is
#: ``safe``, ``not safe``, ``uncertain`` or ``not checked``; a flag written before it has
#: none), then the second opinion's (the LLM safety judge, when it was asked), in the
#: comparison download's words.
SAFETY_KEYS: tuple[str, ...] = (
    "safety_verdict",
    "reply_safe",
    "concerns",
    "message_risk",
    "second_opinion_safe",
    "second_opinion_concerns",
    "second_opinion_reason",
    "second_opinion_judge",
)
_ONCE_LOCKS: dict[Path, threading.Lock] = {}
_ONCE_GUARD = threading.Lock()


@dataclass
class FlagRecord:
    """One flagged case, with what it takes to reproduce it."""

    page: str
    message: str
    reply: str
    responder_id: str = ""
    model: str = ""
    system_prompt: str = ""
    max_tokens: int | None = None
    temperature: float | None = None
    scores: Sequence[Mapping[str, Any]] = field(default_factory=list)
    perturbation_id: str = ""
    perturbation_seed: int | None = None
    perturbation_method: str = ""
    original_reply: str = ""
    note: str = ""
    #: Whose flag it is: the visitor's owner tag (:func:`core.visitors.owner_tag`), or blank.
    visitor: str = ""

    @classmethod
    def from_reply(
        cls,
        page: str,
        reply: Mapping[str, Any],
        scores: Sequence[Mapping[str, Any]],
        note: str = "",
        visitor: str = "",
    ) -> FlagRecord:
        """A record from a :meth:`responders.base.Reply.to_dict` view and its scores; a reply
        to a conversation keeps every turn (``Seeker:`` / ``Supporter:`` lines) as its message."""
        message = str(reply.get("message", ""))
        if reply.get("history"):
            message = f"{reply['history']}\nSeeker: {message}"
        return cls(
            page=page,
            message=message,
            reply=str(reply.get("text", "")),
            responder_id=str(reply.get("responder_id", "")),
            model=str(reply.get("model", "")),
            system_prompt=str(reply.get("system", "")),
            max_tokens=reply.get("max_tokens"),
            temperature=reply.get("temperature"),
            scores=scores,
            note=note,
            visitor=visitor,
        )

    def values(self) -> dict[str, str]:
        """The row's cells before the log redacts and sanitises them, stamped now."""
        kept = ("scorer_id", "cognitive", "emotional", "behavioral", "overall", "status")
        scores = [
            {k: s.get(k) for k in kept + SAFETY_KEYS if k in kept or k in s} for s in self.scores
        ]
        values = {
            "flag_id": uuid.uuid4().hex,
            "timestamp": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "page": self.page,
            "message": self.message,
            "reply": self.reply,
            "responder_id": self.responder_id,
            "model": self.model,
            "system_prompt": self.system_prompt,
            "max_tokens": "" if self.max_tokens is None else str(self.max_tokens),
            "temperature": "" if self.temperature is None else str(self.temperature),
            "scores": json.dumps(scores, ensure_ascii=False),
            "perturbation_id": self.perturbation_id,
            "perturbation_seed": ""
            if self.perturbation_seed is None
            else str(self.perturbation_seed),
            "perturbation_method": self.perturbation_method,
            "original_reply": self.original_reply,
            "app_version": APP_VERSION,
            "note": self.note,
            "visitor": self.visitor,
        }
        return values


#: Flag-log errors are the log's errors (kept under this name for callers).
FlagLogError = CsvLogError


class FlagLog(CsvLog):
    """The flag log in ``folder`` (default: ``EMPATHY_LAB_FLAG_DIR``).

    It grows to at most ``max_bytes`` (default: the operator's
    ``EMPATHY_LAB_MAX_FLAG_LOG_MB``), and keeps its parsed rows until the file
    changes: every open Flags tab reads it every few seconds.
    """

    #: What this log is called, its file and columns (a log in the same folder, such as the
    #: ratings log, says its own).
    file_name: ClassVar[str] = FLAG_FILE_NAME
    columns: ClassVar[tuple[str, ...]] = FIELDS
    called: ClassVar[tuple[str, str]] = ("flag log", "no flags yet")

    def __init__(self, folder: Path | None = None, max_bytes: int | None = None) -> None:
        self.folder = folder or SETTINGS.flag_dir
        what, nothing = self.called
        super().__init__(
            self.folder / self.file_name,
            self.columns,
            what=what,
            nothing=nothing,
            max_bytes=SETTINGS.max_flag_log_bytes if max_bytes is None else max_bytes,
            keep_reads=True,
        )

    def append(self, record: FlagRecord, secrets: Iterable[str] = ()) -> dict[str, str]:  # type: ignore[override]
        """Append one flagged case; returns the row as written. Raises :class:`FlagLogError`."""
        return super().append(record.values(), secrets)

    def append_once(
        self, record: FlagRecord, secrets: Iterable[str] = ()
    ) -> tuple[dict[str, str] | None, int]:
        """Append ``record`` unless the log holds the same reply flagged for the same reason
        (the same note, spaces aside). Returns the row written (None when nothing was) and
        how many earlier flags of the same reply the log holds. Raises :class:`FlagLogError`.

        >>> import tempfile
        >>> log = FlagLog(Path(tempfile.mkdtemp()))
        >>> flag = FlagRecord(page="compare", message="m", reply="r", note="cold")
        >>> [(row is not None, earlier) for row, earlier in (log.append_once(flag),
        ...     log.append_once(flag), log.append_once(FlagRecord("compare", "m", "r")))]
        [(True, 0), (False, 1), (True, 1)]
        """
        wanted = {k: unsanitize_cell(v) for k, v in self.prepare(record.values(), secrets).items()}
        with self._once_lock():
            earlier = [r for r in self.read() if all(r[k] == wanted[k] for k in SAME_REPLY)]
            if any(r["note"].strip() == wanted["note"].strip() for r in earlier):
                return None, len(earlier)
            return self.append(record, secrets), len(earlier)

    @contextmanager
    def _once_lock(self) -> Iterator[None]:
        """Held while :meth:`append_once` reads and appends (across threads and processes;
        the log's own lock is taken inside it by each read and append)."""
        with _ONCE_GUARD:
            thread_lock = _ONCE_LOCKS.setdefault(self.path.resolve(), threading.Lock())
        self.folder.mkdir(parents=True, exist_ok=True)
        with thread_lock, FileLock(str(self.path) + ".once.lock", timeout=60):
            yield
