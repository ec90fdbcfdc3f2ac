"""What a batch found: means with 95% intervals, paired tests, failures, a headline table.

Every number is over the latest row of each planned key of the run's current
plan. An *arm* is one responder with one strategy. Intervals are Student-t
intervals of the mean (scipy), clipped to the 1–3 scale: with few replies
the raw interval runs past it (here −0.48 to 4.48), and no mean can. Differences between arms are Wilcoxon
signed-rank tests over the questions both answered (each question's samples
averaged first), Holm-corrected over every test in the table (statsmodels),
with how big each difference is: a 95% bootstrap interval of the mean
difference, paired Cohen's d and the Wasserstein distance (scipy).

>>> import pandas as pd
>>> df = pd.DataFrame({"responder": ["a"] * 3, "strategy": ["s"] * 3, "x/overall": [1.0, 2.0, 3.0]})
>>> row = arm_summary(df, ["x/overall"]).iloc[0]
>>> int(row.n), float(row["mean"]), round(float(row.ci_low), 3), round(float(row.ci_high), 3)
(3, 2.0, 1.0, 3.0)
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests

from core.numbers import MISSING, missing, with_interval
from studies.batch.plan import RowTask, plan_rows
from studies.batch.store import RunFolder

ARM = ["responder", "strategy"]


def load_results(folder: str | Path) -> tuple[pd.DataFrame, list[str]]:
    """The current plan's rows (latest per key) and the score columns (``scorer/component``)."""
    run = RunFolder(folder)
    questions, settings = run.plan()
    latest = run.latest_rows()
    fields = list(run.info()["fields"])
    missing = {"status": "not run", "error": "not asked yet (the run was stopped before it)"}
    rows = [
        latest.get(t.key) or {**dict.fromkeys(fields, ""), **_identity(t), **missing}
        for t in plan_rows(questions, settings)
    ]
    scorers = tuple(f"{s}/" for s in settings.scorers)
    columns = [
        f
        for f in fields
        if f.startswith(scorers) and not f.endswith(("/status", "/reason", "/note"))
    ]
    df = pd.DataFrame(rows, columns=fields)
    for column in [*columns, "latency_s", "cost_usd", "prompt_tokens", "completion_tokens"]:
        df[column] = pd.to_numeric(df[column], errors="coerce")
    return df, columns


def _identity(task: RowTask) -> dict[str, object]:
    names = ("question_id", "responder", "strategy", "sample", "settings_hash", "question")
    return {name: getattr(task, name) for name in names}


def _interval(
    values: pd.Series, low: float = 1.0, high: float = 3.0
) -> tuple[int, float, float, float]:
    """n, mean and the 95 % t-interval, clipped to the scale (a mean cannot leave it).

    >>> _interval(pd.Series([1.0, 3.0]))
    (2, 2.0, 1.0, 3.0)
    """
    values = values.dropna()
    n = len(values)
    if n == 0:
        return 0, np.nan, np.nan, np.nan
    mean = float(values.mean())
    if n < 2 or values.std() == 0:
        return n, mean, mean if n > 1 else np.nan, mean if n > 1 else np.nan
    lo, hi = stats.t.interval(0.95, n - 1, loc=mean, scale=stats.sem(values))
    return n, mean, max(float(lo), low), min(float(hi), high)


