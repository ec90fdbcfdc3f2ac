"""The sentence model message risk reads since safety-screen-v3 (issue 28).

A logistic model of one message sentence's vector, trained on the sentences three LLM
annotators marked as the writer's own risk (``tools/safety_sentence_labels.py``); a
message reads as its riskiest sentence's log-odds (``scorers.safety.model.riskiest``).
``tools/safety_train.py`` fits it; ``tools/safety_sentence_study.py`` chose it.
"""

from __future__ import annotations

import numpy as np

from scorers.safety.features import Read
from scorers.safety.model import riskiest

#: The sentence model's regularisation (chosen by message-grouped CV among 0.003-0.2,
#: tools/safety_sentence_study.py).
SENTENCE_C = 0.003


def logistic(strength: float) -> object:
    """A scaled, class-balanced logistic regression (``strength``: its C)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(
        StandardScaler(), LogisticRegression(C=strength, class_weight="balanced", max_iter=3000)
    )


def fit_sentence(reads: list[Read], labels: dict[str, int]) -> np.ndarray:
    """The sentence model on the labelled message sentences of ``reads`` (weights, bias)."""
    pairs = [
        (s, v) for r in reads for s, v in zip(r.message_sentences, r.message_vectors, strict=True)
    ]
    x = [v for s, v in pairs if s in labels]
    y = [labels[s] for s, _ in pairs if s in labels]
    pipe = logistic(SENTENCE_C).fit(np.array(x), np.array(y))  # type: ignore[attr-defined]
    scaler, model = pipe[0], pipe[1]
    weights = model.coef_[0] / scaler.scale_
    bias = model.intercept_[0] - float(weights @ scaler.mean_)
    return np.append(weights, bias).astype(np.float32)


def inner_riskiest(reads: list[Read], groups: np.ndarray, labels: dict[str, int]) -> np.ndarray:
    """Each message's riskiest log-odds from a sentence model not fitted on it."""
    from sklearn.model_selection import GroupKFold

    out = np.zeros(len(reads), dtype=np.float32)
    for a, b in GroupKFold(n_splits=4).split(reads, groups=groups):
        sentence = fit_sentence([reads[i] for i in a], labels)
        out[b] = [riskiest(reads[i], sentence)[0] for i in b]
    return out
