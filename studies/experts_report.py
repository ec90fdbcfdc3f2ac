"""The experts study as one report: each scorer's readings against the experts, the
conversation model against reading each turn alone, and the ship rule's answer.

The report is plain data (JSON-ready); ``cli.py experts`` prints it and can save it as
the card the app reads (``assets/cards/conversations-experts.json``). The ship rule: the
head reads a turn with its conversation model only when, on these real conversations, the
model's correlation with the experts beats reading each turn alone with the whole 95 %
paired interval of the gain above zero (:func:`scorers.bert_head.context.model_ships`).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import asdict

from scorers.base import Scorer
from studies.experts import (
    BEHAVIOURS,
    READINGS,
    RatedConversation,
    difference,
    references,
    scorer_agreements,
    scorer_means,
    truth,
)

#: The head's two readings, as the report names them.
MODEL, ALONE = "bert-head with the conversation model", "bert-head, each turn alone"
WHO = "three experts (Lend an Ear, Kumar et al. 2025), their mean; real conversations"


def head_rows(
    with_model: Scorer,
    alone: Scorer,
    rated: Sequence[RatedConversation],
    *,
    resamples: int = 2000,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict:
    """The head read with its conversation model and each turn alone, and the gain."""
    model = scorer_means(with_model, rated, READINGS[0], _named(progress, MODEL))
    plain = scorer_means(alone, rated, READINGS[1], _named(progress, ALONE))
    gain = difference(model, plain, truth(rated), resamples=resamples)
    return {
        "rows": {
            MODEL: _row(scorer_agreements(model, rated, resamples=resamples)),
            ALONE: _row(scorer_agreements(plain, rated, resamples=resamples)),
        },
        "model_gain": asdict(gain),
        "model_ships": gain.low > 0,
    }


def judge_rows(
    name: str,
    judge: Scorer,
    rated: Sequence[RatedConversation],
    *,
    last_only: bool,
    resamples: int = 2000,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict:
    """A judge's two readings (``last_only``: each conversation's last supporter turn)."""
    rows = {}
    for reading in READINGS:
        label = f"{name}, {reading}"
        means = scorer_means(judge, rated, reading, _named(progress, label), last_only=last_only)
        rows[label] = _row(scorer_agreements(means, rated, resamples=resamples))
    return {"rows": rows}


def report(
    rated: Sequence[RatedConversation], parts: list[dict], *, source: str, resamples: int
) -> dict:
    """The whole report: who rated, the references, every scorer's rows."""
    rows: dict = {}
    extra: dict = {}
    for part in parts:
        rows.update(part["rows"])
        extra.update({k: v for k, v in part.items() if k != "rows"})
    refs = references(rated, resamples=resamples)
    return {
        "what": "Spearman with the experts' mean over conversations (95 % bootstrap interval)",
        "who_rated": WHO,
        "source": source,
        "conversations": len(rated),
        "composite": "validating + elaborating + understanding - self-oriented - dismissing",
        "date": datetime.date.today().isoformat(),
        "references": {k: asdict(v) for k, v in refs.items()},
        "rows": rows,
        **extra,
    }


def lines(data: dict) -> list[str]:
    """The report as lines for a terminal: the composite first, then each behaviour."""
    out = [f"{data['what']}; rated by {data['who_rated']}; n = {data['conversations']}", ""]
    for name, row in data["rows"].items():
        out.append(f"  {name:48s} {_text(row['composite'])}")
    for name, ref in data["references"].items():
        out.append(f"  {name:48s} {_text(ref)}")
    if "model_gain" in data:
        gain = data["model_gain"]
        verdict = (
            "ships" if data["model_ships"] else "does not ship (the default reads turns alone)"
        )
        out += ["", f"  conversation model minus turns alone: {_text(gain)}: {verdict}"]
    out += ["", "  per behaviour (the experts' mean of each):"]
    for name, row in data["rows"].items():
        parts = [f"{b.split('_')[0]} {row[b]['rho']:.2f}" for b in BEHAVIOURS]
        out.append(f"  {name:48s} " + ", ".join(parts))
    return out


def _row(agreements: dict) -> dict:
    return {k: asdict(v) for k, v in agreements.items()}


def _text(a: dict) -> str:
    return f"{a['rho']:+.2f} ({a['low']:+.2f} to {a['high']:+.2f})"


def _named(
    progress: Callable[[str, int, int], None] | None, name: str
) -> Callable[[int, int], None] | None:
    return None if progress is None else lambda done, total: progress(name, done, total)
