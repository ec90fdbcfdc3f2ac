"""One CSV cell as the app writes it: keys redacted, never run as a formula.

A cell that starts with ``= + - @``, a tab or a carriage return (or their
full-width forms), or with the escape quote itself, gets a leading ``'`` so a
spreadsheet shows it as text; reading removes exactly that quote again, so
any Unicode text round-trips unchanged. Every table (:mod:`core.tables`) and
the append-only log (:mod:`core.csvlog`) write their cells through
:func:`safe_cell`.

>>> sanitize_cell("=HYPERLINK(1)")
"'=HYPERLINK(1)"
>>> unsanitize_cell(sanitize_cell("'quoted"))
"'quoted"
"""

from __future__ import annotations

import csv
import re
import sys
from collections.abc import Iterable

from core.secrets import redact_keys

#: What a cell may not start with unquoted.
DANGEROUS_START = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠", "'")
#: A plain number (``-1.5``, ``+2``, ``3e-05``): no formula, so written as it is and read
#: back as a number by pandas, R or a spreadsheet.
PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def any_cell_size() -> None:
    """Let Python's csv module read a cell of any size (logs and uploads may hold one);
    every reader of a CSV calls it before reading, so no import order matters.

    >>> import csv; any_cell_size(); csv.field_size_limit() > 10**9
    True
    """
    csv.field_size_limit(sys.maxsize)


def sanitize_cell(value: str) -> str:
    """Make a cell safe to open in a spreadsheet (see the module docstring).

    >>> sanitize_cell("-0.4434"), sanitize_cell("-1+1"), sanitize_cell("-inf")
    ('-0.4434', "'-1+1", "'-inf")
    """
    if value.startswith(DANGEROUS_START) and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def unsanitize_cell(value: str) -> str:
    """Undo :func:`sanitize_cell`."""
    return value[1:] if value.startswith("'") else value


def safe_cell(value: object, secrets: Iterable[str] = ()) -> str:
    """A cell as written: text, the server's keys and ``secrets`` redacted, formula-safe.

    >>> safe_cell(None), safe_cell(-1.5), safe_cell("@SUM(A1)")
    ('', '-1.5', "'@SUM(A1)")
    """
    from config import SETTINGS

    text = "" if value is None else str(value)
    return sanitize_cell(redact_keys(text, [*SETTINGS.keys.secrets(), *secrets]))
