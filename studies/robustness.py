"""The robustness study: perturb replies and measure how each scorer's scores move.

:func:`perturb_items` makes the variants; :func:`score_changes` scores the
originals and the variants (batched per scorer) and returns one
:class:`Change` per reply × perturbation × scorer; :func:`summarise` turns
those into the report: per perturbation × scorer × component, the mean
change, the mean absolute change, and the share of replies whose overall
score moved by more than 0.25. :func:`run_robustness` is the whole study
(the Adversarial page and ``cli.py robustness`` both call it), and
:func:`perturb_one` the lab's view of a single reply.

>>> from scorers.base import Score
>>> c = Change(0, "leetspeak", "s", Score.from_components("s", 2, 2, 2), Score.from_components("s", 1, 2, 2))
>>> round(c.delta("overall"), 3)
-0.333
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from core.conversation import Turn
from core.progress import Progress, silent
from core.tables import write_table
from perturbations.base import Perturbation, Variant
from responders.base import Responder
from responders.registry import get_responder
from scorers.base import Score, ScoreItem, Scorer

MOVED = 0.25  # an overall change larger than this counts as "moved"


def find_rewriter(responder_id: str | None) -> tuple[Responder | None, str | None]:
    """(responder to rewrite with or None, why not) for an id; None or 'none' means rules.

    >>> find_rewriter("none")
    (None, None)
    """
    if not responder_id or responder_id == "none":
        return None, None
    responder = get_responder(responder_id)
    reason = responder.unavailable_reason()
    return (None, reason) if reason else (responder, None)


@dataclass(frozen=True)
class Change:
    """One scorer's scores of one reply before and after one perturbation."""

    item: int
    perturbation_id: str
    scorer_id: str
    before: Score
    after: Score
    #: How the variant was made ("rule (…)", "llm:<id>", "" for rules without a choice).
    method: str = ""

    @property
    def ok(self) -> bool:
        """True when both scores exist."""
        return self.before.ok and self.after.ok

    def delta(self, component: str) -> float:
        """after − before for ``component`` (or overall)."""
        return float(getattr(self.after, component)) - float(getattr(self.before, component))


def perturb_items(
    items: Sequence[ScoreItem],
    perturbations: Sequence[Perturbation],
    *,
    seed: int = 0,
    rewriter: Responder | None = None,
    progress: Progress = silent,
) -> list[list[Variant]]:
    """``variants[i][j]``: perturbation ``j`` of reply ``i`` (seeded per reply)."""
    variants = []
    for index, item in enumerate(items):
        variants.append(
            [
                p(item.reply, seed=seed + index, rewriter=rewriter, message=item.message)
                for p in perturbations
            ]
        )
        progress(index + 1, len(items), f"perturbed {index + 1}/{len(items)} replies")
    return variants


def score_changes(
    items: Sequence[ScoreItem],
    variants: Sequence[Sequence[Variant]],
    scorers: Sequence[Scorer],
    progress: Progress = silent,
) -> list[Change]:
    """Score originals and variants with every scorer; one change per pair."""
    changes: list[Change] = []
    for number, scorer in enumerate(scorers):
        texts = [*items]
        for item, row in zip(items, variants, strict=True):
            texts += [  # a variant keeps the conversation before the reply as it is
                replace(
                    item, reply=v.text, message=item.message if v.message is None else v.message
                )
                for v in row
            ]
        progress(number, len(scorers), f"{scorer.label}: scoring {len(texts)} texts")
        scores = scorer.score_many(texts)
        originals, rest = scores[: len(items)], scores[len(items) :]
        width = len(variants[0]) if variants else 0
        for i, row in enumerate(variants):
            for j, variant in enumerate(row):
                after = rest[i * width + j]
                changes.append(
                    Change(
                        i, variant.perturbation_id, scorer.id, originals[i], after, variant.method
                    )
                )
    return changes


def summarise(changes: Sequence[Change]) -> list[dict[str, object]]:
    """Report rows: perturbation, scorer, component, mean/abs change, share moved, n."""
    groups: dict[tuple[str, str], list[Change]] = {}
    for change in changes:
        groups.setdefault((change.perturbation_id, change.scorer_id), []).append(change)
    rows: list[dict[str, object]] = []
    for (perturbation_id, scorer_id), group in groups.items():
        usable = [c for c in group if c.ok]
        for component in group[0].before.rubric.names:
            deltas = np.array([c.delta(component) for c in usable]) if usable else np.array([])
            moved = (
                float(np.mean(np.abs([c.delta("overall") for c in usable]) > MOVED))
                if usable
                else float("nan")
            )
            rows.append(
                {
                    "perturbation": perturbation_id,
                    "scorer": scorer_id,
                    "component": component,
                    "mean_change": float(deltas.mean()) if usable else float("nan"),
                    "mean_abs_change": float(np.abs(deltas).mean()) if usable else float("nan"),
                    "share_overall_moved": moved,
                    "n": len(usable),
                    "unscored": len(group) - len(usable),
                    "expected": _expectation(perturbation_id, [c.method for c in group]),
                }
            )
    return rows


