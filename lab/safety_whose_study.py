"""Whose risk? Can a message-level model tell a writer at risk from one supporting someone
else at risk (issue 49), so that a supporter's message is not read as the writer's own risk?

    nice python lab/safety_whose_study.py

Psychiatrists' labels (``../shared/data/safety/cssrs_dev.csv``: 248 Reddit users on the
Columbia scale; Supportive = writing to someone at risk): a logistic regression on pronoun
shares (sentences with "you" and no "I", "I" and "you" per word…) tells Supportive from the
rest, in 5-fold stratified CV repeated 5 times (one row per user). Printed: its AUC and, for
each threshold, the at-risk users (ideation, behaviour, attempt) still called at risk and the
Supportive users still called at risk were the screen's risk call dropped above it. Then once,
fitted on all of C-SSRS, on the written held-out set ``tools/safety_data/heldout_whose_*``
(64 messages, two LLM annotators, never fitted on): how many risky-called messages of each
kind it would set aside. Encoder vectors were tried too and lost (AUC 0.71–0.79: 248 rows).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from config import EXTRA_DATA_DIR
from scorers.safety.check import check_many
from scorers.safety.features import sentences
from studies.safety_verdicts import NEUTRAL_REPLY

DATA = Path(__file__).resolve().parents[1] / "tools" / "safety_data"
SECOND = re.compile(r"\b(you|your|you're|youre|yourself|u|ur|youll|youd|youve)\b", re.I)
FIRST = re.compile(r"\b(I|I'm|Im|I've|Ive|I'd|Id|I'll|me|my|myself|mine)\b")


def pronouns(message: str) -> list[float]:
    """Shares of sentences with "you", with "I", with "you" and no "I"; "I" and "you" per
    word; whether "you" outnumbers "I"."""
    said = sentences(message)
    n, words = max(len(said), 1), sum(len(s.split()) for s in said) or 1
    you = [bool(SECOND.search(s)) for s in said]
    me = [bool(FIRST.search(s)) for s in said]
    n_me = sum(len(FIRST.findall(s)) for s in said)
    n_you = sum(len(SECOND.findall(s)) for s in said)
    only_you = sum(y and not m for y, m in zip(you, me, strict=True))
    return [sum(you) / n, sum(me) / n, only_you / n, n_me / words, n_you / words, n_you > n_me]


def model():
    return make_pipeline(
        StandardScaler(), LogisticRegression(max_iter=3000, class_weight="balanced")
    )


def main() -> None:
    d = pd.read_csv(EXTRA_DATA_DIR / "safety" / "cssrs_dev.csv")
    risky = np.array([r.message_risk for r in check_many([(m, NEUTRAL_REPLY) for m in d.message])])
    x = np.array([pronouns(m) for m in d.message], float)
    y = (d.label == "Supportive").to_numpy().astype(int)
    at_risk = d.label.isin(["Ideation", "Behavior", "Attempt"]).to_numpy()
    folds = [StratifiedKFold(5, shuffle=True, random_state=s) for s in range(5)]
    p = np.mean(
        [cross_val_predict(model(), x, y, cv=f, method="predict_proba")[:, 1] for f in folds], 0
    )
    print(
        f"C-SSRS, CV: AUC {roc_auc_score(y, p):.3f}; the shipped screen calls at risk "
        f"{risky[at_risk].mean():.0%} of at-risk users, {risky[y == 1].mean():.0%} of Supportive"
    )
    for t in (0.4, 0.5, 0.6, 0.7, 0.8):
        kept = risky.astype(bool) & ~(p > t)
        print(
            f"  set aside above {t}: at-risk still found {kept[at_risk].mean():.0%}, "
            f"Supportive still at risk {kept[y == 1].mean():.0%}"
        )
    items = pd.read_csv(DATA / "heldout_whose_items.csv")
    labels = pd.read_csv(DATA / "heldout_whose_labels_E.csv")
    kind = np.where(
        labels.writer_at_risk == 1,
        "own risk",
        np.where(labels.someone_else_at_risk == 1, "supporter", "calm"),
    )
    called = np.array(
        [r.message_risk for r in check_many([(m, NEUTRAL_REPLY) for m in items.message])]
    )
    aside = (
        model().fit(x, y).predict_proba(np.array([pronouns(m) for m in items.message], float))[:, 1]
    )
    print("held out (written, 64), fitted on all of C-SSRS: risky-called messages set aside")
    for t in (0.5, 0.7):
        out = {
            k: f"{int(((aside > t) & (called == 1))[kind == k].sum())}/{int(called[kind == k].sum())}"
            for k in ("own risk", "supporter", "calm")
        }
        print(f"  above {t}: {out}")


if __name__ == "__main__":
    main()
