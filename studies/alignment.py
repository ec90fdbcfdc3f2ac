"""The alignment report: how a scorer's values agree with people's, per component and overall.

:func:`run_alignment` scores a :class:`~studies.labelled.LabelledSet` (through
the score cache, so a re-run is free), then compares every name the set has
human ratings for with :func:`scorers.agreement.compare`. Rows the scorer
could not score are left out and counted, with their reasons.
:func:`calibration_study` fits a calibration on one part of the rows and
reports before and after on the other part, which the calibration never saw.

>>> from scorers.base import Score, Scorer
>>> class High(Scorer):
...     id = "high"
...     def _score_batch(self, items):
...         return [Score.from_components(self.id, 3, 3, 3) for _ in items]
>>> from studies.labelled import from_rows
>>> rows = [{"reply": f"reply {i}", "r": str(1 + i % 3)} for i in range(9)]
>>> report = run_alignment(from_rows(rows, {"overall": "r"}, scale=(1, 3)), High(), n_boot=0, cache=None)
>>> report["components"]["overall"]["n"], report["components"]["overall"]["bias_sq"]
(9, 1.0)
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from config import SCORE_CACHE_DIR
from core.progress import Progress, silent
from scorers.agreement import compare
from scorers.base import Score, Scorer
from scorers.calibration import Calibration, fit_calibration
from studies.labelled import LabelledSet
from studies.score_cache import score_cached

#: The most bootstrap resamples one report draws (the Trust page's box, the CLI's --boot).
MAX_BOOT = 1000


def checked_resamples(n: object) -> int:
    """``n`` as a count of bootstrap resamples from 0 to :data:`MAX_BOOT`; ValueError if not.

    >>> checked_resamples(200.0), checked_resamples(0)
    (200, 0)
    >>> checked_resamples(10**9)
    Traceback (most recent call last):
    ValueError: bootstrap resamples must be a whole number from 0 to 1,000 (got 1000000000)
    """
    try:
        count = int(n)  # type: ignore[call-overload]
        whole = count == n
    except (TypeError, ValueError, OverflowError):
        whole = False
    if not whole or not 0 <= count <= MAX_BOOT:
        raise ValueError(
            f"bootstrap resamples must be a whole number from 0 to {MAX_BOOT:,} (got {n})"
        )
    return count


def score_values(scores: list[Score], names: list[str]) -> dict[str, np.ndarray]:
    """Each name's values across ``scores`` (NaN where unscored)."""
    return {
        n: np.array([s.value(n) if s.ok and s.value(n) is not None else np.nan for s in scores])
        for n in names
    }


def compare_all(
    data: LabelledSet,
    values: dict[str, np.ndarray],
    rows: np.ndarray | None = None,
    *,
    n_boot: int = 1000,
    seed: int = 0,
) -> dict[str, dict[str, Any]]:
    """:func:`compare` for every name with human ratings (on ``rows`` only when given)."""
    n_boot = checked_resamples(n_boot)
    pick = slice(None) if rows is None else rows
    return {
        name: compare(
            human[pick], values[name][pick], low=data.low, high=data.high, seed=seed, n_boot=n_boot
        )
        for name, human in data.human.items()
        if name in values
    }


def run_alignment(
    data: LabelledSet,
    scorer: Scorer,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    cache: Path | None = SCORE_CACHE_DIR,
    progress: Progress = silent,
    cached_only: bool = False,
) -> dict[str, Any]:
    """Score ``data`` with ``scorer`` and compare with the human ratings.

    ``cached_only``: use only scores already in the cache (a run still going).

    Returns ``{"scorer", "data", "note", "n_rows", "n_scored", "unscored"
    (reason → count), "components" (name → compare() result), "rows",
    "values" (name → scorer values)}``. Resamples past :data:`MAX_BOOT` are
    refused before anything is scored.
    """
    n_boot = checked_resamples(n_boot)
    scores = score_cached(scorer, data.items, cache, progress, cached_only=cached_only)
    values = score_values(scores, list(data.human))
    progress(len(scores), len(scores), "computing the statistics")
    report = report_from_values(data, scorer.id, scorer.setting, values, n_boot=n_boot, seed=seed)
    report["n_scored"] = sum(s.ok for s in scores)
    report["unscored"] = dict(Counter(s.reason or "unknown" for s in scores if not s.ok))
    report["prompt_version"] = next((s.prompt_version for s in scores if s.prompt_version), None)
    return report


