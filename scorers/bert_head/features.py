"""What the empathy head reads: a reply's sentences, the recipe of its input vectors
(reply, pooled sentences, message, their interaction) and how they are pooled.

>>> split_sentences("I hear you. That sounds hard!")
['I hear you.', 'That sounds hard!']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from scorers.base import ScoreItem
from scorers.bert_head.encoder import Encoder

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` (at least one).

    >>> split_sentences("I hear you. That sounds hard!\\nWhat happened?")
    ['I hear you.', 'That sounds hard!', 'What happened?']
    """
    parts = [p.strip() for p in _SENTENCE_END.split(text) if p and p.strip()]
    return parts or [text.strip()]


@dataclass(frozen=True)
class FeatureRecipe:
    """Which vectors make up a head's input, and how the text is read.

    ``pooling``: "sentences" (the first head: each sentence encoded again on
    its own) or "spans" (sentence vectors pooled from one contextual pass,
    see :mod:`scorers.bert_head.spans`). ``normalize``: undo cheap text
    attacks (:func:`scorers.normalize.normalize_text`) before reading.
    ``interaction``: add how the reply relates to the message (element-wise
    product and absolute difference of their vectors, and their cosine), so the
    head can tell a reply that fits *this* person from a fluent reply to
    someone else. ``whole_reply``: encode the whole reply too (its vector leads
    the row); without it the mean of its sentence vectors stands in for it (the
    reply's words go through the encoder once, not twice; sentence pooling only).
    """

    use_message: bool = False
    pooling: str = "sentences"
    normalize: bool = False
    interaction: bool = False
    whole_reply: bool = True

    def build(self, encoder: Encoder, items: list[ScoreItem]) -> np.ndarray:
        """The feature matrix for ``items`` (one row each).

        Every text a row needs (replies, their sentences, messages) goes to the
        encoder in one call: one packed pass and one cache write, each distinct
        text encoded once (a message shared by several replies, a one-sentence reply).
        """
        if self.normalize:
            from scorers.normalize import normalize_text

            items = [
                replace(
                    i,
                    reply=normalize_text(i.reply),
                    message=normalize_text(i.message or "") or None,
                )
                for i in items
            ]
        n, wants_message = len(items), self.use_message or self.interaction
        sentences = [] if self.pooling == "spans" else [split_sentences(i.reply) for i in items]
        flat = [s for group in sentences for s in group]
        whole = [i.reply for i in items] if self.whole_reply else []
        texts = (whole + flat) if sentences else []
        if wants_message:
            # A missing message is encoded as empty text: the head saw none in training.
            texts += [i.message or "" for i in items]
        vectors = encoder.encode(texts) if texts else np.zeros((0, encoder.dim), np.float32)
        if sentences:
            start = len(whole)
            pooled = pool_sentences(vectors[start : start + len(flat)], sentences)
            parts = [vectors[:n], *pooled] if whole else pooled
        else:
            from scorers.bert_head.spans import span_features

            parts = [span_features(encoder, [i.reply for i in items])]
        message = vectors[len(texts) - n :] if wants_message else vectors[:0]
        if self.use_message:
            parts.append(message)
        if self.interaction:
            parts.append(interaction(parts[0][:, : encoder.dim], message))
        return np.hstack(parts).astype(np.float32)


def pool_sentences(flat: np.ndarray, sentences: list[list[str]]) -> list[np.ndarray]:
    """Per reply, the mean and the element-wise max of its rows of ``flat`` (sentences in order).

    >>> mean, top = pool_sentences(np.array([[1.0], [3.0], [5.0]]), [["a", "b"], ["c"]])
    >>> mean.tolist(), top.tolist()
    ([[2.0], [5.0]], [[3.0], [5.0]])
    """
    means, maxes, start = [], [], 0
    for group in sentences:
        block = flat[start : start + len(group)]
        start += len(group)
        means.append(block.mean(0))
        maxes.append(block.max(0))
    return [np.stack(means), np.stack(maxes)]


def interaction(reply: np.ndarray, message: np.ndarray) -> np.ndarray:
    """Product, absolute difference and cosine of aligned rows of two vector blocks.

    >>> interaction(np.array([[1.0, 0.0]]), np.array([[1.0, 0.0]])).round(2).tolist()
    [[1.0, 0.0, 0.0, 0.0, 1.0]]
    """
    cos = (reply * message).sum(1) / (
        np.linalg.norm(reply, axis=1) * np.linalg.norm(message, axis=1) + 1e-9
    )
    return np.hstack([reply * message, np.abs(reply - message), cos[:, None]])
