"""Cross-validation that mimics held-out use: folds never split a message's replies.

Plain K-fold over the 1,024 rubric labels puts replies to the same message
on both sides of a fold, and rewards a head that recognises the message
(issue 20: it over-rewarded the message-aware head). Two views here:

- ``message``: 5 folds grouped by message (every reply to one message is in
  one fold), balanced by source family (:class:`StratifiedGroupKFold`);
- ``source``: leave one source family out (counselchat, epitome, welivita,
  styled: the Welivita and styled sub-sources each count as one family), so
  a whole kind of reply is unseen in training;
- ``kfold``: plain shuffled K-fold, the old view, for comparison.

Predictions are out of fold only; :func:`out_of_fold` takes any fitter.

>>> source_family("styled:cold-dismissive"), source_family("counselchat")
('styled', 'counselchat')
>>> import pandas as pd
>>> df = pd.DataFrame({"message": list("aabbccddee"), "source": ["epitome"] * 10})
>>> all(len(set(df.message[t]) & set(df.message[s])) == 0 for s, t in splits(df, "message"))
True
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

Split = tuple[np.ndarray, np.ndarray]
#: Trains on (x, y) and returns a predictor of (n, 3) scores.
Fitter = Callable[[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]]
VIEWS = ("message", "source", "kfold")


def source_family(source: str) -> str:
    """The family a source belongs to (the part before ``:``)."""
    return str(source).split(":", 1)[0]


def message_groups(df: pd.DataFrame) -> np.ndarray:
    """One integer per row; rows with the same message (trimmed, case-folded) share it."""
    keys = df["message"].fillna("").astype(str).str.strip().str.casefold()
    return pd.factorize(keys)[0]


def splits(df: pd.DataFrame, view: str = "message", folds: int = 5, seed: int = 0) -> list[Split]:
    """(train, test) row indices for one cross-validation view (see the module doc)."""
    from sklearn.model_selection import KFold, LeaveOneGroupOut, StratifiedGroupKFold

    index = np.arange(len(df))
    if view == "message":
        family = pd.factorize(df["source"].map(source_family))[0]
        cv = StratifiedGroupKFold(folds, shuffle=True, random_state=seed)
        return list(cv.split(index, family, message_groups(df)))
    if view == "source":
        family = df["source"].map(source_family).to_numpy()
        return list(LeaveOneGroupOut().split(index, groups=family))
    if view == "kfold":
        return list(KFold(folds, shuffle=True, random_state=seed).split(index))
    raise ValueError(f"unknown view {view!r}; known: {', '.join(VIEWS)}")


def out_of_fold(
    x: np.ndarray,
    y: np.ndarray,
    fit: Fitter,
    folds: list[Split],
    extra: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Each row predicted by a model trained on the other folds only.

    ``extra`` = (features, labels, source row) of training-only variants:
    a fold trains on the variants of its own training rows, never its test rows.

    >>> x = np.arange(8.0)[:, None]; y = np.repeat(x, 3, axis=1)
    >>> mean = lambda xt, yt: (lambda xs: np.full((len(xs), 3), yt.mean()))
    >>> out_of_fold(x, y, mean, [(np.arange(4), np.arange(4, 8)), (np.arange(4, 8), np.arange(4))])[:, 0].tolist()
    [5.5, 5.5, 5.5, 5.5, 1.5, 1.5, 1.5, 1.5]
    """
    pred = np.full(y.shape, np.nan, dtype=np.float64)
    for train, test in folds:
        xt, yt = x[train], y[train]
        if extra is not None:
            keep = np.isin(extra[2], train)
            xt, yt = np.vstack([xt, extra[0][keep]]), np.vstack([yt, extra[1][keep]])
        pred[test] = fit(xt, yt)(x[test])
    return pred


def per_source(
    pred: np.ndarray, y: np.ndarray, sources: pd.Series
) -> dict[str, dict[str, dict[str, float]]]:
    """Metrics of out-of-fold ``pred`` within each source family."""
    from scorers.bert_head.training import metrics

    families = sources.map(source_family).to_numpy()
    return {f: metrics(pred[families == f], y[families == f]) for f in sorted(set(families))}
