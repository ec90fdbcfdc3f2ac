"""The flag log: one append-only CSV that never loses or corrupts a row.

Every append takes a lock that holds across threads and processes (several
app workers, or the CLI while the app runs), writes the header only when the
file is new, writes the whole row with one ``write`` call, and syncs it to
disk. Every cell is sanitised against CSV (formula) injection: a cell that
starts with ``= + - @``, a tab or a carriage return (or their full-width
forms), or with the escape quote itself, gets a leading ``'`` so a
spreadsheet shows it as text; :func:`read_flags` removes exactly that quote
again, so any Unicode text round-trips unchanged. API keys never reach the
file: the known keys and anything shaped like one are redacted first.

>>> sanitize_cell("=HYPERLINK(1)")
"'=HYPERLINK(1)"
>>> unsanitize_cell(sanitize_cell("'quoted"))
"'quoted"
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import re
import shutil
import threading
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filelock import FileLock

from config import APP_VERSION, SETTINGS
from textinput import scrub_secrets

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
_DANGEROUS_START = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠", "'")
_KEY_SHAPES = re.compile(
    r"\b(sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{16,}|AIza[0-9A-Za-z_\-]{30,}|gsk_[A-Za-z0-9]{20,})"
)
_THREAD_LOCKS: dict[Path, threading.Lock] = {}
_THREAD_LOCKS_GUARD = threading.Lock()


class FlagLogError(RuntimeError):
    """The log cannot be read or written; the message says where and why."""


def sanitize_cell(value: str) -> str:
    """Make a cell safe to open in a spreadsheet (see the module docstring)."""
    return "'" + value if value.startswith(_DANGEROUS_START) else value


def unsanitize_cell(value: str) -> str:
    """Undo :func:`sanitize_cell`."""
    return value[1:] if value.startswith("'") else value


def redact_keys(text: str, secrets: Iterable[str] = ()) -> str:
    """Remove known secrets and anything shaped like an API key.

    >>> redact_keys("mine is sk-abcdefghijklmnopqrstu ok")
    'mine is [redacted] ok'
    """
    return _KEY_SHAPES.sub("[redacted]", scrub_secrets(text, list(secrets)))


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
        """A record from a :meth:`responders.base.Reply.to_dict` view and its scores."""
        return cls(
            page=page,
            message=str(reply.get("message", "")),
            reply=str(reply.get("text", "")),
            responder_id=str(reply.get("responder_id", "")),
            model=str(reply.get("model", "")),
            system_prompt=str(reply.get("system", "")),
            max_tokens=reply.get("max_tokens"),
            temperature=reply.get("temperature"),
            scores=scores,
            note=note,
        )

    def row(self, secrets: Iterable[str] = ()) -> dict[str, str]:
        """The CSV row: stamped, keys redacted, every cell sanitised."""
        secrets = list(secrets)
        scores = [
            {
                k: s.get(k)
                for k in ("scorer_id", "cognitive", "emotional", "behavioral", "overall", "status")
            }
            for s in self.scores
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
        }
        return {k: sanitize_cell(redact_keys(v, secrets)) for k, v in values.items()}


class FlagLog:
    """The CSV log in ``folder`` (default: ``EMPATHY_LAB_FLAG_DIR``)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or SETTINGS.flag_dir
        self.path = self.folder / FLAG_FILE_NAME
        self._file_lock = FileLock(str(self.path) + ".lock", timeout=60)
        with _THREAD_LOCKS_GUARD:
            self._thread_lock = _THREAD_LOCKS.setdefault(self.path.resolve(), threading.Lock())

    def append(self, record: FlagRecord, secrets: Iterable[str] = ()) -> dict[str, str]:
        """Append one row; returns it as written. Raises :class:`FlagLogError`."""
        row = record.row([*SETTINGS.keys.secrets(), *secrets])
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=FIELDS, lineterminator="\r\n")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with self._thread_lock, self._file_lock:
                new = not self.path.exists() or self.path.stat().st_size == 0
                if new:
                    writer.writeheader()
                else:
                    self._check_header()
                writer.writerow(row)
                with self.path.open("a", encoding="utf-8", newline="") as fh:
                    fh.write(buffer.getvalue())
                    fh.flush()
                    os.fsync(fh.fileno())
        except OSError as exc:
            raise FlagLogError(
                f"could not write the flag log {self.path}: {exc.strerror or exc}"
            ) from exc
        return row

    def _check_header(self) -> None:
        with self.path.open(encoding="utf-8", newline="") as fh:
            header = next(csv.reader(fh), [])
        if tuple(header) != FIELDS:
            raise FlagLogError(
                f"{self.path} has other columns than this version writes; move it aside "
                "(nothing was written) and flag again"
            )

    def read(self) -> list[dict[str, str]]:
        """Every row, cells unsanitised (see :func:`read_flags`)."""
        if not self.path.exists():
            return []
        with self._thread_lock, self._file_lock:
            return read_flags(self.path)

    def export(self, destination: Path) -> int:
        """Copy the log (after checking every row) to ``destination``; returns the row count."""
        with self._thread_lock, self._file_lock:
            if not self.path.exists():
                raise FlagLogError(f"no flags yet: {self.path} does not exist")
            rows = read_flags(self.path)
            shutil.copyfile(self.path, destination)
        return len(rows)


def read_flags(path: Path) -> list[dict[str, str]]:
    """Parse a flag log; a damaged or hand-edited line raises :class:`FlagLogError` naming it."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        raise FlagLogError(f"{path}, line {line}: not UTF-8 text") from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise FlagLogError(f"{path}, line {line}: contains a NUL byte (binary data?)")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[dict[str, str]] = []
    try:
        header = next(reader, None)
        if header is None:
            return []
        if tuple(header) != FIELDS:
            raise FlagLogError(f"{path}, line 1: unexpected header {header[:4]}…")
        for cells in reader:
            if not cells:
                continue
            if len(cells) != len(FIELDS):
                raise FlagLogError(
                    f"{path}, line {reader.line_num}: {len(cells)} fields, expected {len(FIELDS)}"
                )
            rows.append({k: unsanitize_cell(v) for k, v in zip(FIELDS, cells, strict=True)})
    except csv.Error as exc:
        raise FlagLogError(f"{path}, line {reader.line_num}: {exc}") from None
    return rows
