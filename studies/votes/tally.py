"""Results of blind votes: shares, a choice-model ranking with intervals, scorer agreement.

The ranking turns each best–worst vote into pairwise wins (documented choice,
as in a best–worst "maxdiff" analysis): the reply picked as most empathetic
beats every other reply shown, and every other reply shown beats the one
picked as least empathetic (the most beats the least once, not twice). A
Bradley–Terry model is fitted to the matrix of win counts with
:func:`choix.ilsr_pairwise_dense` (a small ridge, :data:`ALPHA`, keeps a
source that always wins finite). The score is the model's log-strength, centred on 0; higher = more empathetic.
The 95 % interval is a percentile bootstrap (:func:`scipy.stats.bootstrap`)
over voters: a voter's votes are resampled together.

>>> rows = [{"round": "R", "voter": str(i), "shown": "a|b|c", "most": "a", "least": "c"}
...         for i in range(6)]
>>> [r.source for r in summarize(rows, resamples=20)]
['a', 'b', 'c']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from studies import bradley_terry as bt
from studies.votes.rounds import VoteRound

ALPHA = 0.05
#: Fewer voters than this get no interval: "not enough votes yet".
MIN_VOTERS = 5
RESULT_COLUMNS = ("source", "score", "ci_low", "ci_high", "most_share", "least_share", "n")


class VoteDataError(ValueError):
    """A vote row that cannot be counted; the message names the row."""


@dataclass(frozen=True)
class Vote:
    """One best–worst choice: the sources shown, the most and the least empathetic."""

    round: str
    voter: str
    shown: tuple[str, ...]
    most: str
    least: str


@dataclass(frozen=True)
class SourceResult:
    """One source's line in the results (``n``: votes in which it was shown)."""

    source: str
    score: float
    ci_low: float
    ci_high: float
    most_share: float
    least_share: float
    n: int
    most: int
    least: int

    def row(self) -> dict[str, object]:
        """The results-CSV row (:data:`RESULT_COLUMNS`)."""
        return {k: v for k, v in asdict(self).items() if k in RESULT_COLUMNS}


def parse_votes(rows: Iterable[Mapping[str, str]], round_code: str | None = None) -> list[Vote]:
    """Votes from log or survey rows (optionally one round's); VoteDataError names a bad row.

    >>> parse_votes([{"round": "R", "voter": "v", "shown": "a|b", "most": "a", "least": "a"}])
    Traceback (most recent call last):
    ...
    studies.votes.tally.VoteDataError: vote row 2: most and least are the same ('a')
    """
    votes: list[Vote] = []
    for number, row in enumerate(rows, start=2):  # line 1 is the header
        if round_code and row.get("round", "").strip().upper() != round_code.upper():
            continue
        shown = tuple(s.strip() for s in row.get("shown", "").split("|") if s.strip())
        most, least = row.get("most", "").strip(), row.get("least", "").strip()
        problem = _problem(shown, most, least)
        if problem:
            raise VoteDataError(f"vote row {number}: {problem}")
        votes.append(Vote(row.get("round", ""), row.get("voter", ""), shown, most, least))
    return votes


def _problem(shown: tuple[str, ...], most: str, least: str) -> str:
    if len(shown) < 2 or len(set(shown)) != len(shown):
        return f"'shown' needs two or more different sources joined by '|' (got {shown})"
    if most not in shown or least not in shown:
        return f"most {most!r} and least {least!r} must both be among the shown {shown}"
    return f"most and least are the same ({most!r})" if most == least else ""


