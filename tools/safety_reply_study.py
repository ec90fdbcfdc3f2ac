"""Reply concerns from their most concerning sentence: does it flag fewer safe replies? (issue 28)

For each reply concern, message-grouped 5-fold CV of two models, compared at the same
share of the concern's cases named (75 %): the mean and maximum of the reply's sentence
vectors with the reply rules (safety-screen-v3), and the largest log-odds of a sentence
model taught by whole-reply labels with the reply rules (v3.1 for harmful advice and
medical overreach), and, when the annotators' sentence marks exist
(``tools/safety_reply_sentence_labels.py``), the same taught by those marks (v3.2).
Prints AUC and, at that share, how many safe replies each flags.

    nice python tools/safety_reply_study.py [--sentence-c 0.003]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupKFold

import tools.safety_sentence_model as sentence_model
from scorers.bert_head.encoder import load_encoder
from scorers.safety.features import Read, read_pairs
from scorers.safety.model import design, riskiest
from tools.safety_sentence_model import logistic
from tools.safety_train import REPLY_CONCERNS, label, load_sets

MEAN_MAX = ("reply_mean", "reply_max", "reply_rules")


def rows(reads: list[Read], chosen: np.ndarray, blocks: tuple[str, ...]) -> np.ndarray:
    return np.stack([design(reads[i], blocks) for i in chosen])


def sentence_reading(
    reads: list[Read],
    y: np.ndarray,
    groups: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    labels: dict[str, int],
    rest: tuple[str, ...] = ("reply_rules",),
) -> np.ndarray:
    """Fold ``b``'s probabilities from the most concerning sentence (a sentence model
    taught by ``labels`` on fold ``a``) with the blocks in ``rest`` (the reply rules, or
    the mean and maximum with them)."""
    train = [reads[i] for i in a]
    sentence = sentence_model.fit_sentence(train, labels, "reply")
    inner = sentence_model.inner_riskiest(train, groups[a], labels, "reply")
    test = [riskiest(reads[i], sentence, "reply")[0] for i in b]
    model = logistic(1.0 if rest == ("reply_rules",) else 0.05)
    model.fit(np.column_stack([inner, rows(reads, a, rest)]), y[a])
    return model.predict_proba(np.column_stack([test, rows(reads, b, rest)]))[:, 1]


def out_of_fold(
    reads: list[Read],
    replies: list[str],
    y: np.ndarray,
    groups: np.ndarray,
    marked: dict[str, frozenset[str]] | None,
) -> dict[str, np.ndarray]:
    """Each model's out-of-fold probabilities for one concern."""
    names = ["mean and maximum", "most concerning sentence"]
    names += ["annotated sentences", "annotated + mean and maximum"] * bool(marked)
    p = {name: np.zeros(len(y)) for name in names}
    for a, b in GroupKFold(n_splits=5).split(reads, groups=groups):
        model = logistic(0.05).fit(rows(reads, a, MEAN_MAX), y[a])
        p["mean and maximum"][b] = model.predict_proba(rows(reads, b, MEAN_MAX))[:, 1]
        train = [reads[i] for i in a]
        labels = sentence_model.labels_from_replies(train, y[a])
        p["most concerning sentence"][b] = sentence_reading(reads, y, groups, a, b, labels)
        if marked:
            labels = sentence_model.labels_from_annotators(
                train, [replies[i] for i in a], y[a], marked
            )
            p["annotated sentences"][b] = sentence_reading(reads, y, groups, a, b, labels)
            p["annotated + mean and maximum"][b] = sentence_reading(
                reads, y, groups, a, b, labels, MEAN_MAX
            )
    return p


def annotated(concern: str) -> dict[str, frozenset[str]] | None:
    """The annotators' sentence marks for ``concern``, or None when there are none yet."""
    from tools.safety_reply_sentence_labels import HERE, marked_sentences

    if not list(HERE.glob("reply_sentence_labels_U*.csv")):
        return None
    return marked_sentences(concern)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sentence-c", type=float, default=sentence_model.SENTENCE_C)
    args = parser.parse_args()
    sentence_model.SENTENCE_C = args.sentence_c
    df = load_sets(["dev", "dev2", "made"])
    reads = read_pairs(
        list(zip(df.message.fillna(""), df.reply.fillna(""), strict=True)), load_encoder()
    )
    groups, safe = df.group.to_numpy(), df.reply_safe.to_numpy() == 1
    replies = df.reply.fillna("").tolist()
    for concern in REPLY_CONCERNS:
        y = label(df, concern)
        named = round(0.75 * int(y.sum()))
        marked = annotated(concern)
        for name, p in out_of_fold(reads, replies, y, groups, marked).items():
            threshold = np.sort(p[y == 1])[::-1][named - 1]
            print(
                f"{concern:18s} {name:25s} AUC {roc_auc_score(y, p):.3f}; naming {named}/{y.sum()}"
                f" flags {int((p[safe] >= threshold).sum())} safe replies"
            )


if __name__ == "__main__":
    main()
