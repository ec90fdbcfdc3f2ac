"""Pairwise judging over several responders: position and length bias, and a ranking.

:func:`run_pairwise` asks each responder for a reply to each message, then
has a :class:`~scorers.judge.pairwise.PairwiseJudge` compare every pair of
replies in both orders. :func:`bias_summary` reports, per component and
overall:

- ``flip_rate``: share of pairs (both orders read) whose two verdicts
  disagree (the final verdict is "inconsistent"); a tie in one order and a
  winner in the other counts as a flip;
- ``first_wins``: of the single-order answers naming a winner, the share
  naming the reply shown first (0.5 = no position bias);
- ``longer_wins``: of the same answers (pairs of equal length left out), the
  share naming the longer reply (by characters);
- counts of the final verdicts.

:func:`rank_pairs` fits a Bradley–Terry model (``choix.ilsr_pairwise``) to
(winner, loser) comparisons with percentile bootstrap intervals
(``scipy.stats.bootstrap``, resampling comparisons); it is generic: any
items, any source of comparisons.

>>> table = rank_pairs([("x", "y"), ("x", "y"), ("y", "x"), ("x", "z"), ("y", "z")], ["x", "y", "z"], n_boot=50)
>>> [row["item"] for row in table], table[0]["wins"]
(['x', 'y', 'z'], 3)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.progress import Progress, silent
from scorers.judge.pairwise import NAMES, PairVerdict, PairwiseJudge
from studies import bradley_terry as bt


@dataclass(frozen=True)
class Contender:
    """One reply in a comparison: who wrote it and its text."""

    source: str
    text: str


def bias_summary(
    verdicts: Sequence[PairVerdict], pairs: Sequence[tuple[Contender, Contender]]
) -> dict[str, dict[str, Any]]:
    """Flip rate, first-position and longer-reply win shares, final verdict counts, per name."""
    out: dict[str, dict[str, Any]] = {}
    for name in NAMES:
        flipped = [v.flipped(name) for v in verdicts]  # None where an order was not read
        read = [f for f in flipped if f is not None]
        flips = sum(read)
        first_pick, longer_pick, decisive, sized = 0, 0, 0, 0
        for verdict, (a, b) in zip(verdicts, pairs, strict=True):
            shown = [(verdict.first, a, b), (verdict.second, b, a)]
            for answers, first, second in shown:
                if answers is None or answers[name] == "tie":
                    continue
                decisive += 1
                chosen, other = (first, second) if answers[name] == "A" else (second, first)
                first_pick += answers[name] == "A"
                if len(chosen.text) != len(other.text):
                    sized += 1
                    longer_pick += len(chosen.text) > len(other.text)
        out[name] = {
            "pairs": len(verdicts),
            "both_orders_read": len(read),
            "flip_rate": flips / len(read) if read else float("nan"),
            "first_wins": first_pick / decisive if decisive else float("nan"),
            "longer_wins": longer_pick / sized if sized else float("nan"),
            "decisive_answers": decisive,
            "final": dict(Counter(v.final[name] for v in verdicts)),
        }
    return out


def rank_pairs(
    comparisons: Sequence[tuple[str, str]],
    items: Sequence[str],
    *,
    n_boot: int = 200,
    seed: int = 0,
    alpha: float = 0.01,
) -> list[dict[str, Any]]:
    """Bradley–Terry strengths of ``items`` from (winner, loser) pairs, best first.

    Each row: ``item, strength`` (log-strength, mean 0), ``low, high`` (95 %
    bootstrap interval; NaN without resampling), ``wins, losses, rank``.
    ``alpha`` is choix's regularisation (keeps unbeaten items finite).
    """
    index = {item: i for i, item in enumerate(items)}
    unknown = {x for pair in comparisons for x in pair} - set(index)
    if unknown:
        raise ValueError(f"comparisons name unknown items: {', '.join(sorted(unknown))}")
    pairs = [(index[w], index[lose]) for w, lose in comparisons]
    strength = bt.strengths(bt.wins_matrix(pairs, len(items)), alpha)
    # each judged pair is one group to resample
    groups = [bt.wins_matrix([p], len(items)) for p in pairs]
    low, high = bt.intervals(groups, len(items), alpha, n_boot, seed)
    wins = Counter(w for w, _ in comparisons)
    losses = Counter(lose for _, lose in comparisons)
    rows = [
        {
            "item": item,
            "strength": float(strength[i]),
            "low": float(low[i]),
            "high": float(high[i]),
            "wins": wins[item],
            "losses": losses[item],
        }
        for item, i in index.items()
    ]
    rows.sort(key=lambda r: -r["strength"])
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows


def decisive_comparisons(
    verdicts: Sequence[PairVerdict],
    pairs: Sequence[tuple[Contender, Contender]],
    name: str = "overall",
) -> list[tuple[str, str]]:
    """(winner source, loser source) for every pair whose two orders agree on a winner."""
    out = []
    for verdict, (a, b) in zip(verdicts, pairs, strict=True):
        final = verdict.final.get(name)
        if final == "a":
            out.append((a.source, b.source))
        elif final == "b":
            out.append((b.source, a.source))
    return out


def run_pairwise(
    messages: Sequence[str],
    replies: Sequence[dict[str, str]],
    judge: PairwiseJudge,
    *,
    n_boot: int = 200,
    seed: int = 0,
    progress: Progress = silent,
) -> dict[str, Any]:
    """Judge every pair of replies to each message (``replies[i]``: source → text), both orders.

    Returns ``{"rows": one dict per pair, "summary": bias_summary(...),
    "ranking": rank_pairs(...) on overall}``.
    """
    jobs = [
        (message, Contender(sa, by_source[sa]), Contender(sb, by_source[sb]))
        for message, by_source in zip(messages, replies, strict=True)
        for sa, sb in itertools.combinations(sorted(by_source), 2)
    ]
    verdicts, rows = [], []
    for done, (message, a, b) in enumerate(jobs):
        progress(done, len(jobs), f"comparing {a.source} with {b.source} (both orders)")
        verdict = judge.compare(message, a.text, b.text)
        verdicts.append(verdict)
        rows.append(pair_row(message, a, b, verdict))
    progress(len(jobs), len(jobs), "ranking")
    pairs = [(a, b) for _, a, b in jobs]
    sources = sorted({s for r in replies for s in r})
    return {
        "judge": judge.id,
        "rows": rows,
        "summary": bias_summary(verdicts, pairs),
        "ranking": rank_pairs(
            decisive_comparisons(verdicts, pairs), sources, n_boot=n_boot, seed=seed
        ),
    }


def pair_row(message: str, a: Contender, b: Contender, verdict: PairVerdict) -> dict[str, Any]:
    """One flat row per pair: sources, lengths, both orders' answers and the final verdicts."""
    row: dict[str, Any] = {
        "message": message,
        "reply_a_source": a.source,
        "reply_b_source": b.source,
        "reply_a_chars": len(a.text),
        "reply_b_chars": len(b.text),
        "prompt_version": verdict.prompt_version,
        "error": verdict.error or "",
        "note": verdict.note or "",
    }
    for name in NAMES:
        row[f"{name}_a_first"] = verdict.first[name] if verdict.first else ""
        row[f"{name}_b_first"] = verdict.second[name] if verdict.second else ""
        row[f"{name}_final"] = verdict.final[name]
    return row
