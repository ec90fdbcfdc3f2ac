"""How far a scorer's overall score sits from people's ratings of the same replies: a band
a visitor can use ("a 2.4 here: people would likely give 1.9–3.0"), from the shipped
calibrations fitted on people-rated sets (never the LLM annotators' labels).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from config import CALIBRATIONS_DIR
from scorers.calibration import list_calibrations

#: The labelled sets rated by people, as a trust note names them: a shipped calibration
#: fitted on one keeps a scorer's values beside people's ratings of the same replies.
PEOPLE_RATED = {"welivita": "Welivita & Pu's ratings", "ratings-here": "ratings made on this site"}
#: The share of a scorer's errors against people that its band holds (the middle 80 %).
BAND_SHARE = 0.8


@dataclass(frozen=True)
class PeopleBand:
    """People − scorer on replies both rated (from ``calibration``): the middle
    :data:`BAND_SHARE` of those errors, their mean and root mean square, and the scorer's
    median value there (a typical score to show the band on), on a ``low``–``high`` scale."""

    people: str
    calibration: str
    n: int
    below: float
    above: float
    mean: float
    rmse: float
    typical: float
    low: float
    high: float

    def around(self, score: float) -> tuple[float, float]:
        """What people would likely give for ``score``: the band, kept on the scale."""
        return max(self.low, score + self.below), min(self.high, score + self.above)


def people_band(scorer_id: str, folders: list[Path] | None = None) -> PeopleBand | None:
    """``scorer_id``'s overall errors against people, from the shipped calibrations fitted on
    people's ratings for its present setting (the most pairs wins); None when there is none.

    >>> band = people_band("bert-head")
    >>> band.people, band.n, [round(x, 1) for x in band.around(1.9)]
    ("Welivita & Pu's ratings", 75, [1.4, 3.0])
    >>> people_band("judge-weighted/local/qwen2.5-coder-1.5b").n  # its own, since 2026-11-27
    75
    >>> people_band("rubric-judge") is None  # no such scorer
    True
    """
    from scorers.registry import get_scorer

    try:
        setting = get_scorer(scorer_id).setting
    except (KeyError, ValueError):
        return None
    fits = [
        c
        for c in list_calibrations(folders or [CALIBRATIONS_DIR])
        if c.setting == setting
        and c.name.rpartition("-")[0] in PEOPLE_RATED
        and "overall" in c.pairs
    ]
    if not fits:
        return None
    fit = max(fits, key=lambda c: len(c.pairs["overall"][0]))
    scorer, people = (np.asarray(v, dtype=float) for v in fit.pairs["overall"])
    errors = people - scorer
    below, above = np.quantile(errors, [(1 - BAND_SHARE) / 2, (1 + BAND_SHARE) / 2])
    return PeopleBand(
        PEOPLE_RATED[fit.name.rpartition("-")[0]],
        fit.name,
        len(errors),
        float(below),
        float(above),
        float(errors.mean()),
        float(np.sqrt(np.mean(errors**2))),
        float(np.median(scorer)),
        float(fit.low),
        float(fit.high),
    )
