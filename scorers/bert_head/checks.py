"""Checking the BERT empathy head against human judgements it never trained on.

Spearman of overall against the Welivita & Pu ratings, of Emotional against
EPITOME's Emotional Reactions and of Cognitive against its Interpretations;
rows that also appear in the training labels are left out of each check.
Holds :func:`external_checks` and the ``Progress`` callback type it shares with
:mod:`scorers.bert_head.training` (which re-exports both).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from core import datasets
from scorers.base import ScoreItem
from scorers.bert_head.head import BertHead

Progress = Callable[[str], None]


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    # Across scales (the head's 1–3 against 0–2 levels): only the ranks compare.
    return float(spearmanr(a, b).statistic)


def external_checks(
    head: BertHead, labels: pd.DataFrame, progress: Progress | None = None
) -> dict[str, dict[str, float]]:
    """Agreement with human ratings the head never trained on."""
    checks: dict[str, dict[str, float]] = {}
    seen = set(labels.get("source_id", pd.Series(dtype=str)).astype(str))

    wel = datasets.welivita_long()
    wel = wel[~wel.dialog_id.astype(str).isin(seen)]
    items = [
        ScoreItem(r, m if isinstance(m, str) else None)
        for r, m in zip(wel.reply, wel.message, strict=True)
    ]
    ratings = wel.rating.to_numpy(dtype=float)
    if progress:
        progress(f"scoring {len(items)} Welivita replies")
    overall = np.array([s.overall if s.ok else np.nan for s in head.score_many(items)])
    ok = ~np.isnan(overall)
    checks["welivita_overall_vs_rating"] = {
        "spearman": _spearman(overall[ok], ratings[ok]),
        "n": int(ok.sum()),
    }

    both = datasets.epitome_pairs()
    both = both[~both.id.isin(seen)]
    if progress:
        progress(f"scoring {len(both)} EPITOME replies")
    scores = head.score_many(
        [ScoreItem(r, m) for r, m in zip(both.reply, both.message, strict=True)]
    )
    emo = np.array([s.emotional if s.ok else np.nan for s in scores])
    cog = np.array([s.cognitive if s.ok else np.nan for s in scores])
    ok = ~np.isnan(emo)
    checks["epitome_emotional_vs_emotional_reactions"] = {
        "spearman": _spearman(emo[ok], both.level_er.to_numpy()[ok]),
        "n": int(ok.sum()),
    }
    checks["epitome_cognitive_vs_interpretations"] = {
        "spearman": _spearman(cog[ok], both.level_ip.to_numpy()[ok]),
        "n": int(ok.sum()),
    }
    return checks
