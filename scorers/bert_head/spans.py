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
    """Contextual vectors of every token of every text (windows run in length-sorted batches)."""
    torch = encoder._torch
    size = encoder.window - 2
    pieces = [(t, s) for t, row in enumerate(ids) for s in range(0, len(row), size)]
    order = sorted(
        range(len(pieces)), key=lambda i: -min(size, len(ids[pieces[i][0]]) - pieces[i][1])
    )
    states = [np.zeros((len(row), encoder.dim), dtype=np.float32) for row in ids]
    tok = encoder.tokenizer
    pad = tok.pad_token_id or 0
    with torch.inference_mode():
        for first in range(0, len(order), batch_size):
            batch = [pieces[i] for i in order[first : first + batch_size]]
            windows = [ids[t][s : s + size] for t, s in batch]
            width = max(len(w) for w in windows) + 2
            input_ids = torch.full((len(batch), width), pad, dtype=torch.long)
            mask = torch.zeros((len(batch), width), dtype=torch.long)
            for row, window in enumerate(windows):
                seq = [tok.cls_token_id, *window, tok.sep_token_id]
                input_ids[row, : len(seq)] = torch.tensor(seq)
                mask[row, : len(seq)] = 1
            out = encoder.model(input_ids=input_ids, attention_mask=mask, output_hidden_states=True)
            last4 = torch.stack(out.hidden_states[-4:]).mean(0)
            both = torch.cat([out.last_hidden_state, last4], dim=-1).numpy()
            for row, ((t, s), window) in enumerate(zip(batch, windows, strict=True)):
                states[t][s : s + len(window)] = both[row, 1 : 1 + len(window)]
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
