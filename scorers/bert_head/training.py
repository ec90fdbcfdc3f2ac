"""Training and checking the BERT empathy head.

The reference study's recipe, on a frozen encoder: an MLP head trained with
AdamW and MSE. Defaults here (100 epochs, lr 5e-4, hidden 512, dropout 0.5,
an ensemble of 3 seeds) are what 5-fold cross-validation preferred over the
study's 50 epochs at lr 2e-4 on these labels (see the README's scorer card).
Outputs are squashed into [1, 3]; a loss mask lets rows miss components.

Checks against human judgements the head never trained on: Spearman of
overall against the Welivita & Pu ratings, of Emotional against EPITOME's
Emotional Reactions and of Cognitive against its Interpretations; rows that
also appear in the training labels are left out of each check. The checks live in
:mod:`scorers.bert_head.checks` and the augmented rows in
:mod:`scorers.bert_head.augmentation`; both are re-exported here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from scorers.agreement import compare
from scorers.base import COMPONENTS, ScoreItem
from scorers.bert_head.augmentation import AUGMENTATIONS, Augmented, augment
from scorers.bert_head.checks import Progress, external_checks
from scorers.bert_head.encoder import Encoder
from scorers.bert_head.head import FeatureRecipe, HeadNet
from scorers.bert_head.labels import data_hash

#: Re-exported: callers read them here (``ht.augment``, ``ht.external_checks``).
__all__ = [
    "AUGMENTATIONS",
    "Augmented",
    "Progress",
    "TrainConfig",
    "augment",
    "build_card",
    "cross_validate",
    "cross_validated_predictions",
    "external_checks",
    "featurize",
    "fold_splits",
    "metrics",
    "predict",
    "train_ensemble",
    "train_net",
]


@dataclass(frozen=True)
class TrainConfig:
    """Hyper-parameters of one head (and of its ensemble)."""

    epochs: int = 100
    lr: float = 5e-4
    hidden: int = 512
    dropout: float = 0.5
    weight_decay: float = 0.01
    batch_size: int = 32
    heads: int = 3
    seed: int = 0


def featurize(encoder: Encoder, recipe: FeatureRecipe, df: pd.DataFrame) -> np.ndarray:
    """Feature rows for a labels frame."""
    items = [
        ScoreItem(str(r), str(m) if isinstance(m, str) else None)
        for r, m in zip(df.reply, df.message, strict=True)
    ]
    return recipe.build(encoder, items)


def train_net(
    x: np.ndarray, y: np.ndarray, config: TrainConfig, seed: int
) -> dict[str, np.ndarray]:
    """Train one head; returns its weights (with the standardiser) as numpy arrays."""
    import torch

    torch.manual_seed(seed)
    mean = x.mean(0)
    scale = x.std(0) + 1e-6
    xt = torch.tensor((x - mean) / scale, dtype=torch.float32)
    yt = torch.tensor(y, dtype=torch.float32)
    mask = ~torch.isnan(yt)
    yt = torch.nan_to_num(yt)
    net = torch.nn.Sequential(
        torch.nn.Dropout(config.dropout),
        torch.nn.Linear(x.shape[1], config.hidden),
        torch.nn.GELU(),
        torch.nn.Dropout(config.dropout),
        torch.nn.Linear(config.hidden, 3),
    )
    opt = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    gen = torch.Generator().manual_seed(seed)
    for _ in range(config.epochs):
        net.train()
        order = torch.randperm(len(xt), generator=gen)
        for start in range(0, len(order), config.batch_size):
            idx = order[start : start + config.batch_size]
            pred = 1 + 2 * torch.sigmoid(net(xt[idx]))
            m = mask[idx]
            loss = (((pred - yt[idx]) ** 2) * m).sum() / m.sum().clamp(min=1)
            opt.zero_grad()
            loss.backward()
            opt.step()
    net.eval()
    return {
        "scaler_mean": mean.astype(np.float32),
        "scaler_scale": scale.astype(np.float32),
        "w1": net[1].weight.detach().numpy(),
        "b1": net[1].bias.detach().numpy(),
        "w2": net[4].weight.detach().numpy(),
        "b2": net[4].bias.detach().numpy(),
    }


def train_ensemble(
    x: np.ndarray, y: np.ndarray, config: TrainConfig
) -> list[dict[str, np.ndarray]]:
    """``config.heads`` heads with consecutive seeds."""
    return [train_net(x, y, config, config.seed + i) for i in range(config.heads)]


def predict(nets: list[dict[str, np.ndarray]], x: np.ndarray) -> np.ndarray:
    """Mean prediction of an ensemble, shape (n, 3)."""
    return np.mean([HeadNet(n)(x) for n in nets], axis=0)


def metrics(pred: np.ndarray, gold: np.ndarray) -> dict[str, dict[str, float]]:
    """MSE, Pearson and Spearman per component and for overall (the mean).

    The numbers come from :func:`scorers.agreement.compare` (no intervals here).

    >>> m = metrics(np.array([[1, 2, 3], [2, 2, 2], [3, 1, 1.]]), np.array([[1, 2, 3], [2, 3, 2], [3, 1, 1.]]))
    >>> m["cognitive"]["mse"], round(m["emotional"]["mse"], 3)
    (0.0, 0.333)
    """
    out: dict[str, dict[str, float]] = {}
    columns = {name: i for i, name in enumerate(COMPONENTS)}
    for name, index in [*columns.items(), ("overall", None)]:
        p = pred.mean(1) if index is None else pred[:, index]
        g = gold.mean(1) if index is None else gold[:, index]
        report = compare(g, p, low=1, high=3, n_boot=0)
        out[name] = {
            "mse": report["mse"],
            "pearson": report["pearson_r"],
            "spearman": report["spearman_rho"],
        }
    return out


def fold_splits(
    n: int, folds: int, seed: int, groups: Sequence[str] | None = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """(train, test) indices: shuffled K-fold, or grouped so no group spans two folds.

    >>> splits = fold_splits(6, 3, 0, groups=list("aabbcc"))
    >>> all(len({"aabbcc"[i] for i in test}) == 1 for _, test in splits)
    True
    """
    from sklearn.model_selection import GroupKFold, KFold

    index = np.arange(n)
    if groups is None:
        return list(KFold(folds, shuffle=True, random_state=seed).split(index))
    return list(GroupKFold(folds, shuffle=True, random_state=seed).split(index, groups=groups))


def cross_validated_predictions(
    x: np.ndarray,
    y: np.ndarray,
    config: TrainConfig,
    folds: int = 5,
    progress: Progress | None = None,
    groups: Sequence[str] | None = None,
) -> np.ndarray:
    """Out-of-fold predictions: each row predicted by an ensemble trained without it.

    With ``groups`` (each reply's message), no group is split between folds.
    """
    pred = np.zeros_like(y)
    for k, (train, test) in enumerate(fold_splits(len(x), folds, config.seed, groups), start=1):
        pred[test] = predict(train_ensemble(x[train], y[train], config), x[test])
        if progress:
            progress(f"fold {k}/{folds} done")
    return pred


def cross_validate(
    x: np.ndarray,
    y: np.ndarray,
    config: TrainConfig,
    folds: int = 5,
    progress: Progress | None = None,
    extra: Augmented | None = None,
    groups: Sequence[str] | None = None,
) -> dict[str, dict[str, float]]:
    """K-fold cross-validated metrics of the whole training recipe.

    With ``extra``, each fold also trains on the variants of its own training
    rows (never of its test rows); only original replies are tested. With
    ``groups`` (each reply's message), a message's replies stay in one fold,
    as they would be held out in use (:mod:`scorers.bert_head.folds`).
    """
    pred = np.zeros_like(y)
    for k, (train, test) in enumerate(fold_splits(len(x), folds, config.seed, groups), start=1):
        xt, yt = x[train], y[train]
        if extra is not None:
            xa, ya = extra.of(train)
            xt, yt = np.vstack([xt, xa]), np.vstack([yt, ya])
        pred[test] = predict(train_ensemble(xt, yt, config), x[test])
        if progress:
            progress(f"fold {k}/{folds} done")
    return metrics(pred, y)


def build_card(
    encoder: Encoder,
    recipe: FeatureRecipe,
    config: TrainConfig,
    df: pd.DataFrame,
    cv: dict[str, Any],
    checks: dict[str, Any] | None,
    encoder_path: str | None,
    recipe_search: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The metadata shipped beside the weights."""
    return {
        "scorer": "bert-head",
        "encoder": encoder.name,
        "encoder_path": encoder_path,
        "encoder_dim": encoder.dim,
        "encoder_quantize": encoder.quantize,
        "encoder_runtime": encoder.runtime,
        "encoder_window_tokens": encoder.window,
        "recipe": asdict(recipe),
        "train_config": asdict(config),
        "heads": config.heads,
        "training_rows": len(df),
        "data_hash": data_hash(df),
        "cv_folds": 5,
        "cv_metrics": cv,
        "recipe_search": recipe_search,
        "external_checks": checks,
        "trained_on": dt.date.today().isoformat(),
    }