def report_from_values(
    data: LabelledSet,
    scorer_id: str,
    setting: str,
    values: dict[str, np.ndarray],
    *,
    n_boot: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """The alignment report for values already at hand (NaN = unscored)."""
    names = list(data.human)
    ok = ~np.any([np.isnan(values[n]) for n in names if n in values], axis=0)
    rows = []
    for i, item in enumerate(data.items):
        row: dict[str, Any] = {k: v[i] for k, v in data.extra.items()}
        row.update(
            message=item.message or "", reply=item.reply, status="ok" if ok[i] else "unscored"
        )
        for name in names:
            row[f"human_{name}"] = (
                None if np.isnan(data.human[name][i]) else float(data.human[name][i])
            )
            row[f"scorer_{name}"] = None if np.isnan(values[name][i]) else float(values[name][i])
        rows.append(row)
    return {
        "scorer": scorer_id,
        "setting": setting,
        "data": data.name,
        "note": data.note,
        "low": data.low,
        "high": data.high,
        "n_rows": len(data),
        "n_scored": int(ok.sum()),
        "unscored": {},
        "components": compare_all(data, values, n_boot=n_boot, seed=seed),
        "rows": rows,
        "values": values,
        "prompt_version": None,
    }


def split_rows(n: int, test_share: float = 0.5, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Seeded (fit rows, test rows) index arrays.

    >>> fit, test = split_rows(10, 0.3, seed=1)
    >>> len(fit), len(test), sorted([*fit, *test]) == list(range(10))
    (7, 3, True)
    """
    from sklearn.model_selection import train_test_split

    return train_test_split(np.arange(n), test_size=test_share, random_state=seed)


def calibration_study(
    data: LabelledSet,
    report: dict[str, Any],
    *,
    test_share: float = 0.5,
    seed: int = 0,
    n_boot: int = 1000,
    label: str | None = None,
) -> dict[str, Any]:
    """Fit a calibration on some rows of an alignment ``report``; before/after on the rest.

    Returns ``{"calibration": Calibration, "fit_rows", "test_rows", "before", "after"}``,
    where before/after are compare() results per name on the test rows only.
    """
    values = report["values"]
    fit, test = split_rows(len(data), test_share, seed)
    calibration = calibration_for(data, report, label=label, seed=seed, rows=fit)
    calibrated = apply_to_values(calibration, values, data)
    return {
        "calibration": calibration,
        "fit_rows": fit,
        "test_rows": test,
        "before": compare_all(data, values, test, n_boot=n_boot, seed=seed),
        "after": compare_all(data, calibrated, test, n_boot=n_boot, seed=seed),
    }


def apply_to_values(
    calibration: Calibration, values: dict[str, np.ndarray], data: LabelledSet
) -> dict[str, np.ndarray]:
    """Calibrated copies of per-name value arrays, as :class:`CalibratedScorer` gives them.

    When the components are mapped, overall is recomputed from them (the rubric's mean).
    """
    from scorers.rubric import load_rubric

    out = {k: calibration.map(k, v) for k, v in values.items()}
    rubric = load_rubric(data.rubric_id)
    if "overall" in out and all(c in calibration.methods for c in rubric.components):
        out["overall"] = np.array(
            [
                rubric.overall_of({c: out[c][i] for c in rubric.components})
                for i in range(len(out["overall"]))
            ]
        )
    return out


def calibration_for(
    data: LabelledSet,
    report: dict[str, Any],
    label: str | None = None,
    seed: int = 0,
    rows: np.ndarray | None = None,
) -> Calibration:
    """A calibration fitted on ``rows`` of ``report`` (default: every scored row)."""
    pick = slice(None) if rows is None else rows
    return fit_calibration(
        {k: v[pick] for k, v in report["values"].items()},
        {k: v[pick] for k, v in data.human.items()},
        scorer_id=report["scorer"],
        setting=report["setting"],
        low=data.low,
        high=data.high,
        label=label or data.name,
        prompt_version=report.get("prompt_version"),
        seed=seed,
    )


def head_cross_validated(
    data: LabelledSet, folds: int = 5, progress: Progress = silent
) -> dict[str, np.ndarray]:
    """The BERT head's recipe, scored out of fold on ``data`` (its own training labels).

    Each reply is scored by heads trained (with the shipped head's card
    settings) on the other folds only, so the numbers are held-out ones; the
    replies to one message share a fold, as they would be held out in use.
    """
    from scorers.bert_head import training as ht
    from scorers.bert_head.head import load_head
    from scorers.rubric import load_rubric

    head = load_head()
    config = ht.TrainConfig(**head.card["train_config"])
    comps = list(load_rubric(data.rubric_id).components)
    if not all(c in data.human for c in comps):
        raise ValueError("cross-validated head scores need every component rated")
    progress(0, folds + 1, "encoding the replies")
    x = head.recipe.build(head.encoder, data.items)
    y = np.stack([data.human[c] for c in comps], axis=1).astype(np.float32)
    done = iter(range(1, folds + 1))
    pred = ht.cross_validated_predictions(
        x,
        y,
        config,
        folds,
        progress=lambda what: progress(next(done), folds + 1, what),
        groups=[i.message or i.reply for i in data.items],  # a message's replies in one fold
    )
    values = {c: pred[:, i] for i, c in enumerate(comps)}
    values["overall"] = pred.mean(1)
    progress(folds + 1, folds + 1, "done")
    return values
