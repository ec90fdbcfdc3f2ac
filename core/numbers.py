"""Numbers as people read them: one way to print a figure, a share or a table cell.

Every page, report and command formats its numbers here, so an undefined
value reads "–" everywhere and a figure has the same digits on the page, in
the report and in the terminal.

>>> fmt(0.12345), fmt(float("nan")), fmt(7), fmt(0.5, 2, signed=True)
('0.123', '–', '7', '+0.50')
>>> percent(0.256), percent(None)
('26 %', '–')
>>> cell(0.123456), cell(float("nan")), cell("ok")
(0.123, '–', 'ok')
"""

from __future__ import annotations

import math
from typing import Any

#: What an undefined number (None, NaN) reads as.
MISSING = "–"


def missing(value: Any) -> bool:
    """True for None and NaN (the values with no number to show).

    >>> missing(None), missing(float("nan")), missing(0.0)
    (True, True, False)
    """
    return value is None or (isinstance(value, float) and math.isnan(value))


def fmt(value: Any, digits: int = 3, signed: bool = False) -> str:
    """A number as text with ``digits`` decimals; integers whole.

    At three or more digits (statistics: p-values, distances) a value below
    0.001 is written in powers of ten rather than as zero.

    >>> fmt(0.00004), fmt(2.0, 1), fmt(-0.25, 2, signed=True), fmt(None)
    ('4.0e-05', '2.0', '-0.25', '–')
    """
    if missing(value):
        return MISSING
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:+d}" if signed else str(value)
    sign = "+" if signed else ""
    if digits >= 3 and abs(value) < 0.001 and value != 0:
        return f"{value:{sign}.1e}"
    return f"{value:{sign}.{digits}f}"


def with_interval(value: Any, low: Any = None, high: Any = None, digits: int = 2) -> str:
    """A value and, when it has one, its interval: ``2.10 [1.90, 2.30]``.

    >>> with_interval(2.1, 1.9, 2.3), with_interval(2.1), with_interval(None, 1, 2)
    ('2.10 [1.90, 2.30]', '2.10', '–')
    """
    if missing(value):
        return MISSING
    if missing(low) or missing(high):
        return fmt(value, digits)
    return f"{fmt(value, digits)} [{fmt(low, digits)}, {fmt(high, digits)}]"


def percent(value: Any) -> str:
    """A share from 0 to 1 as a whole percentage.

    >>> percent(1.0), percent(0.004)
    ('100 %', '0 %')
    """
    return MISSING if missing(value) else f"{100 * value:.0f} %"


def cell(value: Any, digits: int = 3) -> Any:
    """A table cell: floats rounded to ``digits`` (a sortable number), undefined as "–", others as given.

    >>> cell(2.0 / 3, 2), cell(None), cell(3)
    (0.67, '–', 3)
    """
    if missing(value):
        return MISSING
    return round(value, digits) if isinstance(value, float) else value
