"""One append-only CSV log that never loses or corrupts a row: flags, votes, batch results.

Every append takes a lock that holds across threads and processes (several
app workers, or the CLI while the app runs), writes the header only when the
file is new, writes each row with one ``write`` call, and syncs it to disk.
Every cell goes through :func:`core.cells.safe_cell`: API keys (the server's,
the caller's and anything shaped like a key) are redacted and a cell a
spreadsheet would run as a formula is quoted; reading removes exactly that
quote again, so any Unicode text round-trips unchanged. A cell longer
than :data:`MAX_CELL_CHARS` is refused with a clear message; a log written by
anyone, with cells of any size, can be read. A log may be given a size cap
(``max_bytes``: an append that would pass it is refused, nothing written),
and may keep its parsed rows (``keep_reads``) keyed by the file's size,
modification time and inode, so a log read again unchanged is not parsed
again (appends always change the size).

>>> import tempfile, pathlib
>>> log = CsvLog(pathlib.Path(tempfile.mkdtemp()) / "demo.csv", ("name", "note"))
>>> _ = log.append({"name": "=1+1", "note": "ok"})
>>> log.read()
[{'name': '=1+1', 'note': 'ok'}]
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from filelock import FileLock

from core.cells import any_cell_size, safe_cell, unsanitize_cell

#: The largest cell the app writes (a 1 MB note is refused, not stored).
MAX_CELL_CHARS = 200_000
_THREAD_LOCKS: dict[Path, threading.Lock] = {}
_THREAD_LOCKS_GUARD = threading.Lock()
#: A file's (size, mtime_ns, inode): what a kept read is keyed on.
Stamp = tuple[int, int, int]
#: Parsed rows of the logs that keep their reads, by path.
_READS: dict[Path, tuple[Stamp, list[dict[str, str]]]] = {}


class CsvLogError(RuntimeError):
    """The log cannot be read or written; the message says where and why."""


class CsvLog:
    """An append-only CSV file at ``path`` with the columns ``fields``."""

    def __init__(
        self,
        path: Path,
        fields: Sequence[str],
        *,
        what: str = "log",
        nothing: str = "",
        max_bytes: int | None = None,
        keep_reads: bool = False,
    ) -> None:
        self.path = Path(path)
        self.fields = tuple(fields)
        self.what = what
        self.nothing = nothing or f"the {what} is empty"
        self.max_bytes = max_bytes
        self.keep_reads = keep_reads
        self._file_lock = FileLock(str(self.path) + ".lock", timeout=60)
        with _THREAD_LOCKS_GUARD:
            self._key = self.path.resolve()
            self._thread_lock = _THREAD_LOCKS.setdefault(self._key, threading.Lock())

    def stamp(self) -> Stamp | None:
        """The file's (size, mtime_ns, inode) now; None when there is no file yet."""
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return None
        return (st.st_size, st.st_mtime_ns, st.st_ino)

    def prepare(self, row: Mapping[str, object], secrets: Iterable[str] = ()) -> dict[str, str]:
        """The row as it will be written: keys redacted, every cell sanitised and checked."""
        unknown = set(row) - set(self.fields)
        if unknown:
            raise CsvLogError(
                f"unknown column(s) for the {self.what}: {', '.join(sorted(unknown))}"
            )
        secrets = list(secrets)
        out: dict[str, str] = {}
        for name in self.fields:
            value = row.get(name)
            text = "" if value is None else str(value)
            if len(text) > MAX_CELL_CHARS:
                raise CsvLogError(
                    f"the {name} is {len(text):,} characters long; the {self.what} keeps at most "
                    f"{MAX_CELL_CHARS:,} per cell: shorten it and try again (nothing was written)"
                )
            out[name] = safe_cell(text, secrets)
        return out

    def append(self, row: Mapping[str, object], secrets: Iterable[str] = ()) -> dict[str, str]:
        """Append one row; returns it as written. Raises :class:`CsvLogError`."""
        return self.append_many([row], secrets)[0]

    def append_many(
        self, rows: Sequence[Mapping[str, object]], secrets: Iterable[str] = ()
    ) -> list[dict[str, str]]:
        """Append rows under one lock, each with its own write."""
        secrets = list(secrets)
        prepared = [self.prepare(row, secrets) for row in rows]
        texts = [_csv_text([[row[f] for f in self.fields]]) for row in prepared]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._thread_lock, self._file_lock:
                size = self.path.stat().st_size if self.path.exists() else 0
                if size == 0:
                    texts.insert(0, _csv_text([self.fields]))
                else:
                    self._check_header()
                self._check_room(size, texts)
                for text in texts:
                    self._write_text(text)
        except OSError as exc:
            raise CsvLogError(
                f"could not write the {self.what} {self.path}: {exc.strerror or exc}"
            ) from exc
        return prepared

    def _check_room(self, size: int, texts: Sequence[str]) -> None:
        """Refuse an append that would take the log past ``max_bytes`` (nothing is written)."""
        if self.max_bytes is None:
            return
        if size + sum(len(t.encode("utf-8")) for t in texts) > self.max_bytes:
            raise CsvLogError(
                f"the {self.what} is full: it may hold at most {self.max_bytes / 2**20:.3g} MB, "
                "a limit the server's operator sets, so nothing was written. The operator can "
                "download the log, move it aside and start a new one, or raise the limit."
            )

    def _write_text(self, text: str) -> None:
        with self.path.open("a", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())

    def _check_header(self) -> None:
        with self.path.open(encoding="utf-8", newline="") as fh:
            any_cell_size()
            header = next(csv.reader(fh), [])
        if _older(header, self.fields):
            self._widen(len(self.fields) - len(header))
        elif tuple(header) != self.fields:
            raise CsvLogError(
                f"{self.path} has other columns than this version writes; move it aside "
                "(nothing was written) and try again"
            )

    def _widen(self, more: int) -> None:
        """Give a log an earlier version wrote (its columns a first part of this version's) the
        columns added since, empty in its rows (call under the locks; whole or not at all)."""
        with self.path.open(encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh, strict=True))
        widened = [list(self.fields)] + [cells + [""] * more for cells in rows[1:] if cells]
        part = self.path.with_name(f".{self.path.name}.widen")
        part.write_text(_csv_text(widened), encoding="utf-8", newline="")
        os.replace(part, self.path)

    def read(self) -> list[dict[str, str]]:
        """Every row, cells unsanitised; ``[]`` when there is no file yet."""
        if not self.path.exists():
            return []
        with self._thread_lock, self._file_lock:
            if not self.keep_reads:
                return read_log(self.path, self.fields)
            return [dict(row) for row in self._kept_read()]

    def _kept_read(self) -> list[dict[str, str]]:
        """The parsed rows, parsed again only when the file changed (call under the locks)."""
        stamp = self.stamp()
        kept = _READS.get(self._key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        rows = read_log(self.path, self.fields)
        _READS[self._key] = (stamp, rows)  # type: ignore[assignment]
        return rows

    def export(self, destination: Path) -> int:
        """Copy the log (after checking every row) to ``destination``; returns the row count."""
        with self._thread_lock, self._file_lock:
            if not self.path.exists():
                raise CsvLogError(f"{self.nothing}: {self.path} does not exist")
            rows = self._kept_read() if self.keep_reads else read_log(self.path, self.fields)
            shutil.copyfile(self.path, destination)
        return len(rows)


def _csv_text(rows: Iterable[Sequence[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()


def read_log(path: Path, fields: Sequence[str] | None = None) -> list[dict[str, str]]:
    """Parse a log; a damaged or hand-edited line raises :class:`CsvLogError` naming it.

    With ``fields`` the header must match exactly; without, any header is taken.
    """
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CsvLogError(f"{path}, line {line}: not UTF-8 text") from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise CsvLogError(f"{path}, line {line}: contains a NUL byte (binary data?)")
    any_cell_size()
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[dict[str, str]] = []
    try:
        header = next(reader, None)
        if header is None:
            return []
        if fields is not None and tuple(header) != tuple(fields) and not _older(header, fields):
            raise CsvLogError(f"{path}, line 1: unexpected header {header[:4]}…")
        for cells in reader:
            if not cells:
                continue
            if len(cells) != len(header):
                raise CsvLogError(
                    f"{path}, line {reader.line_num}: {len(cells)} fields, expected {len(header)}"
                )
            row = {k: unsanitize_cell(v) for k, v in zip(header, cells, strict=True)}
            rows.append({**dict.fromkeys(fields or (), ""), **row})
    except csv.Error as exc:
        raise CsvLogError(f"{path}, line {reader.line_num}: {exc}") from None
    return rows


def _older(header: Sequence[str], fields: Sequence[str]) -> bool:
    """Whether ``header`` is an earlier version's: the first part of ``fields``, shorter.

    >>> _older(["a", "b"], ("a", "b", "c")), _older(["a", "c"], ("a", "b", "c"))
    (True, False)
    """
    return 0 < len(header) < len(fields) and tuple(header) == tuple(fields[: len(header)])


def write_copy(destination: Path, fields: Sequence[str], rows: Iterable[Mapping[str, str]]) -> int:
    """Write ``rows`` (as :meth:`CsvLog.read` gives them) to a new CSV at ``destination``, each
    cell formula-safe and key-free as the log writes it; returns how many rows.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "mine.csv"
    >>> write_copy(out, ("a",), [{"a": "=1+1"}]), read_log(out)
    (1, [{'a': '=1+1'}])
    """
    kept = [[safe_cell(row.get(f, "")) for f in fields] for row in rows]
    destination.write_text(_csv_text([list(fields), *kept]), encoding="utf-8", newline="")
    return len(kept)
