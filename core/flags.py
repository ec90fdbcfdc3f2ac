"""The flag log: cases people want a second look at, in one append-only CSV.

The log is a :class:`core.csvlog.CsvLog` (locked across threads and
processes, header once, formula-sanitised, key-free, synced); this module
says what a flagged case holds: what it takes to reproduce it.

>>> FlagRecord(page="compare", message="m", reply="=1+1").values()["reply"]
'=1+1'
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from config import APP_VERSION, SETTINGS
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
)


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

    @classmethod
    def from_reply(
        cls,
        page: str,
        reply: Mapping[str, Any],
        scores: Sequence[Mapping[str, Any]],
        note: str = "",
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
        )

    def values(self) -> dict[str, str]:
        """The row's cells before the log redacts and sanitises them, stamped now."""
        kept = ("scorer_id", "cognitive", "emotional", "behavioral", "overall", "status")
        screen = ("reply_safe", "concerns", "message_risk")  # the safety screen's entry
        scores = [{k: s.get(k) for k in kept + screen if k in kept or k in s} for s in self.scores]
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
