"""How a scorer's numbers line up with people's: the statistics of Roshanaei et al.'s tables.

Pearson's r (does the scorer order items as people do), the means and
Cohen's d (does it rate higher or lower; d = (human mean − scorer mean) /
pooled standard deviation, so a negative d means the scorer overrates, the
paper's sign), the Wasserstein distance between the two distributions, and
a paired t-test on the differences. Everything comes from scipy; with fewer
than three pairs, or a constant column, the undefined numbers are NaN.

>>> stats = agreement([4, 5, 3, 5], [4, 4, 2, 5])
>>> stats["n"], round(stats["pearson_r"], 3), round(stats["wasserstein"], 2)
(4, 0.899, 0.5)
>>> stats["cohens_d"] < 0  # the scorer rates higher than the people
True
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
from scipy import stats as st

NAN = float("nan")


def _cohens_d(model: np.ndarray, human: np.ndarray) -> float:
    pooled = math.sqrt((np.var(model, ddof=1) + np.var(human, ddof=1)) / 2)
    return float((human.mean() - model.mean()) / pooled) if pooled > 0 else NAN


def agreement(model: Sequence[float], human: Sequence[float]) -> dict[str, float | int]:
    """Pearson, means, Cohen's d, Wasserstein and a paired t-test for paired ratings."""
    m = np.asarray(model, dtype=float)
    h = np.asarray(human, dtype=float)
    if m.shape != h.shape:
        raise ValueError("model and human ratings must pair up one to one")
    out: dict[str, float | int] = {
        "n": int(m.size),
        "model_mean": float(m.mean()) if m.size else NAN,
        "human_mean": float(h.mean()) if h.size else NAN,
        "pearson_r": NAN,
        "pearson_p": NAN,
        "cohens_d": NAN,
        "wasserstein": float(st.wasserstein_distance(m, h)) if m.size else NAN,
        "t": NAN,
        "t_p": NAN,
    }
    if m.size < 3:
        return out
    out["cohens_d"] = _cohens_d(m, h)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input: NaN, not a warning on stderr
        if np.ptp(m) > 0 and np.ptp(h) > 0:
            r = st.pearsonr(m, h)
            out["pearson_r"], out["pearson_p"] = float(r.statistic), float(r.pvalue)
        if np.ptp(m - h) > 0:
            t = st.ttest_rel(m, h)
            out["t"], out["t_p"] = float(t.statistic), float(t.pvalue)
    return out
