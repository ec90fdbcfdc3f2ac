"""Bradley–Terry rankings with bootstrap intervals: one implementation for votes and pairwise.

Strengths come from :func:`choix.ilsr_pairwise_dense` (a small ridge, ``alpha``,
keeps an unbeaten item finite), centred on 0 (higher = preferred). Intervals are
percentile bootstraps (:func:`scipy.stats.bootstrap`) over *groups* of
comparisons: a voter's picks for votes, one judged pair for pairwise.

>>> m = wins_matrix([(0, 1), (0, 1), (1, 0)], 2)
>>> s = strengths(m, alpha=0.01)
>>> bool(s[0] > 0 > s[1]), round(float(s.sum()), 6)
(True, 0.0)
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
from scipy import stats


def wins_matrix(pairs: Sequence[tuple[int, int]], n_items: int) -> np.ndarray:
    """``m[i, j]`` = how often item ``i`` beat item ``j`` in ``pairs`` of (winner, loser)."""
    matrix = np.zeros((n_items, n_items))
    for winner, loser in pairs:
        matrix[winner, loser] += 1
    return matrix


def strengths(matrix: np.ndarray, alpha: float) -> np.ndarray:
    """Log-strengths, mean 0, from a wins matrix (zeros when nothing was compared)."""
    import choix

    if not matrix.any():
        return np.zeros(len(matrix))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        params = np.asarray(choix.ilsr_pairwise_dense(matrix, alpha=alpha))
    return params - params.mean()


def intervals(
    groups: Sequence[np.ndarray], n_items: int, alpha: float, resamples: int, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile 95 % intervals of :func:`strengths`, resampling ``groups`` (wins matrices).

    NaN when fewer than two groups or resamples: there is nothing to resample.
    """
    if len(groups) < 2 or resamples < 2:
        nan = np.full(n_items, np.nan)
        return nan, nan

    stacked = np.stack(list(groups))

    def statistic(picked: np.ndarray) -> np.ndarray:
        return strengths(stacked[picked.astype(int)].sum(axis=0), alpha)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a degenerate resample is fine: its interval is a point
        result = stats.bootstrap(
            (np.arange(len(stacked)),),
            statistic,
            vectorized=False,
            n_resamples=resamples,
            method="percentile",
            rng=np.random.default_rng(seed),
        )
    return np.asarray(result.confidence_interval.low), np.asarray(result.confidence_interval.high)