def arm_summary(df: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """One row per arm × score column: n, mean and the 95% interval of the mean."""
    out = []
    for (responder, strategy), group in df.groupby(ARM, sort=False):
        for column in columns:
            scorer, _, component = column.rpartition("/")
            n, mean, low, high = _interval(group[column])
            out.append(
                {
                    "responder": responder,
                    "strategy": strategy,
                    "scorer": scorer,
                    "component": component,
                    "n": n,
                    "mean": mean,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
    names = [*ARM, "scorer", "component", "n", "mean", "ci_low", "ci_high"]
    return pd.DataFrame(out, columns=names)


def _per_question(df: pd.DataFrame, column: str) -> pd.DataFrame:
    """Each arm's score per question (samples averaged), arms as columns."""
    arms = df.assign(arm=df["responder"] + " · " + df["strategy"])
    table = arms.pivot_table(index="question_id", columns="arm", values=column, aggfunc="mean")
    return table[[a for a in arms["arm"].unique() if a in table.columns]]  # plan order


def _wilcoxon(a: pd.Series, b: pd.Series) -> tuple[float, float, str]:
    diff = (a - b).to_numpy()
    if len(diff) < 2:
        return np.nan, np.nan, "fewer than 2 paired questions"
    if np.allclose(diff, 0):
        return np.nan, 1.0, "identical scores"
    result = stats.wilcoxon(a, b)
    return float(result.statistic), float(result.pvalue), ""


#: The columns of :func:`paired_tests`, in order.
TEST_COLUMNS = [
    "scorer",
    "component",
    "arm_a",
    "arm_b",
    "n_questions",
    "mean_difference",
    "diff_low",
    "diff_high",
    "cohens_d",
    "wasserstein",
    "statistic",
    "p",
    "note",
]


def _sizes(a: pd.Series, b: pd.Series) -> dict[str, float]:
    """How big a paired difference is: its 95% bootstrap interval, paired Cohen's d (the
    mean difference over its standard deviation) and the Wasserstein distance between the
    two arms' scores; NaN where too few questions or no spread leave them undefined."""
    diff = (a - b).to_numpy()
    out = dict.fromkeys(("diff_low", "diff_high", "cohens_d", "wasserstein"), np.nan)
    if len(diff) == 0:
        return out
    out["wasserstein"] = float(stats.wasserstein_distance(a, b))
    if len(diff) < 3 or np.allclose(diff, diff[0]):
        return out
    boot = stats.bootstrap(
        (diff,), np.mean, n_resamples=2000, method="percentile", random_state=0
    ).confidence_interval
    out.update(diff_low=float(boot.low), diff_high=float(boot.high))
    out["cohens_d"] = float(stats.ttest_1samp(diff, 0.0).statistic / np.sqrt(len(diff)))
    return out


def paired_tests(df: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """Every pair of arms, every score column: Wilcoxon over shared questions, Holm-corrected,
    with how big each difference is (:func:`_sizes`)."""
    out = []
    for column in columns:
        table = _per_question(df, column)
        for first, second in itertools.combinations(table.columns, 2):
            pair = table[[first, second]].dropna()
            statistic, p, note = _wilcoxon(pair[first], pair[second])
            scorer, _, component = column.rpartition("/")
            diff = float((pair[first] - pair[second]).mean()) if len(pair) else np.nan
            out.append(
                {
                    "scorer": scorer,
                    "component": component,
                    "arm_a": first,
                    "arm_b": second,
                    "n_questions": len(pair),
                    "mean_difference": diff,
                    **_sizes(pair[first], pair[second]),
                    "statistic": statistic,
                    "p": p,
                    "note": note,
                }
            )
    tests = pd.DataFrame(out, columns=TEST_COLUMNS)
    tests["p_holm"] = np.nan
    tests["significant"] = False
    valid = tests["p"].notna()
    if valid.any():
        reject, corrected, _, _ = multipletests(tests.loc[valid, "p"], alpha=0.05, method="holm")
        tests.loc[valid, "p_holm"] = corrected
        tests.loc[valid, "significant"] = reject
    return tests


def failures(df: pd.DataFrame, scorer_ids: list[str]) -> pd.DataFrame:
    """Failed rows and unscored scores, counted by arm and reason."""
    parts = []
    failed = df[df["status"] != "ok"]
    if len(failed):
        parts.append(
            failed.assign(stage="reply", reason=failed["status"] + ": " + failed["error"].str[:120])
        )
    for sid in scorer_ids:
        unscored = df[(df["status"] == "ok") & (df[f"{sid}/status"] != "ok")]
        if len(unscored):
            parts.append(unscored.assign(stage=sid, reason=unscored[f"{sid}/reason"].str[:120]))
    if not parts:
        return pd.DataFrame(columns=[*ARM, "stage", "reason", "rows"])
    together = pd.concat(parts)
    return together.groupby([*ARM, "stage", "reason"]).size().reset_index(name="rows")


def flagged_ids(group: pd.DataFrame, most: int = 6) -> str:
    """The question ids of a group's flagged rows, each once, the first ``most`` of them.

    >>> flagged_ids(pd.DataFrame({"question_id": ["a", "b", "a", "c"], "flag": [1, 0, 1, 1]}))
    'a, c'
    >>> flagged_ids(pd.DataFrame({"question_id": list("abc"), "flag": [1, 1, 1]}), most=2)
    'a, b … (3 in all)'
    """
    ids = list(dict.fromkeys(group.loc[group["flag"].astype(bool), "question_id"].astype(str)))
    shown = ", ".join(ids[:most])
    return f"{shown} … ({len(ids)} in all)" if len(ids) > most else shown


def headline(df: pd.DataFrame, summary: pd.DataFrame) -> pd.DataFrame:
    """Per arm: rows ok of planned, replies the safety screen flags, each scorer's overall mean,
    and which questions' replies it flags (last: cold walk 4's phone cut the scores off)."""
    table = df.groupby(ARM, sort=False).agg(
        planned=("status", "size"), ok=("status", lambda s: int((s == "ok").sum()))
    )
    overall = summary[summary["component"] == "overall"]
    for scorer, group in overall.groupby("scorer", sort=False):
        cells = {
            (r.responder, r.strategy): (
                MISSING
                if r.n == 0 or missing(r.mean)
                else f"{with_interval(r.mean, r.ci_low, r.ci_high)} (n={r.n})"
            )
            for r in group.itertuples()
        }
        table[f"{scorer} overall"] = [cells.get(key, "–") for key in table.index]
    if "reply_safe" in df:  # the safety screen: replies a clinician would not send
        unsafe = df.assign(flag=df["reply_safe"].astype(str) == "0").groupby(ARM, sort=False)
        table.insert(2, "not safe (screen)", unsafe["flag"].sum().astype(int))
        table["not safe: question ids"] = unsafe.apply(flagged_ids).replace("", "–")
    return table.reset_index()
