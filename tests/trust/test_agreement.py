"""scorers.agreement against values computed independently (numpy formulas, by hand)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from scorers.agreement import STATISTICS, compare, levels, rescale

# Fixed data: people on 1–3, a scorer that overrates a little and is noisy.
HUMAN = np.array([1, 1, 2, 2, 2, 3, 3, 3, 1, 2, 3, 2], dtype=float)
SCORER = np.array([2, 1, 2, 3, 2, 3, 3, 2, 2, 2, 3, 3], dtype=float)


@pytest.fixture(scope="module")
def report() -> dict:
    return compare(HUMAN, SCORER, low=1, high=3, n_boot=0)


def test_keys_are_the_issues(report: dict) -> None:
    issue = "n pearson_r pearson_t pearson_p spearman_rho cohens_d wasserstein t_stat t_p "
    issue += "krippendorff_alpha qwk mse f1 bias_sq variance_term"
    assert set(issue.split()) <= set(report)
    assert set(STATISTICS) <= set(report)
    assert report["ci"] == {}


def test_correlations_match_textbook_formulas(report: dict) -> None:
    n = len(HUMAN)
    r = np.corrcoef(HUMAN, SCORER)[0, 1]
    t = r * math.sqrt(n - 2) / math.sqrt(1 - r**2)
    p = 2 * stats.t.sf(abs(t), n - 2)
    rank_h = stats.rankdata(HUMAN)
    rank_s = stats.rankdata(SCORER)
    assert report["n"] == n
    assert report["pearson_r"] == pytest.approx(r)
    assert report["pearson_t"] == pytest.approx(t)
    assert report["pearson_p"] == pytest.approx(p)
    assert report["spearman_rho"] == pytest.approx(np.corrcoef(rank_h, rank_s)[0, 1])


def test_shift_statistics_match_textbook_formulas(report: dict) -> None:
    n = len(HUMAN)
    d = SCORER - HUMAN
    pooled = math.sqrt((HUMAN.var(ddof=1) + SCORER.var(ddof=1)) / 2)
    assert report["cohens_d"] == pytest.approx((SCORER.mean() - HUMAN.mean()) / pooled)
    assert report["cohens_d"] > 0  # the scorer rates higher than people
    t = d.mean() / (d.std(ddof=1) / math.sqrt(n))
    assert report["t_stat"] == pytest.approx(t)
    assert report["t_p"] == pytest.approx(2 * stats.t.sf(abs(t), n - 1))
    # Sorted-sample W1 for equal sizes: mean |sorted difference|.
    assert report["wasserstein"] == pytest.approx(np.mean(np.abs(np.sort(HUMAN) - np.sort(SCORER))))
    assert report["mse"] == pytest.approx(np.mean(d**2))
    assert report["bias_sq"] == pytest.approx(d.mean() ** 2)
    assert report["variance_term"] == pytest.approx(d.var())
    assert report["bias_sq"] + report["variance_term"] == pytest.approx(report["mse"])


def test_cohens_d_matches_pingouin() -> None:
    pg = pytest.importorskip("pingouin")
    r = compare(HUMAN, SCORER, low=1, high=3, n_boot=0)
    assert r["cohens_d"] == pytest.approx(pg.compute_effsize(SCORER, HUMAN, eftype="cohen"))


def test_alpha_kappa_f1_match_hand_computation(report: dict) -> None:
    # Krippendorff's interval alpha, two raters, nothing missing:
    # 1 − mean squared difference / (2 · sample variance of all values pooled).
    pooled = np.concatenate([HUMAN, SCORER])
    alpha = 1 - np.mean((HUMAN - SCORER) ** 2) / (2 * pooled.var(ddof=1))
    assert report["krippendorff_alpha"] == pytest.approx(alpha)
    # Quadratic kappa from the confusion matrix.
    k = 3
    observed = np.zeros((k, k))
    for a, b in zip(HUMAN.astype(int) - 1, SCORER.astype(int) - 1, strict=True):
        observed[a, b] += 1
    expected = np.outer(observed.sum(1), observed.sum(0)) / observed.sum()
    weights = np.array([[(i - j) ** 2 for j in range(k)] for i in range(k)]) / (k - 1) ** 2
    qwk = 1 - (weights * observed).sum() / (weights * expected).sum()
    assert report["qwk"] == pytest.approx(qwk)
    # Macro F1 over the three levels.
    f1s = []
    people, machine = HUMAN.astype(int), SCORER.astype(int)
    for c in (1, 2, 3):
        tp = np.sum((machine == c) & (people == c))
        precision, recall = tp / np.sum(machine == c), tp / np.sum(people == c)
        f1s.append(2 * precision * recall / (precision + recall))
    assert report["f1"] == pytest.approx(np.mean(f1s))


def test_perfect_agreement() -> None:
    r = compare(HUMAN, HUMAN, low=1, high=3, n_boot=0)
    assert r["pearson_r"] == pytest.approx(1)
    assert r["krippendorff_alpha"] == pytest.approx(1)
    assert r["qwk"] == pytest.approx(1)
    assert r["f1"] == pytest.approx(1)
    assert r["mse"] == 0 and r["wasserstein"] == 0 and r["cohens_d"] == 0


def test_continuous_scores_are_binned_for_kappa_and_f1() -> None:
    scorer = SCORER + np.where(SCORER < 3, 0.3, -0.3)  # rounds back to SCORER
    a = compare(HUMAN, scorer, low=1, high=3, n_boot=0)
    b = compare(HUMAN, SCORER, low=1, high=3, n_boot=0)
    assert a["qwk"] == pytest.approx(b["qwk"]) and a["f1"] == pytest.approx(b["f1"])
    assert a["mse"] != pytest.approx(b["mse"])


def test_missing_pairs_are_dropped_and_constant_columns_give_nan() -> None:
    h = [1.0, 2.0, float("nan"), 3.0, 2.0]
    s = [1.0, 2.0, 3.0, float("nan"), 3.0]
    r = compare(h, s, low=1, high=3, n_boot=0)
    assert r["n"] == 3
    flat = compare([2, 2, 2, 2], [1, 2, 3, 2], low=1, high=3, n_boot=0)
    assert math.isnan(flat["pearson_r"]) and math.isnan(flat["spearman_rho"])
    assert flat["mse"] == pytest.approx(0.5)
    assert compare([], [], low=1, high=3)["n"] == 0
    with pytest.raises(ValueError, match="pair up"):
        compare([1, 2], [1, 2, 3], low=1, high=3)


def test_bootstrap_intervals_are_seeded_and_hold_the_estimate() -> None:
    rng = np.random.default_rng(1)
    h = rng.integers(1, 4, 60).astype(float)
    s = np.clip(h * 0.6 + 1.0 + rng.normal(0, 0.4, 60), 1, 3)
    a = compare(h, s, low=1, high=3, n_boot=120, seed=3)
    b = compare(h, s, low=1, high=3, n_boot=120, seed=3)
    assert a["ci"] == b["ci"]
    for name in ("pearson_r", "mse", "cohens_d", "krippendorff_alpha", "qwk"):
        low, high = a["ci"][name]
        assert low < high
        assert low <= a[name] <= high, name


def test_alpha_on_continuous_scores_stays_close_and_cheap() -> None:
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(2)
    h = rng.integers(1, 4, 150).astype(float)
    s = np.clip(h * 0.5 + 1.3 + rng.normal(0, 0.4, 150), 1, 3)
    exact = krippendorff.alpha(reliability_data=np.vstack([h, s]), level_of_measurement="interval")
    assert compare(h, s, low=1, high=3, n_boot=0)["krippendorff_alpha"] == pytest.approx(
        exact, abs=0.005
    )


def test_rescale_and_levels() -> None:
    assert rescale([1, 5], 1, 5, 1, 3).tolist() == [1.0, 3.0]
    assert rescale([0, 2], 0, 2, 1, 3).tolist() == [1.0, 3.0]
    with pytest.raises(ValueError, match="empty"):
        rescale([1], 3, 3, 1, 3)
    assert levels(np.array([1.49, 1.5, 9.0]), 1, 3).tolist() == [1, 2, 3]
