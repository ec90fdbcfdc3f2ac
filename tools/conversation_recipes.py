"""The models cross-validation compares for reading a conversation's next turn (issue 32).

Holds the ridge alphas and tree leaf sizes tried (``ALPHAS``, ``LEAVES``), :func:`fit`
(a ridge per component) and :func:`fit_trees` (extra trees) on the head's scores and the
turn measures, :class:`Recipe` (one model with or without the measures) and ``RECIPES``
(every one compared). ``tools/conversation_train.py`` imports them from here.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from scorers.bert_head.context import AnyContextModel, ContextModel, TreeContextModel

ALPHAS = (1.0, 10.0, 100.0)
#: The tree ensembles tried beside the ridges (extra trees, 100 of them): the fewest
#: replies a leaf may hold (2026-11-27: trees beat every ridge in grouped CV).
LEAVES = (3, 5, 10)


def fit(head: np.ndarray, found: np.ndarray, y: np.ndarray, alpha: float) -> ContextModel:
    """A ridge model per component on standardised (head scores, measures)."""
    from sklearn.linear_model import Ridge

    x = np.hstack([head, found])
    mean, scale = x.mean(0), x.std(0) + 1e-9
    ridge = Ridge(alpha=alpha).fit((x - mean) / scale, y)
    digest = hashlib.sha256(np.ascontiguousarray(ridge.coef_).tobytes()).hexdigest()[:8]
    return ContextModel(
        mean, scale, ridge.coef_, ridge.intercept_, f"head-context-a{alpha:g}-{digest}"
    )


def fit_trees(head: np.ndarray, found: np.ndarray, y: np.ndarray, leaf: int) -> TreeContextModel:
    """100 extra trees on (head scores, measures), three outputs, leaves of ``leaf`` or more."""
    from sklearn.ensemble import ExtraTreesRegressor

    trees = ExtraTreesRegressor(100, min_samples_leaf=leaf, random_state=0, n_jobs=1)
    x = np.hstack([head, found])
    trees.fit(x, y)
    digest = hashlib.sha256(np.ascontiguousarray(np.hstack([x, y])).tobytes()).hexdigest()[:8]
    return TreeContextModel(trees, f"head-context-trees{leaf}-{digest}")


@dataclass(frozen=True)
class Recipe:
    """One model cross-validation compares: a ridge (``value`` its alpha) or extra trees
    (``value`` the fewest replies a leaf may hold), with or without the turn measures."""

    kind: str  # "ridge" or "trees"
    value: float
    measures: bool

    @property
    def name(self) -> str:
        """How the figures and the card name it.

        >>> Recipe("trees", 3, True).name
        'extra trees on head scores + turn measures (leaf 3)'
        """
        reads = "head scores + turn measures" if self.measures else "head scores"
        if self.kind == "trees":
            return f"extra trees on {reads} (leaf {self.value:g})"
        return f"ridge on {reads} (alpha {self.value:g})"

    def columns(self, found: np.ndarray) -> np.ndarray:
        """The measures this recipe reads (none when it reads the head's scores alone)."""
        return found if self.measures else found[:, :0]

    def fit(self, head: np.ndarray, found: np.ndarray, y: np.ndarray) -> AnyContextModel:
        """The fitted model on the head's scores and the measures it reads."""
        if self.kind == "trees":
            return fit_trees(head, self.columns(found), y, int(self.value))
        return fit(head, self.columns(found), y, self.value)


#: Every recipe cross-validation compares (the chosen one ships).
RECIPES = (
    *(Recipe("ridge", a, False) for a in ALPHAS),
    *(Recipe("ridge", a, True) for a in ALPHAS),
    *(Recipe("trees", k, True) for k in LEAVES),
)
