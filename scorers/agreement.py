"""How closely a scorer agrees with people: every agreement statistic, in one place.

:func:`compare` takes paired human and scorer ratings on one scale (map the
human scale onto the scorer's first, see :func:`rescale`) and returns:

- ``n``: pairs where both are present (missing values are dropped pairwise);
- ``pearson_r``, ``pearson_t``, ``pearson_p``: Pearson's r (scipy
  ``pearsonr``), and the t statistic of its test, taken from scipy
  ``linregress`` (slope / its standard error, the same t as r's test);
- ``spearman_rho``: scipy ``spearmanr``;
- ``cohens_d``: scorer − human in pooled standard deviations (positive: the
  scorer rates higher than people). It is the independent-samples t of scipy
  ``ttest_ind`` (pooled variance) times sqrt(1/n + 1/n), which is exactly
  (mean_s − mean_h) / sqrt((var_s + var_h) / 2) with ``ddof=1``;
- ``wasserstein``: scipy ``wasserstein_distance`` between the two
  distributions (ignores which reply is which);
- ``t_stat``, ``t_p``: paired t-test, scipy ``ttest_rel(scorer, human)``;
- ``krippendorff_alpha``: ``krippendorff.alpha`` at the interval level,
  treating the scorer as a second rater (values snapped to 1/40 of the
  scale first, see :data:`ALPHA_STEPS`);
- ``qwk``: scikit-learn ``cohen_kappa_score(weights="quadratic")`` on the
  values rounded to the scale's integer levels;
- ``mse``: scikit-learn ``mean_squared_error``;
- ``f1``: scikit-learn macro ``f1_score`` after binning both to the integer
  levels (rounded, clipped to the scale);
- ``bias_sq`` and ``variance_term``: the split of the MSE. With d = scorer −
  human per reply, mean(d²) = mean(d)² + var(d) (population variance,
  ``ddof=0``), exactly. ``bias_sq`` = mean(d)² is the part a constant shift
  would remove (the scorer over- or under-rates); ``variance_term`` = var(d)
  is what no shift removes (noise, and spread that differs from people's).
  ``bias_sq + variance_term == mse``;
- ``human_mean``, ``scorer_mean``, ``human_sd``, ``scorer_sd`` (``ddof=1``);
- ``ci``: a 95 % percentile bootstrap interval (scipy ``bootstrap``, paired
  resampling of replies, ``n_boot`` resamples, seeded) for each statistic
  above except ``n``; resamples where a statistic is undefined (a constant
  column) are left out of its interval; empty when ``n_boot`` is 0.

A statistic that is undefined on the data (a constant column, fewer than
three pairs) is NaN, never a made-up number.

>>> r = compare([1, 2, 3, 3, 2, 1], [2, 2, 3, 3, 3, 2], low=1, high=3, n_boot=0)
>>> r["n"], round(r["pearson_r"], 3), round(r["mse"], 3)
(6, 0.816, 0.5)
>>> round(r["bias_sq"] + r["variance_term"], 3), r["cohens_d"] > 0
(0.5, True)
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats

#: The statistics :func:`compare` reports (``ci`` holds an interval for each but ``n``).
STATISTICS: tuple[str, ...] = (
    "n",
    "pearson_r",
    "pearson_t",
    "pearson_p",
    "spearman_rho",
    "cohens_d",
    "wasserstein",
    "t_stat",
    "t_p",
    "krippendorff_alpha",
    "qwk",
    "mse",
    "f1",
    "bias_sq",
    "variance_term",
    "human_mean",
    "scorer_mean",
    "human_sd",
    "scorer_sd",
)
_BOOTSTRAPPED = STATISTICS[1:]
_NAN = float("nan")
#: Krippendorff's alpha reads values snapped to 1/40 of the scale (0.05 on 1–3):
#: the package builds an N × V × V array over the V distinct values, which
#: unsnapped continuous scores make huge; the snap moves alpha by about 0.001.
ALPHA_STEPS = 40


def rescale(
    values: Sequence[float], low: float, high: float, to_low: float, to_high: float
) -> np.ndarray:
    """Map ``values`` linearly from ``[low, high]`` onto ``[to_low, to_high]``.

    >>> rescale([1, 3, 5], 1, 5, 1, 3).tolist()
    [1.0, 2.0, 3.0]
    """
    if high <= low:
        raise ValueError(f"the scale {low}:{high} is empty: its top must be above its bottom")
    arr = np.asarray(values, dtype=float)
    return to_low + (arr - low) * (to_high - to_low) / (high - low)


def levels(values: np.ndarray, low: int, high: int) -> np.ndarray:
    """Values rounded to the scale's integer levels (half up), clipped to it.

    >>> levels(np.array([0.4, 1.5, 2.49, 3.7]), 1, 3).tolist()
    [1, 2, 2, 3]
    """
    return np.clip(np.floor(np.asarray(values, dtype=float) + 0.5), low, high).astype(int)


def _safe(fn: Any) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = float(fn())
        except (ValueError, ZeroDivisionError, FloatingPointError):
            return _NAN
    return value if np.isfinite(value) else _NAN


def _constant(x: np.ndarray) -> bool:
    return bool(np.ptp(x) == 0)


def _statistics(human: np.ndarray, scorer: np.ndarray, low: int, high: int) -> dict[str, float]:
    """Every statistic for one set of pairs (no intervals)."""
    import sklearn
    from sklearn.metrics import cohen_kappa_score, f1_score, mean_squared_error

    n = len(human)
    varied = n >= 3 and not _constant(human) and not _constant(scorer)
    pearson = stats.pearsonr(scorer, human) if varied else None
    paired = stats.ttest_rel(scorer, human) if n >= 2 else None
    diff = scorer - human
    mh, ms = levels(human, low, high), levels(scorer, low, high)
    scale = list(range(low, high + 1))
    with sklearn.config_context(assume_finite=True, skip_parameter_validation=True):
        out = {
            "pearson_r": _safe(lambda: pearson.statistic) if pearson else _NAN,
            "pearson_t": _safe(lambda: _slope_t(human, scorer)) if varied else _NAN,
            "pearson_p": _safe(lambda: pearson.pvalue) if pearson else _NAN,
            "spearman_rho": _safe(lambda: stats.spearmanr(scorer, human).statistic)
            if varied
            else _NAN,
            "cohens_d": _safe(lambda: stats.ttest_ind(scorer, human).statistic * np.sqrt(2.0 / n))
            if n >= 2
            else _NAN,
            "wasserstein": _safe(lambda: stats.wasserstein_distance(scorer, human)),
            "t_stat": _safe(lambda: paired.statistic) if paired else _NAN,
            "t_p": _safe(lambda: paired.pvalue) if paired else _NAN,
            "krippendorff_alpha": _safe(lambda: _alpha(human, scorer, low, high))
            if n >= 2
            else _NAN,
            "qwk": _safe(lambda: cohen_kappa_score(mh, ms, labels=scale, weights="quadratic")),
            "mse": _safe(lambda: mean_squared_error(human, scorer)),
            "f1": _safe(lambda: f1_score(mh, ms, average="macro", zero_division=0)),
            "bias_sq": _safe(lambda: np.mean(diff) ** 2),
            "variance_term": _safe(lambda: np.var(diff)),
            "human_mean": _safe(lambda: np.mean(human)),
            "scorer_mean": _safe(lambda: np.mean(scorer)),
            "human_sd": _safe(lambda: np.std(human, ddof=1)) if n >= 2 else _NAN,
            "scorer_sd": _safe(lambda: np.std(scorer, ddof=1)) if n >= 2 else _NAN,
        }
    return out


def _alpha(human: np.ndarray, scorer: np.ndarray, low: int, high: int) -> float:
    import krippendorff

    data = np.vstack([_grid(human, low, high), _grid(scorer, low, high)])
    return krippendorff.alpha(reliability_data=data, level_of_measurement="interval")


def _grid(values: np.ndarray, low: int, high: int) -> np.ndarray:
    """Values snapped to 1/ALPHA_STEPS of the scale (krippendorff's memory grows with N·V²)."""
    step = (high - low) / ALPHA_STEPS
    return low + np.round((values - low) / step) * step


def _slope_t(human: np.ndarray, scorer: np.ndarray) -> float:
    fit = stats.linregress(human, scorer)
    return fit.slope / fit.stderr


def _intervals(
    human: np.ndarray, scorer: np.ndarray, low: int, high: int, seed: int, n_boot: int
) -> dict[str, list[float]]:
    def statistic(h: np.ndarray, s: np.ndarray) -> np.ndarray:
        values = _statistics(h, s, low, high)
        return np.array([values[k] for k in _BOOTSTRAPPED])

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = stats.bootstrap(
            (human, scorer),
            statistic,
            paired=True,
            vectorized=False,
            n_resamples=n_boot,
            method="percentile",
            confidence_level=0.95,
            rng=np.random.default_rng(seed),
        )
        # Percentiles of scipy's bootstrap distribution, leaving out the resamples where a
        # statistic is undefined (a resample with a constant column has no correlation).
        lows, highs = np.nanpercentile(result.bootstrap_distribution, [2.5, 97.5], axis=-1)
    return {
        k: [_finite(lo), _finite(hi)] for k, lo, hi in zip(_BOOTSTRAPPED, lows, highs, strict=True)
    }


def _finite(value: float) -> float:
    return float(value) if np.isfinite(value) else _NAN


def compare(
    human: Sequence[float],
    scorer: Sequence[float],
    *,
    low: int,
    high: int,
    seed: int = 0,
    n_boot: int = 1000,
) -> dict[str, Any]:
    """Agreement of ``scorer`` with ``human`` ratings on the scale ``low``–``high``.

    Pairs with a missing value on either side are dropped. See the module's
    docstring for each key; ``ci`` maps each statistic to ``[low, high]``.
    """
    h = np.asarray(human, dtype=float)
    s = np.asarray(scorer, dtype=float)
    if h.shape != s.shape or h.ndim != 1:
        raise ValueError(f"human and scorer ratings must pair up (got {h.shape} and {s.shape})")
    keep = ~(np.isnan(h) | np.isnan(s))
    h, s = h[keep], s[keep]
    n = len(h)
    if n == 0:
        return {"n": 0, **dict.fromkeys(_BOOTSTRAPPED, _NAN), "ci": {}}
    report: dict[str, Any] = {"n": n, **_statistics(h, s, low, high)}
    report["ci"] = _intervals(h, s, low, high, seed, n_boot) if n_boot > 0 and n >= 3 else {}
    return report