def vote_pairs(vote: Vote) -> list[tuple[str, str]]:
    """The (winner, loser) pairs a best–worst vote implies.

    >>> vote_pairs(Vote("R", "v", ("a", "b", "c"), "a", "c"))
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    wins = [(vote.most, other) for other in vote.shown if other != vote.most]
    middle = [(other, vote.least) for other in vote.shown if other not in (vote.most, vote.least)]
    return wins + middle


def comparison_matrix(votes: Sequence[Vote], sources: Sequence[str]) -> np.ndarray:
    """``m[i, j]`` = how often ``sources[i]`` beat ``sources[j]`` (see :func:`vote_pairs`).

    >>> comparison_matrix([Vote("R", "v", ("a", "b"), "b", "a")], ["a", "b"]).tolist()
    [[0.0, 0.0], [1.0, 0.0]]
    """
    index = {s: i for i, s in enumerate(sources)}
    pairs = [(index[w], index[lose]) for vote in votes for w, lose in vote_pairs(vote)]
    return bt.wins_matrix(pairs, len(sources))


def fit_scores(votes: Sequence[Vote], sources: Sequence[str], alpha: float = ALPHA) -> np.ndarray:
    """Bradley–Terry log-strengths (mean 0) of ``sources`` from ``votes``, by choix."""
    return bt.strengths(comparison_matrix(votes, sources), alpha)


def bootstrap_intervals(
    votes: Sequence[Vote], sources: Sequence[str], resamples: int = 200, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile 95 % intervals of :func:`fit_scores`, resampling voters.

    NaN (no interval) with fewer than :data:`MIN_VOTERS` voters: resampling two or
    three voters gives intervals that look settled and are not.
    """
    by_voter: dict[str, list[Vote]] = {}
    for vote in votes:
        by_voter.setdefault(vote.voter, []).append(vote)
    if len(by_voter) < MIN_VOTERS or resamples < 2:
        nan = np.full(len(sources), np.nan)
        return nan, nan
    per_voter = [comparison_matrix(g, sources) for g in by_voter.values()]
    return bt.intervals(per_voter, len(sources), ALPHA, resamples, seed)


def summarize(
    rows: Iterable[Mapping[str, str]],
    round_code: str | None = None,
    *,
    resamples: int = 200,
    seed: int = 0,
) -> list[SourceResult]:
    """Per-source shares and the ranking with 95 % intervals, best first."""
    votes = parse_votes(rows, round_code)
    shown = Counter(s for v in votes for s in v.shown)
    most, least = Counter(v.most for v in votes), Counter(v.least for v in votes)
    sources = sorted(shown)
    scores = fit_scores(votes, sources)
    low, high = bootstrap_intervals(votes, sources, resamples, seed)
    results = [
        SourceResult(
            source=s,
            score=round(float(scores[i]), 4),
            ci_low=round(float(low[i]), 4),
            ci_high=round(float(high[i]), 4),
            most_share=round(most[s] / shown[s], 4),
            least_share=round(least[s] / shown[s], 4),
            n=shown[s],
            most=most[s],
            least=least[s],
        )
        for i, s in enumerate(sources)
    ]
    return sorted(results, key=lambda r: (-r.score, r.source))


@dataclass(frozen=True)
class Agreement:
    """How often a scorer's top (bottom) reply was the voters' most (least) empathetic."""

    scorer: str
    votes: int
    top_match: float
    bottom_match: float
    chance: float


def _extremes(values: Mapping[str, float]) -> tuple[set[str], set[str]]:
    best, worst = max(values.values()), min(values.values())
    return {s for s, x in values.items() if x == best}, {s for s, x in values.items() if x == worst}


def scorer_agreement(votes: Sequence[Vote], rounds: Mapping[str, VoteRound]) -> list[Agreement]:
    """Agreement of each scorer saved with the rounds (ties count as a match for any tied reply).

    ``chance`` is the rate a scorer picking at random would reach (mean of 1/replies shown).
    """
    tallies: dict[str, list[tuple[bool, bool, float]]] = {}
    for vote in votes:
        rnd = rounds.get(vote.round)
        for scorer, by_source in (rnd.scores if rnd else {}).items():
            overall = {
                s: float(d["overall"])
                for s, d in by_source.items()
                if s in vote.shown and d.get("status") == "ok" and d.get("overall") is not None
            }
            if vote.most not in overall or vote.least not in overall or len(overall) < 2:
                continue
            top, bottom = _extremes(overall)
            hit = (vote.most in top, vote.least in bottom, 1 / len(overall))
            tallies.setdefault(scorer, []).append(hit)
    return [
        Agreement(
            scorer=scorer,
            votes=len(hits),
            top_match=round(float(np.mean([h[0] for h in hits])), 4),
            bottom_match=round(float(np.mean([h[1] for h in hits])), 4),
            chance=round(float(np.mean([h[2] for h in hits])), 4),
        )
        for scorer, hits in sorted(tallies.items())
    ]


def tally(
    rows: Sequence[Mapping[str, str]],
    rounds: Mapping[str, VoteRound],
    round_code: str | None = None,
    *,
    resamples: int = 200,
    seed: int = 0,
) -> tuple[list[SourceResult], list[Agreement]]:
    """:func:`summarize` and :func:`scorer_agreement` for the same votes."""
    results = summarize(rows, round_code, resamples=resamples, seed=seed)
    return results, scorer_agreement(parse_votes(rows, round_code), rounds)
