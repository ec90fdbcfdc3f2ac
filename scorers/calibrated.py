"""A scorer whose values pass through a calibration: ``<scorer id>+calibrated:<name>``.

The calibration must have been fitted for this very scorer and setting
(a judge's prompt version, samples, temperature, persona; the head's
training data); otherwise building the wrapper fails with a message that
says which scorer the calibration belongs to. When the calibration maps the
components, overall is recomputed from them as the rubric says; when it
maps only overall, the components are left as the scorer gave them.
"""

from __future__ import annotations

from dataclasses import replace

from scorers.base import Score, ScoreItem, Scorer
from scorers.calibration import Calibration, CalibrationError


class CalibratedScorer(Scorer):
    """``inner`` with ``calibration`` applied to each ok score."""

    def __init__(self, inner: Scorer, calibration: Calibration) -> None:

        setting = inner.setting
        if calibration.scorer_id != inner.id or calibration.setting != setting:
            raise CalibrationError(
                f"calibration {calibration.name!r} was fitted for {calibration.scorer_id} "
                f"({calibration.setting}); it does not apply to {inner.id} ({setting}): "
                "fit one for this scorer with cli.py calibrate"
            )
        self.inner = inner
        self.calibration = calibration
        self.id = f"{inner.id}+calibrated:{calibration.name}"
        self.label = f"{inner.label}, calibrated ({calibration.name})"
        self.rubric_id = inner.rubric_id  # type: ignore[misc]

    def unavailable_reason(self) -> str | None:
        return self.inner.unavailable_reason()

    def calibrate(self, score: Score) -> Score:
        """One of the inner scorer's scores, calibrated (unscored ones pass through)."""
        if not score.ok or score.values is None:
            return score.with_id(self.id)
        mapped = self.calibration.apply(score.values)
        rubric = score.rubric
        if any(c in self.calibration.methods for c in rubric.components):
            comps = {c: mapped[c] for c in rubric.components}
            return replace(
                Score.from_values(self.id, comps, score.rubric_id),
                spread=score.spread,
                rationale=score.rationale,
                raw=score.raw,
                prompt_version=score.prompt_version,
                note=f"calibrated with {self.calibration.name}",
            )
        return replace(
            score,
            scorer_id=self.id,
            values=mapped,
            note=f"overall calibrated with {self.calibration.name}",
        )

    def _score_batch(self, items: list[ScoreItem]) -> list[Score]:
        return [self.calibrate(s) for s in self.inner.score_many(items)]
