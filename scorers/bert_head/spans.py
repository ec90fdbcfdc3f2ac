"""Whole-reply and sentence vectors from one contextual pass of the encoder.

The first head encoded the reply, then every sentence again on its own: a
reply of eight sentences cost nine forward passes. Here the reply is run
through the encoder once (in windows of the encoder's length) and each
sentence's vector is the mean of its own tokens' contextual vectors, found
from the tokenizer's character offsets. A row of features is the reply's
vector (mean over every token), the mean of its sentence vectors and their
element-wise maximum; each vector joins the last layer's mean and the mean
of the last four layers, as the encoder's own pooling does.

>>> sentence_spans("I hear you.That sounds hard!\\nWhat happened")
[(0, 11), (11, 28), (29, 42)]
"""

from __future__ import annotations

import re

import numpy as np

from scorers.bert_head.encoder import Encoder

#: A sentence ends at . ! ? (a run of them) or a line break; no space is needed
#: after the mark, since scraped answers often lack it ("for you?Liars").
_SENTENCE = re.compile(r"[^.!?\n]*[^.!?\n\s][^.!?\n]*(?:[.!?]+|$)", re.MULTILINE)
#: Bump when the features change, so cached vectors of the old kind are not reused.
TAG = "spans-v1"


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of ``text`` (leading spaces trimmed)."""
    spans = []
    for match in _SENTENCE.finditer(text):
        start = match.start() + (len(match.group()) - len(match.group().lstrip()))
        spans.append((start, match.end()))
    return spans or [(0, len(text))]


def span_features(encoder: Encoder, texts: list[str], batch_size: int = 32) -> np.ndarray:
    """Feature rows ``[reply, mean of sentences, max of sentences]`` (cached per text)."""
    return encoder.cached(texts, TAG, lambda todo: _compute(encoder, todo, batch_size))


def _token_states(encoder: Encoder, ids: list[list[int]], batch_size: int) -> list[np.ndarray]:
    """Contextual vectors of every token of every text (its windows in the encoder's layout)."""
    from scorers.bert_head.packing import token_states

    tok = encoder.tokenizer
    size = encoder.window - 2
    pieces = [(t, s) for t, row in enumerate(ids) for s in range(0, len(row), size)]
    seqs = [[tok.cls_token_id, *ids[t][s : s + size], tok.sep_token_id] for t, s in pieces]
    states = [np.zeros((len(row), encoder.dim), dtype=np.float32) for row in ids]
    pad_id = tok.pad_token_id or 0
    for piece, vecs in token_states(encoder.model, seqs, pad_id, encoder.layout, batch_size):
        t, s = pieces[piece]
        states[t][s : s + len(vecs) - 2] = vecs[1:-1]  # without [CLS] and [SEP]
    return states


def _compute(encoder: Encoder, texts: list[str], batch_size: int) -> list[np.ndarray]:
    enc = encoder.tokenizer(texts, add_special_tokens=False, return_offsets_mapping=True)
    ids, offsets = [], []
    for text, row, offs in zip(texts, enc["input_ids"], enc["offset_mapping"], strict=True):
        if not row:  # nothing the tokenizer keeps: read it as one unknown token
            row, offs = [encoder.tokenizer.unk_token_id], [(0, len(text))]
        ids.append(list(row))
        offsets.append(np.array([o[0] for o in offs]))
    states = _token_states(encoder, ids, batch_size)
    rows = []
    for text, vecs, starts in zip(texts, states, offsets, strict=True):
        bounds = np.array([s for s, _ in sentence_spans(text)])
        which = np.clip(np.searchsorted(bounds, starts, side="right") - 1, 0, len(bounds) - 1)
        used = np.unique(which)
        sums = np.zeros((len(bounds), vecs.shape[1]), dtype=np.float64)
        np.add.at(sums, which, vecs)
        counts = np.bincount(which, minlength=len(bounds))[used][:, None]
        sentences = sums[used] / counts
        rows.append(
            np.concatenate([vecs.mean(0), sentences.mean(0), sentences.max(0)]).astype(np.float32)
        )
    return rows