def write_report(rows: Sequence[dict[str, object]], path: str | Path) -> None:
    """Write :func:`summarise` rows as a formula-safe UTF-8 CSV file."""
    write_table(path, rows, list(rows[0]) if rows else ["perturbation"])


def _expectation(perturbation_id: str, methods: Sequence[str] = ()) -> str:
    """What a good scorer does; a rewrite made by its rule says what the rule loses.

    >>> _expectation("shortened", ["rule (no LLM rewriter)"])
    'fall allowed: the rule drops half the middle sentences (content goes, not only words)'
    >>> _expectation("shortened", ["llm:local/x"]), _expectation("strip-empathy")
    ('hold', 'fall')
    """
    from perturbations.registry import PERTURBATIONS

    member = PERTURBATIONS.get(perturbation_id)
    if member is None:
        return ""
    rule_note = getattr(member, "rule_expectation", None)
    if rule_note and any(m.startswith("rule") for m in methods):
        return rule_note
    return member.expectation


def run_robustness(
    items: Sequence[ScoreItem],
    perturbations: Sequence[Perturbation],
    scorers: Sequence[Scorer],
    *,
    seed: int = 0,
    rewriter: Responder | None = None,
    progress: Progress = silent,
) -> list[dict[str, object]]:
    """The whole study: perturb every item, score everything, summarise (report rows)."""
    variants = perturb_items(items, perturbations, seed=seed, rewriter=rewriter, progress=progress)
    return summarise(score_changes(items, variants, scorers, progress=progress))


@dataclass(frozen=True)
class VariantScores:
    """One perturbation of one reply, with every scorer's before and after."""

    variant: Variant
    changes: dict[str, Change]  # scorer id -> change

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready view (for precomputed examples)."""
        return {
            "variant": self.variant.to_dict(),
            "changes": {
                sid: {"before": c.before.to_dict(), "after": c.after.to_dict()}
                for sid, c in self.changes.items()
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> VariantScores:
        """Undo :meth:`to_dict`."""
        variant = Variant(**data["variant"])
        changes = {
            sid: Change(
                0,
                variant.perturbation_id,
                sid,
                Score.from_dict(c["before"]),
                Score.from_dict(c["after"]),
            )
            for sid, c in data["changes"].items()
        }
        return cls(variant, changes)


def perturb_one(
    reply: str,
    message: str | None,
    perturbations: Sequence[Perturbation],
    scorers: Sequence[Scorer],
    *,
    seed: int = 0,
    rewriter: Responder | None = None,
    progress: Progress = silent,
    history: tuple[Turn, ...] = (),
) -> tuple[dict[str, Score], list[VariantScores]]:
    """Perturb one reply every way and score it all: (original scores, rows). With
    ``history`` the reply is the next turn of that conversation, which stays as it is."""
    item = ScoreItem(reply, message, history)
    variants = perturb_items([item], perturbations, seed=seed, rewriter=rewriter)
    changes = score_changes([item], variants, scorers, progress=progress)
    originals = {c.scorer_id: c.before for c in changes}
    rows = [
        VariantScores(
            v, {c.scorer_id: c for c in changes if c.perturbation_id == v.perturbation_id}
        )
        for v in variants[0]
    ]
    return originals, rows


def same_everywhere(originals: dict[str, Score], rows: Sequence[VariantScores]) -> dict[str, float]:
    """The scorers that gave the original and every scored variant the same overall score,
    with that score: their changes are all zero whatever the perturbation did, so they
    cannot show a movement (a judge at the top of its scale, or one that ignores the text).

    >>> from perturbations.registry import get_perturbation
    >>> top = Score.from_components("j", 3, 3, 3)
    >>> v = get_perturbation("leetspeak")("I hear you.", seed=0)
    >>> same_everywhere({"j": top}, [VariantScores(v, {"j": Change(0, "leetspeak", "j", top, top)})])
    {'j': 3.0}
    """
    same = {}
    for sid, original in originals.items():
        changes = [row.changes[sid] for row in rows if sid in row.changes]
        scored = [c for c in changes if c.ok]
        if original.ok and scored and all(abs(c.delta("overall")) < 1e-9 for c in scored):
            same[sid] = float(original.overall)
    return same
