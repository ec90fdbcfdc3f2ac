"""Do the controls control? strip-empathy and wrong-message on the labelled warm replies.

    python lab/control_study.py --scorers bert-head,bert-head-raw [--min-overall 2.34]
    python lab/control_study.py --scorers judge-weighted/local/qwen2.5-coder-1.5b --sample 30

Takes the rubric-labelled replies whose label overall is at least
``--min-overall`` (warm, understanding replies), and prints: how much of
their text strip-empathy keeps (characters and sentences) and how many it
empties; then per scorer the mean change (after − before) of each component
under strip-empathy (target for overall: a drop of at least 0.8) and of
Cognitive under wrong-message (the same reply paired with another person's
message).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import pandas as pd

from config import RUBRIC_LABELS_CSV
from perturbations.registry import resolve
from perturbations.text_units import sentences
from scorers.base import COMPONENTS, ScoreItem
from scorers.registry import get_scorer
from studies import robustness as rb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scorers", default="bert-head")
    parser.add_argument("--min-overall", type=float, default=2.34)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--sample", type=int, default=0, help="use N of the warm replies (seeded; 0 = all)"
    )
    parser.add_argument(
        "--data",
        choices=["rubric", "welivita"],
        default="rubric",
        help="warm replies from the rubric labels, or Welivita & Pu replies people rated 3 of 3 "
        "(none of them a rubric-labelled text: usable for a head trained on every rubric label)",
    )
    args = parser.parse_args()
    scorers = [get_scorer(s) for s in args.scorers.split(",") if s.strip()]
    warm = _warm(args.data, args.min_overall, set().union(*(s.seen_ids() for s in scorers)))
    if warm.empty:
        raise SystemExit("no warm reply is left that these scorers were not trained on or shown")
    if args.sample and args.sample < len(warm):
        warm = warm.sample(args.sample, random_state=args.seed)
    items = [ScoreItem(r, m) for r, m in zip(warm.reply, warm.message, strict=True)]
    controls = resolve("strip-empathy,wrong-message")
    variants = rb.perturb_items(items, controls, seed=args.seed)
    stripped = [row[0].text for row in variants]
    chars = np.mean([len(s) / len(i.reply) for s, i in zip(stripped, items, strict=True)])
    sents = np.mean(
        [len(sentences(s)) / len(sentences(i.reply)) for s, i in zip(stripped, items, strict=True)]
    )
    empty = sum(not s.strip() for s in stripped)
    what = (
        "rated 3 of 3 by people (Welivita & Pu)"
        if args.data == "welivita"
        else (f"labelled with overall >= {args.min_overall}")
    )
    print(f"{len(items)} replies {what}")
    print(f"strip-empathy keeps {chars:.0%} of the characters and {sents:.0%} of the sentences;")
    print(f"  {empty} replies left empty (unscored)")
    rows = rb.summarise(rb.score_changes(items, variants, scorers))
    print(f"{'control':15s} {'scorer':42s} {'component':11s} {'mean Δ':>7s} {'n':>4s}")
    for row in rows:
        show = row["perturbation"] == "strip-empathy" or row["component"] == "cognitive"
        if show:
            print(
                f"{row['perturbation']:15s} {row['scorer']:42s} {row['component']:11s} "
                f"{row['mean_change']:+7.3f} {row['n']:4d}"
            )


def _warm(data: str, min_overall: float, seen: set[str]) -> pd.DataFrame:
    """Warm replies with their messages (``reply``, ``message``), none a scorer has seen."""
    labels = pd.read_csv(RUBRIC_LABELS_CSV)
    if data == "welivita":
        from core.datasets import welivita_long

        wel = welivita_long()
        wel = wel[(wel.rating >= 3) & ~wel.reply.isin(set(labels.reply))]
        return wel.drop_duplicates("reply")
    warm = labels[labels[list(COMPONENTS)].mean(axis=1) >= min_overall]
    return warm[~warm.id.isin(seen)]  # e.g. the weighted judge's anchors


if __name__ == "__main__":
    main()
