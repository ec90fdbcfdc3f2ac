"""Risk only the learned model sees: what a stricter threshold for it would cost (issue 28).

A message risk with no warning word the rules know was right about 1 in 7 times in the
grouped CV, yet it leans a reply towards "missed risk" (a cold walk: "How do we stop
fighting?"). Message-grouped 5-fold CV of the shipped message-risk model on every training
message; the thresholds from each fold's inner CV, the rules deciding as in the app. Then
the same with the threshold multiplied for messages no rule names. Measured, not shipped.

    nice python lab/safety_alone_study.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from sklearn.model_selection import GroupKFold

import tools.safety_train as train
from scorers.bert_head.encoder import load_encoder
from scorers.safety.features import read_pairs


def main() -> None:
    df = train.load_sets(["dev", "dev2", "made", "cc"])
    messages = df[~df.group.duplicated()].reset_index(drop=True)
    reads = read_pairs([(m, "") for m in messages.message.fillna("")], load_encoder())
    y = messages.message_risk.to_numpy(int)
    named, ruled = train.rule_named(reads), train.ruled(reads)
    recipe = train.SHIPPED.only("message-risk")  # the message-risk model alone
    p, threshold = np.zeros(len(y)), np.zeros(len(y))
    for a, b in GroupKFold(n_splits=5).split(messages, groups=messages.group):
        fitted = train.fit(messages.iloc[a].reset_index(drop=True), [reads[i] for i in a], recipe)
        model, threshold[b], blocks, sentence = fitted["message-risk"]
        x = np.stack([train.design(reads[i], blocks, sentence) for i in b])
        p[b] = model.predict_proba(x)[:, 1]  # type: ignore[attr-defined]
    risky, calm = y == 1, y == 0
    print(
        f"{int(risky.sum())} risky messages ({int((risky & named).sum())} with words the rules know)"
    )
    for factor in (1.0, 1.5, 2.0, 3.0):
        said = np.where(named, (p >= threshold) | ruled, p >= np.minimum(threshold * factor, 0.99))
        alone = said & ~named
        print(
            f"model-only threshold x{factor}: risky found {int((said & risky).sum())}, calm called "
            f"risky {int((said & calm).sum())}; of the model-only calls {int((alone & risky).sum())}"
            f" right, {int((alone & calm).sum())} wrong"
        )


if __name__ == "__main__":
    main()
