"""Real conversations rated by experts: how far a scorer's order of supporters matches theirs.

Lend an Ear (Kumar et al. 2025) holds real support conversations, each rated by three
experts, a crowd worker and three LLMs on the supporter's behaviour (1–5). A scorer
rates every supporter turn (read with the conversation before it, or alone as a reply to
the seeker's turn just before), the turns of a conversation are averaged, and the
Spearman correlation with the experts' mean says how far its order matches theirs, with
a percentile bootstrap interval over conversations (:func:`scipy.stats.bootstrap`).

The experts' composite is validating + elaborating + understanding − self-oriented −
dismissing (advice is neither good nor bad). Beside a scorer the same file gives what
it can be held to: one expert against the other two, the crowd, and the LLMs' ratings.

>>> round(composite({"validating_emotions": 4, "encouraging_elaboration": 3,
...     "demonstrating_understanding": 4, "advice_giving": 5, "self_oriented": 1,
...     "dismissing_emotions": 2}), 1)
8.0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.conversation import SEEKER, SUPPORTER, Conversation, parse_conversation
from scorers.base import ScoreItem, Scorer

#: The behaviours the raters scored, as the file names them.
BEHAVIOURS = (
    "validating_emotions",
    "encouraging_elaboration",
    "demonstrating_understanding",
    "advice_giving",
    "self_oriented",
    "dismissing_emotions",
)
#: How each behaviour counts in the composite (advice-giving: not at all).
SIGNS = {
    "validating_emotions": 1,
    "encouraging_elaboration": 1,
    "demonstrating_understanding": 1,
    "self_oriented": -1,
    "dismissing_emotions": -1,
}
EXPERTS = ("expert1", "expert2", "expert3")
#: Other raters in the file, each set against the experts' mean.
OTHERS = {"crowd": "a crowd worker", "gpt": "GPT-4o", "claude": "Claude", "gemini": "Gemini"}
#: How a scorer reads a supporter turn.
READINGS = ("with the conversation", "each turn alone")


@dataclass(frozen=True)
class RatedConversation:
    """One conversation and each rater's ratings of its supporter, by behaviour."""

    id: str
    conversation: Conversation
    ratings: dict[str, dict[str, float]]

    def experts_mean(self, target: str = "composite") -> float:
        """The experts' mean composite (or one behaviour's mean)."""
        return float(np.mean([value(self.ratings[e], target) for e in EXPERTS]))


@dataclass(frozen=True)
class Agreement:
    """A Spearman correlation with its 95 % bootstrap interval over ``n`` conversations."""

    rho: float
    low: float
    high: float
    n: int

    def text(self) -> str:
        """``0.38 (0.10 to 0.60)``: how the study prints it."""
        return f"{self.rho:.2f} ({self.low:.2f} to {self.high:.2f})"


def composite(ratings: dict[str, float]) -> float:
    """The experts' composite of one rater's behaviour ratings (see the module)."""
    return float(sum(sign * ratings[name] for name, sign in SIGNS.items()))


def value(ratings: dict[str, float], target: str) -> float:
    """``target`` ("composite" or a behaviour) from one rater's ratings."""
    return composite(ratings) if target == "composite" else float(ratings[target])


def read_rated(path: Path) -> list[RatedConversation]:
    """The conversations of a Lend an Ear file (one row per conversation and rater).

    Raises ``ValueError`` naming what is missing when the file is not such a file.
    """
    import pandas as pd

    table = pd.read_csv(path)
    missing = {"conversation_id", "rater", "full_conversation", *BEHAVIOURS} - set(table)
    if missing:
        raise ValueError(f"{path} lacks the columns {', '.join(sorted(missing))}")
    out = []
    for key, rows in table.groupby("conversation_id", sort=False):
        ratings = {
            str(r["rater"]): {b: float(r[b]) for b in BEHAVIOURS} for _, r in rows.iterrows()
        }
        if not set(EXPERTS) <= set(ratings):
            raise ValueError(f"conversation {key} lacks a rating from {', '.join(EXPERTS)}")
        conversation = parse_conversation(rows["full_conversation"].iloc[0], want_reply=False)
        out.append(RatedConversation(str(key), conversation, ratings))
    return out


def supporter_items(conversation: Conversation, reading: str) -> list[ScoreItem]:
    """One item per supporter turn that answers a seeker: with the turns before it, or
    alone (as a reply to the seeker's turn just before).

    >>> c = parse_conversation("Seeker: I lost my job.\\nSupporter: Oh no.\\nSeeker: I'm "
    ...     "scared.\\nSupporter: That's frightening.", want_reply=False)
    >>> [(i.reply, i.message, len(i.history)) for i in supporter_items(c, READINGS[0])]
    [('Oh no.', 'I lost my job.', 0), ("That's frightening.", "I'm scared.", 2)]
    >>> [len(i.history) for i in supporter_items(c, "each turn alone")]
    [0, 0]
    """
    if reading not in READINGS:
        raise ValueError(f"unknown reading {reading!r}; known: {', '.join(READINGS)}")
    turns, items = conversation.turns, []
    for k, turn in enumerate(turns):
        if turn.role != SUPPORTER or k == 0 or turns[k - 1].role != SEEKER:
            continue
        history = turns[: k - 1] if reading == READINGS[0] else ()
        items.append(ScoreItem(turn.text, turns[k - 1].text, tuple(history)))
    return items


