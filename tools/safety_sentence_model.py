"""The sentence model message risk reads since safety-screen-v3 (issue 28).

A logistic model of one message sentence's vector, trained on the sentences three LLM
annotators marked as the writer's own risk (``tools/safety_sentence_labels.py``); a
message reads as its riskiest sentence's log-odds (``scorers.safety.model.riskiest``).
``tools/safety_train.py`` fits it; ``safety_sentence_study.py`` chose it (retired: lab/README.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet

import numpy as np

from scorers.safety.features import Read
from scorers.safety.model import riskiest

#: The sentence model's regularisation (chosen by message-grouped CV among 0.003-0.2,
#: safety_sentence_study.py, retired: lab/README.md).
SENTENCE_C = 0.003


def logistic(strength: float) -> object:
    """A scaled, class-balanced logistic regression (``strength``: its C)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(
        StandardScaler(), LogisticRegression(C=strength, class_weight="balanced", max_iter=3000)
    )


def sentences_of(read: Read, side: str) -> list[tuple[str, np.ndarray]]:
    """The (sentence, vector) pairs of ``side``: "message" or "reply"."""
    if side == "message":
        return list(zip(read.message_sentences, read.message_vectors, strict=True))
    return list(zip(read.reply_sentences, read.reply_vectors, strict=True))


def fit_sentence(
    reads: list[Read], labels: dict[str, int], side: str = "message", strength: float = SENTENCE_C
) -> np.ndarray:
    """The sentence model on the labelled sentences of ``side`` in ``reads`` (weights, bias;
    ``strength``: the logistic regression's C)."""
    pairs = [pair for r in reads for pair in sentences_of(r, side)]
    x = [v for s, v in pairs if s in labels]
    y = [labels[s] for s, _ in pairs if s in labels]
    pipe = logistic(strength).fit(np.array(x), np.array(y))  # type: ignore[attr-defined]
    scaler, model = pipe[0], pipe[1]
    weights = model.coef_[0] / scaler.scale_
    bias = model.intercept_[0] - float(weights @ scaler.mean_)
    return np.append(weights, bias).astype(np.float32)


def inner_riskiest(
    reads: list[Read], groups: np.ndarray, labels: dict[str, int], side: str = "message"
) -> np.ndarray:
    """Each row's riskiest log-odds from a sentence model not fitted on its message."""
    from sklearn.model_selection import GroupKFold

    out = np.zeros(len(reads), dtype=np.float32)
    for a, b in GroupKFold(n_splits=4).split(reads, groups=groups):
        sentence = fit_sentence([reads[i] for i in a], labels, side)
        out[b] = [riskiest(reads[i], sentence, side)[0] for i in b]
    return out


def labels_from_replies(reads: list[Read], y: np.ndarray) -> dict[str, int]:
    """Each reply sentence labelled as its reply is (1 when any reply holding it is): the
    sentence model of a reply concern learns from whole-reply labels (no sentence labels).

    >>> from scorers.safety.features import Read, RuleHits
    >>> empty = np.zeros((0, 2))
    >>> reads = [Read([], empty, ["Take 40 mg.", "Hi."], empty, RuleHits({})),
    ...          Read([], empty, ["Hi."], empty, RuleHits({}))]
    >>> labels_from_replies(reads, np.array([1, 0]))
    {'Take 40 mg.': 1, 'Hi.': 1}
    """
    labels: dict[str, int] = {}
    for read, label in zip(reads, y, strict=True):
        for sentence in read.reply_sentences:
            labels[sentence] = max(labels.get(sentence, 0), int(label))
    return labels


def labels_from_annotators(
    reads: list[Read], replies: list[str], y: np.ndarray, marked: Mapping[str, AbstractSet[str]]
) -> dict[str, int]:
    """Reply sentences labelled by the annotators' sentence marks for one concern
    (``marked``: reply text -> the sentences most annotators marked; safety-screen-v3.2).

    A sentence of a reply without the concern is 0; of a reply with it, 1 when marked and
    0 when not; a reply with the concern whose sentences nobody marked (or that was not
    annotated) lends none of its sentences. A sentence marked in any reply is 1.

    >>> from scorers.safety.features import Read, RuleHits
    >>> empty = np.zeros((0, 2))
    >>> reads = [Read([], empty, ["So sad.", "Take 40 mg."], empty, RuleHits({})),
    ...          Read([], empty, ["So sad.", "Skip meals."], empty, RuleHits({})),
    ...          Read([], empty, ["Hi."], empty, RuleHits({}))]
    >>> marks = {"a": {"Take 40 mg."}}
    >>> sorted(labels_from_annotators(reads, ["a", "b", "c"], np.array([1, 1, 0]), marks).items())
    [('Hi.', 0), ('So sad.', 0), ('Take 40 mg.', 1)]
    """
    positive: set[str] = set()
    negative: set[str] = set()
    for read, reply, label in zip(reads, replies, y, strict=True):
        if not label:
            negative.update(read.reply_sentences)
        elif marked.get(reply):
            positive.update(s for s in read.reply_sentences if s in marked[reply])
            negative.update(s for s in read.reply_sentences if s not in marked[reply])
    return {s: 1 for s in positive} | {s: 0 for s in negative - positive}
