"""Augmented training rows for the BERT empathy head: meaning-keeping rewrites of labelled replies.

Holds :class:`Augmented` (the extra rows with the labelled row each came from),
``AUGMENTATIONS`` (the perturbations used by default) and :func:`augment`, which
encodes one rule-made variant of every labelled reply per perturbation.
:mod:`scorers.bert_head.training` re-exports them and trains on them fold by fold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from scorers.base import COMPONENTS, ScoreItem
from scorers.bert_head.encoder import Encoder
from scorers.bert_head.head import FeatureRecipe


@dataclass(frozen=True)
class Augmented:
    """Extra training rows made from labelled replies: features, labels, source row."""

    x: np.ndarray
    y: np.ndarray
    source: np.ndarray

    def of(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The extra rows whose source is among ``rows``."""
        keep = np.isin(self.source, rows)
        return self.x[keep], self.y[keep]


#: Meaning-keeping rewrites used to augment training replies (never the two controls).
#: Punctuation runs, homoglyphs, leetspeak and invisible characters are undone by the
#: built-in normalisation instead, so they add nothing here.
AUGMENTATIONS = ("shortened", "spelling-errors")


def augment(
    encoder: Encoder,
    recipe: FeatureRecipe,
    df: pd.DataFrame,
    ids: tuple[str, ...] = AUGMENTATIONS,
    seed: int = 10_000,
) -> Augmented:
    """One rule-made variant of every labelled reply per perturbation, with its label."""
    from perturbations.registry import get_perturbation

    y = df[list(COMPONENTS)].to_numpy(dtype=np.float32)
    xs, ys, sources = [], [], []
    for pid in ids:
        perturbation = get_perturbation(pid)
        if not perturbation.keeps_meaning:
            raise ValueError(f"{pid} is a control, not a meaning-keeping perturbation")
        items = [
            ScoreItem(
                perturbation(str(r), seed=seed + i).text or str(r),
                str(m) if isinstance(m, str) else None,
            )
            for i, (r, m) in enumerate(zip(df.reply, df.message, strict=True))
        ]
        xs.append(recipe.build(encoder, items))
        ys.append(y)
        sources.append(np.arange(len(df)))
    return Augmented(np.vstack(xs), np.vstack(ys), np.concatenate(sources))
