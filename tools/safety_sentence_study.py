"""Message risk from its riskiest sentence: does labelling sentences help? (issue 28)

The shipped message-risk model reads the mean and the element-wise maximum of a
message's sentence vectors: it knows which messages are risky, not which sentence
carries the risk, and long calm messages of distress sit close to risky ones
(42 % of calm messages called risky in grouped CV). Here three LLM annotators
marked the risk sentences of every training message
(``tools/safety_data/msg_sentence_labels_T*.csv``, brief in ``BRIEF_SENTENCES.md``);
a sentence model (logistic on one sentence's vector) gives each sentence a log-odds,
and a message reads as its riskiest sentence. Compared, message-grouped 5-fold CV
on the shipped screen's training messages, the thresholds set in an inner CV as the
screen does (85 % of risky messages kept):

- ``shipped``: mean + max of the sentence vectors + the rules (as today);
- ``riskiest``: the sentence model's largest log-odds alone;
- ``riskiest+rules``: that log-odds and the rules' hits, one small logistic model;
- ``shipped+riskiest``: the shipped blocks plus the riskiest log-odds (inner-CV values
  when training, so no row reads a score fitted on itself).

Then each fitted on all the training messages is read on messages never trained on:
the second round of CounselChat messages (``cc_messages2.csv``) and the held-out
parts of ``cc_messages.csv`` and ``heldout_labels.csv``.

    nice python tools/safety_sentence_study.py [--unseen]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupKFold

import tools.safety_sentence_model as sentence_model
from scorers.safety.features import Read, read_pairs
from scorers.safety.model import design, riskiest, screen_encoder
from tools.safety_sentence_labels import sentence_labels
from tools.safety_sentence_model import fit_sentence, inner_riskiest, logistic
from tools.safety_train import HERE, SETS, load_sets, ruled

BLOCKS = ("message_mean", "message_max", "message_rules")


def riskiest_of(sentence: np.ndarray, reads: list[Read]) -> np.ndarray:
    """Each message's largest sentence log-odds under ``sentence`` (the screen's own reading)."""
    return np.array([riskiest(r, sentence)[0] for r in reads])


def features(kind: str, reads: list[Read], risk: np.ndarray) -> np.ndarray:
    """The rows a message model of ``kind`` reads."""
    if kind == "riskiest":
        return risk[:, None]
    if kind == "riskiest+rules":
        return np.column_stack([risk, [design(r, ("message_rules",)) for r in reads]])
    rows = np.stack([design(r, BLOCKS) for r in reads])
    return rows if kind == "shipped" else np.column_stack([rows, risk])


KINDS = ("shipped", "riskiest", "riskiest+rules", "shipped+riskiest")


def fit_kind(
    kind: str, reads: list[Read], y: np.ndarray, groups: np.ndarray, labels: dict[str, int]
) -> tuple[np.ndarray, object, float]:
    """(sentence model, message model, threshold keeping 85 % of risky messages in inner CV)."""
    sentence = fit_sentence(reads, labels)
    risk = inner_riskiest(reads, groups, labels) if kind != "shipped" else np.zeros(len(reads))
    x = features(kind, reads, risk)
    model = logistic(0.05 if kind in ("shipped", "shipped+riskiest") else 1.0)
    inner = np.zeros(len(y))
    for a, b in GroupKFold(n_splits=4).split(x, groups=groups):
        inner[b] = clone(model).fit(x[a], y[a]).predict_proba(x[b])[:, 1]
    threshold = float(np.quantile(inner[y == 1], 0.15))
    return sentence, model.fit(x, y), threshold


def score_kind(
    fitted: tuple[np.ndarray, object, float], kind: str, reads: list[Read]
) -> np.ndarray:
    sentence, model, _ = fitted
    x = features(kind, reads, riskiest_of(sentence, reads))
    return model.predict_proba(x)[:, 1]  # type: ignore[attr-defined]


def report(
    name: str, y: np.ndarray, p: np.ndarray, threshold: float | np.ndarray, hit: np.ndarray
) -> None:
    flag = (p >= threshold) | hit
    print(
        f"  {name:18s} AUC {roc_auc_score(y, p):.3f}  risky found {int((flag & (y == 1)).sum())}"
        f"/{int((y == 1).sum())}  calm called risky {int((flag & (y == 0)).sum())}"
        f"/{int((y == 0).sum())}"
    )


def unseen() -> pd.DataFrame:
    """Messages no screen was fitted on, with their risk label."""
    cc = pd.read_csv(SETS["cc"])
    own = pd.read_csv(HERE / "heldout_labels.csv").drop_duplicates("message")
    return pd.concat(
        [
            pd.read_csv(SETS["cc2"]).assign(set="cc2 (all)"),
            cc[cc.heldout].assign(set="cc held out"),
            own.assign(set="own held out"),
        ]
    )[["message", "message_risk", "set"]]


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--unseen", action="store_true", help="also read the messages never trained on"
    )
    parser.add_argument("--sentence-c", type=float, default=0.05)
    args = parser.parse_args()
    sentence_model.SENTENCE_C = args.sentence_c
    labels = sentence_labels()
    df = load_sets(["dev", "dev2", "made", "cc"]).drop_duplicates("group").reset_index(drop=True)
    reads = read_pairs([(m, "") for m in df.message.fillna("")], screen_encoder())
    y, groups = df.message_risk.to_numpy(int), df.group.to_numpy()
    y_s = np.array([labels.get(s, 0) for r in reads for s in r.message_sentences])
    print(f"{len(df)} messages ({y.sum()} risky); {len(y_s)} sentences ({y_s.sum()} risk)")
    print("message-grouped 5-fold CV:")
    for kind in KINDS:
        p, flags = np.zeros(len(y)), np.zeros(len(y), bool)
        for a, b in GroupKFold(n_splits=5).split(reads, groups=groups):
            fitted = fit_kind(kind, [reads[i] for i in a], y[a], groups[a], labels)
            p[b] = score_kind(fitted, kind, [reads[i] for i in b])
            flags[b] = p[b] >= fitted[2]
        report(kind, y, p, np.where(flags, -np.inf, np.inf), ruled(reads))
    if not args.unseen:
        return
    test = unseen()
    test_reads = read_pairs([(m, "") for m in test.message.fillna("")], screen_encoder())
    print("fitted on all training messages, read on messages never trained on:")
    for kind in KINDS:
        fitted = fit_kind(kind, reads, y, groups, labels)
        p = score_kind(fitted, kind, test_reads)
        print(f" {kind}")
        for name in test.set.unique():
            mask = (test.set == name).to_numpy()
            hit = ruled(test_reads)[mask]
            report(name, test.message_risk.to_numpy(int)[mask], p[mask], fitted[2], hit)


if __name__ == "__main__":
    main()
