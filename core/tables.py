"""Reading people's CSV files, and the one writer of every CSV table the app makes.

:class:`TableWriter` writes a table row by row (a long command shows rows as
they come); :func:`write_table` writes one at once. Both run every cell
through :func:`safe_cell`, as the append-only log (:mod:`core.csvlog`) does:
keys are redacted and a cell that a spreadsheet would run as a formula
(``= + - @``, a tab …) is written as text.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "out.csv"
>>> write_table(path, [{"reply": "=HYPERLINK(1)", "n": 2}])
1
>>> path.read_text(encoding="utf-8").splitlines()
['reply,n', "'=HYPERLINK(1),2"]
>>> read_csv(str(path))
[{'reply': '=HYPERLINK(1)', 'n': '2'}]
"""

from __future__ import annotations

import csv
import itertools
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

from core.cells import DANGEROUS_START, any_cell_size, safe_cell, unsanitize_cell


class TableWriter:
    """A CSV table written row by row to ``path`` (replaced), header first.

    Columns are ``fields``; a row's other keys are left out, missing ones empty.
    """

    def __init__(self, path: str | Path, fields: Sequence[str], secrets: Iterable[str] = ()):
        self.path = Path(path)
        self.fields = list(fields)
        self._secrets = list(secrets)
        self._file: IO[str] | None = None
        self._writer: csv.DictWriter | None = None
        self.count = 0

    def __enter__(self) -> TableWriter:
        self._file = open(self.path, "w", encoding="utf-8", newline="")
        self._writer = csv.DictWriter(self._file, fieldnames=self.fields, extrasaction="ignore")
        # the header's cells go through the same rule as every other cell (an uploaded
        # column may be named "=HYPERLINK(…)")
        csv.writer(self._file).writerow([safe_cell(f, self._secrets) for f in self.fields])
        return self

    def write(self, row: Mapping[str, object]) -> None:
        """Write one row (and flush it, so a stopped command keeps what it wrote)."""
        assert self._writer is not None and self._file is not None, "use it in a with block"
        self._writer.writerow({k: safe_cell(row.get(k), self._secrets) for k in self.fields})
        self._file.flush()
        self.count += 1

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._file is not None:
            self._file.close()


def write_table(
    path: str | Path,
    rows: Sequence[Mapping[str, object]],
    fields: Sequence[str] | None = None,
    secrets: Iterable[str] = (),
) -> int:
    """Write ``rows`` as one CSV table (columns: ``fields``, else the first row's keys)."""
    columns = list(fields) if fields is not None else list(rows[0]) if rows else ["empty"]
    with TableWriter(path, columns, secrets) as table:
        for row in rows:
            table.write(row)
    return len(rows)


def read_csv(
    path: str | Path, *, max_rows: int | None = None, max_bytes: int | None = None
) -> list[dict[str, str]]:
    """Rows of a UTF-8 CSV file as strings (cells of any size); ValueError with a clear message.

    ``max_bytes``: a bigger file is refused before a byte is parsed. ``max_rows``:
    rows are read one at a time and a file with more is refused after reading
    ``max_rows + 1`` of them, so a huge file is never held in memory. Messages
    name the file by its base name only (an upload's folder is the server's).
    A cell this app made formula-safe reads back as it was; a person's own
    leading apostrophe ("'Cause I care") is kept.
    """
    name = Path(path).name
    try:
        size = os.path.getsize(path)
        if max_bytes is not None and size > max_bytes:
            raise ValueError(
                f"{name} is over {_megabytes(max_bytes)}, the most that is read: "
                "split it into smaller files"
            )
        with open(path, encoding="utf-8-sig", newline="") as fh:
            any_cell_size()
            limit = None if max_rows is None else max_rows + 1
            rows = list(itertools.islice(csv.DictReader(fh), limit))
    except FileNotFoundError:
        raise ValueError(f"no such file: {path}") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"{name} is not a readable UTF-8 CSV file ({exc})") from None
    if max_rows is not None and len(rows) > max_rows:
        raise ValueError(
            f"{name} has more than {max_rows:,} rows; at most {max_rows:,} are read: "
            "split it into smaller files"
        )
    return [{_read_back(k): _read_back(v) for k, v in r.items()} for r in rows]


def _megabytes(size: int) -> str:
    """A size limit for people.

    >>> _megabytes(20 * 2**20), _megabytes(int(2.5 * 2**20)), _megabytes(1536)
    ('20 MB', '2.5 MB', '0.0015 MB')
    """
    megabytes = size / 2**20
    if megabytes < 1:
        return f"{megabytes:.2g} MB"
    return f"{megabytes:,.1f}".removesuffix(".0") + " MB"


def _read_back(value: object) -> object:
    """Undo :func:`safe_cell`'s quote where it must have added it.

    >>> _read_back("'=1"), _read_back("'Cause"), _read_back("''Cause")
    ('=1', "'Cause", "'Cause")
    """
    if isinstance(value, str) and value.startswith("'") and value[1:].startswith(DANGEROUS_START):
        return unsanitize_cell(value)
    return value
