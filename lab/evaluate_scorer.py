"""Agreement of a scorer with the rubric labels on a sample it may not have seen.

    python lab/evaluate_scorer.py --scorer judge/local/qwen2.5-coder-1.5b --n 30 --seed 0

Samples ``--n`` labelled replies (stratified by source, seeded), scores them,
and prints per component: MSE, Pearson, Spearman, the mean and standard
deviation of the scorer's and the labels' scores, Cohen's d (scorer − label)
and the Wasserstein distance between the two distributions, all from
:func:`scorers.agreement.compare` (``cli.py align`` gives the full report
with intervals). For the BERT
head the sample overlaps its training data: use the card's cross-validated
numbers for the head instead.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import pandas as pd

from config import RUBRIC_LABELS_CSV
from scorers.agreement import compare
from scorers.base import COMPONENTS, Score
from scorers.registry import get_scorer


def _parser() -> argparse.ArgumentParser:
    """The script's options."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scorer", required=True)
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--rationale-tokens",
        type=int,
        default=None,
        help="weighted judge only: rationale length (0 = none; scores come first, so unchanged)",
    )
    parser.add_argument(
        "--output",
        default=None,
        help="CSV of per-reply scores, written as it goes; rows already there are reused (resume)",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="score nothing: report on the rows of --output so far",
    )
    return parser


def _sample(n: int, seed: int) -> pd.DataFrame:
    """A sample of the rubric labels stratified by source, without the judge's anchors."""
    df = pd.read_csv(RUBRIC_LABELS_CSV)
    from scorers.judge.weighted import anchor_ids

    df = df[~df.id.isin(anchor_ids())]  # the weighted judge's prompt shows these
    df["group"] = df.source.str.split(":").str[0]
    return df.groupby("group", group_keys=False).apply(
        lambda g: g.sample(max(1, round(n * len(g) / len(df))), random_state=seed)
    )


def _report(scorer_id: str, sample: pd.DataFrame, scores: list[Score]) -> None:
    """Print each component's agreement with the labels."""
    ok = np.array([s.ok for s in scores])
    print(f"{scorer_id}: {ok.sum()}/{len(scores)} scored")
    print(
        f"{'':11s} {'MSE':>6s} {'Pearson':>8s} {'Spearman':>9s} {'mean s/l':>11s} {'sd s/l':>11s} {'d':>6s} {'W':>6s}"
    )
    for name in (*COMPONENTS, "overall"):
        pred = np.array([getattr(s, name) for s, good in zip(scores, ok, strict=True) if good])
        gold = sample[list(COMPONENTS)].to_numpy()[ok]
        gold = gold.mean(1) if name == "overall" else gold[:, COMPONENTS.index(name)]
        r = compare(gold, pred, low=1, high=3, n_boot=0)
        print(
            f"{name:11s} {r['mse']:6.3f} {r['pearson_r']:8.3f} {r['spearman_rho']:9.3f} "
            f"{r['scorer_mean']:5.2f}/{r['human_mean']:4.2f} "
            f"{r['scorer_sd']:5.2f}/{r['human_sd']:4.2f} {r['cohens_d']:6.2f} "
            f"{r['wasserstein']:6.3f}"
        )


def main() -> None:
    args = _parser().parse_args()
    sample = _sample(args.n, args.seed)
    done = _done(args.output)
    if args.report_only:
        sample = sample[sample.id.isin(done)]
    scorer = get_scorer(args.scorer)
    inner = getattr(scorer, "inner", scorer)
    if args.rationale_tokens is not None and hasattr(inner, "rationale_tokens"):
        inner.rationale_tokens = args.rationale_tokens
    scores = []
    rows = zip(sample.id, sample.reply, sample.message, strict=True)
    for i, (row_id, reply, message) in enumerate(rows, start=1):
        if row_id in done:
            scores.append(done[row_id])
            continue
        t0 = time.perf_counter()
        scores.append(scorer.score(reply, message))
        seconds = time.perf_counter() - t0
        print(f"scored {i}/{len(sample)} in {seconds:.1f} s", file=sys.stderr, flush=True)
        if args.output:
            _append(
                args.output, {"id": row_id, "seconds": round(seconds, 2), **scores[-1].to_dict()}
            )
    _report(args.scorer, sample, scores)


def _done(path: str | None) -> dict[str, Score]:
    """Scores already written to ``path`` by an earlier run, by label id."""
    if not path or not Path(path).exists():
        return {}
    rows = pd.read_csv(path, dtype=str, keep_default_na=False).to_dict("records")
    return {
        r["id"]: Score.from_dict({k: v or None for k, v in r.items() if k not in ("id", "seconds")})
        for r in rows
        if r.get("status") == "ok"
    }


def _append(path: str, row: dict[str, object]) -> None:
    new = not Path(path).exists()
    with open(path, "a", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)


if __name__ == "__main__":
    main()
