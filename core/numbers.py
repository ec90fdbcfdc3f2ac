"""Numbers as people read them: one way to print a figure, a share or a table cell.

Every page, report and command formats its numbers here, so an undefined
value reads "–" everywhere and a figure has the same digits on the page, in
the report and in the terminal.

>>> fmt(0.12345), fmt(float("nan")), fmt(7), fmt(0.5, 2, signed=True)
('0.123', '–', '7', '+0.50')
>>> fmt(-0.004, 2), p_value(0.0004), p_value(0.004), p_value(0.04)
('0.00', '< 0.001', '< 0.01', '0.04')
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

    At three or more digits (statistics: distances) a value below 0.001 is
    written in powers of ten rather than as zero. A value that rounds to zero
    never keeps a minus sign ("-0.00" read as a fall where there was none).
    A p-value goes through :func:`p_value` instead.

    >>> fmt(0.00004), fmt(2.0, 1), fmt(-0.25, 2, signed=True), fmt(None)
    ('4.0e-05', '2.0', '-0.25', '–')
    >>> fmt(-0.001, 2), fmt(-0.001, 2, signed=True), fmt(-0.0), fmt(-0.0004, 3)
    ('0.00', '+0.00', '0.000', '-4.0e-04')
    """
    if missing(value):
        return MISSING
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:+d}" if signed else str(value)
    sign = "+" if signed else ""
    if digits >= 3 and abs(value) < 0.001 and value != 0:
        return f"{value:{sign}.1e}"
    if round(value, digits) == 0:
        value = 0.0  # -0.001 and -0.0 print as 0.00, never -0.00
    return f"{value:{sign}.{digits}f}"


def p_value(value: Any, digits: int = 2, named: bool = False) -> str:
    """A p-value as people read it: "< 0.001" or "< 0.01" where ``digits`` decimals would
    print 0.00, else the value; ``named`` puts "p" in front ("p < 0.01", "p = 0.04").

    >>> p_value(0.00002), p_value(0.003), p_value(0.0312), p_value(None)
    ('< 0.001', '< 0.01', '0.03', '–')
    >>> p_value(0.003, named=True), p_value(0.5, named=True), p_value(0.0004, 3)
    ('p < 0.01', 'p = 0.50', '< 0.001')
    """
    if missing(value):
        text = MISSING
    elif value < 0.001:
        text = "< 0.001"
    elif round(value, digits) == 0:
        text = f"< {10.0**-digits:.{digits}f}"
    else:
        text = f"{value:.{digits}f}"
    if not named:
        return text
    return f"p {text}" if text.startswith("<") else f"p = {text}"


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
    >>> cell(-0.0001, 2)
    0.0
    """
    if missing(value):
        return MISSING
    return round(value, digits) + 0.0 if isinstance(value, float) else value  # -0.0 -> 0.0
