"""Written short replies as extra training rows for the reply concerns only (issue 28).

The dismissal model calls many one- or two-sentence kind replies dismissive: its training
replies that short were mostly curt. The 132 written short replies (``made2``, 72 safe,
labelled by three annotators) were tried once as a whole training set and failed the rule
set before that run, but adding them changed the folds and the message-risk rows too. Here
the folds are the shipped CV's (message-grouped, over dev, dev2, made and cc); the short
replies of a fold's training messages join the training rows of the chosen reply concerns
only, never a test fold and never message risk. The rule for shipping was written down
before the first run (docs/safety.md quotes it and the result).

    nice python tools/safety_extra_study.py --to dismissive
    nice python tools/safety_extra_study.py --to dismissive,harmful-advice,medical-overreach
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pandas as pd
from sklearn.model_selection import GroupKFold

from scorers.bert_head.encoder import load_encoder
from scorers.safety.features import read_pairs
from tools.safety_recipe import SHIPPED
from tools.safety_train import fit, load_sets, predict, rates

BASE = ["dev", "dev2", "made", "cc"]


def cross_validate_with_extra(
    df: pd.DataFrame, reads: list, extra: np.ndarray, to: tuple[str, ...]
) -> pd.DataFrame:
    """Out-of-fold verdicts on the rows not ``extra``; ``extra`` rows of a fold's training
    messages train the decisions ``to`` (the rest as shipped)."""
    base = np.flatnonzero(~extra)
    parts = []
    for a, b in GroupKFold(n_splits=5).split(base, groups=df.group.to_numpy()[base]):
        train, test = base[a], base[b]
        seen = set(df.group.to_numpy()[train])
        more = [i for i in np.flatnonzero(extra) if df.group.iat[i] in seen]
        fitted = fit(df.iloc[train].reset_index(drop=True), [reads[i] for i in train])
        rows = np.concatenate([train, more]).astype(int)
        widened = fit(
            df.iloc[rows].reset_index(drop=True), [reads[i] for i in rows], SHIPPED.only(*to)
        )
        fitted.update(widened)
        parts.append(predict(fitted, [reads[i] for i in test], True).set_index(test))
    return pd.concat(parts).sort_index()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--to", default="dismissive", help="the decisions the extra rows train")
    args = parser.parse_args()
    to = tuple(args.to.split(","))
    df = load_sets([*BASE, "made2"])
    extra = (df.set == "made2").to_numpy()
    pairs = list(zip(df.message.fillna(""), df.reply.fillna(""), strict=True))
    reads = read_pairs(pairs, load_encoder())
    pred = cross_validate_with_extra(df, reads, extra, to)
    kept = df[~extra]
    print(f"made2 rows training {', '.join(to)} (CV on {', '.join(BASE)}):")
    print(json.dumps(rates(kept, pred.loc[kept.index].reset_index(drop=True)), indent=1))


if __name__ == "__main__":
    main()