def scorer_means(
    scorer: Scorer,
    rated: Sequence[RatedConversation],
    reading: str,
    progress: Callable[[int, int], None] | None = None,
    *,
    last_only: bool = False,
) -> np.ndarray:
    """Each conversation's mean overall score over its supporter turns (NaN when none
    was scored; ``last_only``: its last supporter turn alone, for slow judges).
    ``progress(done, total)`` is called after each conversation."""
    means = np.full(len(rated), np.nan)
    for k, item in enumerate(rated):
        items = supporter_items(item.conversation, reading)
        scores = scorer.score_many(items[-1:] if last_only else items)
        values = [s.overall for s in scores if s.ok and s.overall is not None]
        if values:
            means[k] = float(np.mean(values))
        if progress:
            progress(k + 1, len(rated))
    return means


def agreement(found: np.ndarray, truth: np.ndarray, *, resamples: int = 2000) -> Agreement:
    """Spearman of ``found`` with ``truth`` (pairs with a NaN left out) and its interval.

    >>> a = agreement(np.arange(10.0), np.arange(10.0) ** 2, resamples=200)
    >>> round(a.rho, 2), a.n
    (1.0, 10)
    """
    return _paired(_spearman, (found, truth), resamples)


def difference(
    a: np.ndarray, b: np.ndarray, truth: np.ndarray, *, resamples: int = 2000
) -> Agreement:
    """How much higher ``a``'s Spearman with ``truth`` is than ``b``'s, with a paired
    percentile bootstrap interval (the same conversations resampled for both).

    >>> t = np.arange(12.0)
    >>> d = difference(t, t[::-1], t, resamples=200)
    >>> round(d.rho, 2), d.low > 0
    (2.0, True)
    """

    def gap(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> float:
        return _spearman(x, z) - _spearman(y, z)

    return _paired(gap, (a, b, truth), resamples)


def _spearman(x: np.ndarray, y: np.ndarray) -> float:
    from scipy import stats

    return float(stats.spearmanr(x, y).statistic)


def _paired(
    statistic: Callable[..., float], arrays: tuple[np.ndarray, ...], resamples: int
) -> Agreement:
    """``statistic`` of the rows with no NaN in any array, and its 95 % percentile interval
    (:func:`scipy.stats.bootstrap`, rows resampled together, seeded)."""
    from scipy import stats

    keep = ~np.logical_or.reduce([np.isnan(a) for a in arrays])
    data = tuple(a[keep] for a in arrays)
    boot = stats.bootstrap(
        data,
        statistic,
        paired=True,
        vectorized=False,
        n_resamples=resamples,
        method="percentile",
        rng=np.random.default_rng(0),
    )
    low, high = boot.confidence_interval
    return Agreement(statistic(*data), float(low), float(high), int(keep.sum()))


def truth(rated: Sequence[RatedConversation], target: str = "composite") -> np.ndarray:
    """The experts' mean of ``target`` per conversation."""
    return np.array([r.experts_mean(target) for r in rated])


def references(
    rated: Sequence[RatedConversation], *, resamples: int = 2000
) -> dict[str, Agreement]:
    """What a scorer can be held to, on the composite: each expert against the mean of the
    other two, and each other rater in the file against the experts' mean."""
    out = {}
    for expert in EXPERTS:
        rest = [e for e in EXPERTS if e != expert]
        one = np.array([composite(r.ratings[expert]) for r in rated])
        others = np.array([np.mean([composite(r.ratings[e]) for e in rest]) for r in rated])
        out[f"{expert} vs the other two"] = agreement(one, others, resamples=resamples)
    experts = truth(rated)
    for rater, name in OTHERS.items():
        found = np.array(
            [composite(r.ratings[rater]) if rater in r.ratings else np.nan for r in rated]
        )
        if not np.isnan(found).all():
            out[f"{name} (ratings in the file)"] = agreement(found, experts, resamples=resamples)
    return out


def scorer_agreements(
    means: np.ndarray, rated: Sequence[RatedConversation], *, resamples: int = 2000
) -> dict[str, Agreement]:
    """A scorer's conversation means against the experts: the composite, then each behaviour."""
    targets = ("composite", *BEHAVIOURS)
    return {t: agreement(means, truth(rated, t), resamples=resamples) for t in targets}
