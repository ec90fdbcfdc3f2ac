"""How long a batch will take: a range before it starts, this run's own pace once it runs.

Each provider's rows run beside the others', each provider at most its own
limit at once (the local model one at a time), so the time left is the
slowest provider's: its rows left × seconds per row ÷ rows it runs at once.
Seconds per row come from this run's finished rows of that provider (wall
time, asking and scoring); until one has finished, from the range the
responder class gives for the run's reply length (``Responder.reply_seconds``:
the local model's measured pace per token, a cloud model's few seconds), and
the estimate is shown as a range.

>>> clock = RowClock({"local": 1, "human": 4}, max_tokens=200)
>>> clock.eta({"local": 3, "human": 4})
(16.5, 33.0)
>>> clock.record("local", 50.0)
>>> clock.eta({"local": 3})
(150.0, 150.0)
>>> eta_text(clock.eta({"local": 3})), eta_text((90.0, 300.0)), eta_text(None)
('ETA 2m 30s', 'ETA 2–5 min (a guess until the first reply of each kind)', 'ETA –')
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from config import DEFAULT_MAX_TOKENS
from responders.base import Responder
from responders.registry import responder_class


def typical_seconds(provider: str, max_tokens: int = DEFAULT_MAX_TOKENS) -> tuple[float, float]:
    """Seconds one row of ``provider`` takes (low, high) with replies of at most
    ``max_tokens`` tokens, before a run has measured its own.

    >>> typical_seconds("local", 200), typical_seconds("openai", 200)
    ((5.5, 11.0), (2.0, 20.0))
    """
    try:
        return responder_class(provider).reply_seconds(max_tokens)
    except KeyError:
        return Responder.reply_seconds(max_tokens)


class RowClock:
    """Seconds per row for each provider, from the rows this run has finished (before the
    first, from the responder's typical time for replies of at most ``max_tokens``)."""

    def __init__(self, limits: Mapping[str, int], max_tokens: int = DEFAULT_MAX_TOKENS) -> None:
        self.limits, self.max_tokens = limits, max_tokens
        self.seconds: defaultdict[str, list[float]] = defaultdict(list)

    def record(self, provider: str, seconds: float) -> None:
        """One finished row of ``provider`` took ``seconds`` (wall time)."""
        self.seconds[provider].append(max(0.0, seconds))

    def per_row(self, provider: str) -> tuple[float, float]:
        """(low, high) seconds per row: measured (low = high) or the typical range."""
        measured = self.seconds.get(provider)
        if measured:
            mean = sum(measured) / len(measured)
            return mean, mean
        return typical_seconds(provider, self.max_tokens)

    def eta(self, left: Mapping[str, int]) -> tuple[float, float] | None:
        """(low, high) seconds until the ``left`` rows per provider are done; None when none."""
        spans = []
        for provider, n in left.items():
            if n <= 0:
                continue
            low, high = self.per_row(provider)
            at_once = max(1, self.limits.get(provider, 1))
            rounds = math.ceil(n / at_once)
            spans.append((rounds * low, rounds * high))
        if not spans:
            return None
        return max(s[0] for s in spans), max(s[1] for s in spans)


def _clock(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


def _minutes(low: float, high: float) -> str:
    if high < 90:
        return f"{round(low)}–{round(high)} s"
    return f"{max(1, round(low / 60))}–{max(1, round(high / 60))} min"


def eta_text(span: tuple[float, float] | None) -> str:
    """``ETA 1m 05s`` when measured, a range while guessed, ``ETA –`` when nothing is left."""
    if span is None:
        return "ETA –"
    low, high = span
    if math.isclose(low, high):
        return f"ETA {_clock(low)}"
    return f"ETA {_minutes(low, high)} (a guess until the first reply of each kind)"


def plan_estimate(
    providers: Sequence[str], limits: Mapping[str, int], max_tokens: int = DEFAULT_MAX_TOKENS
) -> str:
    """One plain line on what a plan of rows (one provider name per row) with replies of at
    most ``max_tokens`` tokens will take.

    >>> plan_estimate(["local", "human", "local", "human"], {"local": 1, "human": 4}, 200)
    '4 replies planned (2 from the local model, one at a time, 6–11 s each on a 2-core CPU). Expect about a minute or less.'
    """
    counts = Counter(providers)
    if not counts:
        return ""
    span = RowClock(limits, max_tokens).eta(counts)
    parts = []
    if counts.get("local"):
        low, high = typical_seconds("local", max_tokens)
        parts.append(
            f"{counts['local']} from the local model, one at a time, "
            f"{round(low)}–{round(high)} s each on a 2-core CPU"
        )
    head = f"{len(providers)} {'reply' if len(providers) == 1 else 'replies'} planned" + (
        f" ({'; '.join(parts)})" if parts else ""
    )
    if span is None or span[1] < 60:
        return head + ". Expect about a minute or less."
    return f"{head}. Expect about {_minutes(*span)}."
