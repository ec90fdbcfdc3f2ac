"""Agreement of a scorer with the rubric labels on a sample it may not have seen.

    python tools/evaluate_scorer.py --scorer judge/local/qwen2.5-coder-1.5b --n 30 --seed 0

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
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import pandas as pd

from config import RUBRIC_LABELS_CSV
from scorers.agreement import compare
from scorers.base import COMPONENTS
from scorers.registry import get_scorer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scorer", required=True)
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    df = pd.read_csv(RUBRIC_LABELS_CSV)
    df["group"] = df.source.str.split(":").str[0]
    sample = df.groupby("group", group_keys=False).apply(
        lambda g: g.sample(max(1, round(args.n * len(g) / len(df))), random_state=args.seed)
    )
    scorer = get_scorer(args.scorer)
    scores = []
    for i, (reply, message) in enumerate(zip(sample.reply, sample.message, strict=True), start=1):
        scores.append(scorer.score(reply, message))
        print(f"scored {i}/{len(sample)}", file=sys.stderr, flush=True)
    ok = np.array([s.ok for s in scores])
    print(f"{args.scorer}: {ok.sum()}/{len(scores)} scored")
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


if __name__ == "__main__":
    main()
