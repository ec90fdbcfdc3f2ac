"""Many sequences in one encoder pass, laid end to end instead of padded.

A batch padded to its longest member spends most of its work on padding when
a 200-token reply shares it with ten-token sentences. Here sequences are laid
end to end in rows (first fit, longest first); each attends only to itself
(a block-diagonal attention mask) and counts its positions from 0, so every
token gets the vectors it gets when its sequence is encoded alone, up to
float rounding (about 1e-6). ``pack=False`` keeps the padded layout, one
sequence a row, as the reference.

>>> pack_rows([5, 3, 2, 4], width=6)
[[0], [3, 2], [1]]
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import Any

import numpy as np


def pack_rows(lengths: list[int], width: int) -> list[list[int]]:
    """Indices of ``lengths`` grouped into rows of at most ``width`` (best fit, longest first).

    A sequence longer than ``width`` gets a row of its own.

    >>> pack_rows([3, 3, 3], width=6)
    [[0, 1], [2]]
    """
    rows: list[list[int]] = []
    free: list[
        tuple[int, int]
    ] = []  # (room left, row), sorted: the tightest fit is found by bisection
    for index in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
        at = bisect.bisect_left(free, (lengths[index], -1))
        if at < len(free):
            room, row = free.pop(at)
        else:
            room, row = width, len(rows)
            rows.append([])
        rows[row].append(index)
        bisect.insort(free, (room - lengths[index], row))
    return rows


def layout(lengths: list[int], pack: bool = True) -> list[list[int]]:
    """Rows of sequence indices, fullest first: packed to the longest sequence, or one a row.

    >>> layout([2, 5, 3]), layout([2, 5, 3], pack=False)
    ([[1], [2, 0]], [[1], [2], [0]])
    """
    if not pack:
        return [[i] for i in sorted(range(len(lengths)), key=lambda i: -lengths[i])]
    rows = pack_rows(lengths, max(lengths, default=0))
    return sorted(rows, key=lambda row: -sum(lengths[i] for i in row))


def token_states(
    model: Any, seqs: list[list[int]], pad_id: int = 0, pack: bool = True, batch_rows: int = 32
) -> Iterator[tuple[int, np.ndarray]]:
    """``(index, token vectors)`` for each of ``seqs``, as each pass finishes.

    A token's vector joins the last layer and the mean of the last four, shape
    ``(len(seq), dim)``. ``seqs`` hold token ids with their special tokens; each
    must fit the position table of ``model`` (a Hugging Face BERT-style encoder);
    ``pad_id`` fills the ends of rows. ``model`` may also be an exported graph with a
    ``states(ids, mask, positions)`` method (:mod:`scorers.bert_head.onnx_model`). Rows
    run ``batch_rows`` at a time, so only one pass's vectors are held at once.
    """
    lengths = [len(s) for s in seqs]
    rows = layout(lengths, pack)
    import torch

    with torch.inference_mode():
        for first in range(0, len(rows), batch_rows):
            chunk = rows[first : first + batch_rows]
            both = _forward(model, [[seqs[i] for i in row] for row in chunk], pad_id)
            for r, row in enumerate(chunk):
                at = 0
                for i in row:
                    yield i, both[r, at : at + lengths[i]]
                    at += lengths[i]


def _forward(model: Any, rows: list[list[list[int]]], pad_id: int) -> np.ndarray:
    """One encoder pass over rows of sequences; ``(rows, width, dim)`` token vectors."""
    import torch

    width = max(sum(len(s) for s in row) for row in rows)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    positions = torch.zeros((len(rows), width), dtype=torch.long)
    # Which sequence each slot holds; every padding slot is a sequence of its own,
    # so no query attends to nothing (a fully masked row would turn into NaN).
    segment = -1 - torch.arange(width).repeat(len(rows), 1)
    for r, row in enumerate(rows):
        at = 0
        for k, seq in enumerate(row):
            ids[r, at : at + len(seq)] = torch.tensor(seq)
            positions[r, at : at + len(seq)] = torch.arange(len(seq))
            segment[r, at : at + len(seq)] = k
            at += len(seq)
    allowed = segment[:, None, :, None] == segment[:, None, None, :]
    if hasattr(model, "states"):  # an exported graph (scorers.bert_head.onnx_model)
        mask = torch.zeros(allowed.shape).masked_fill(~allowed, torch.finfo(torch.float32).min)
        return model.states(ids.numpy(), mask.numpy(), positions.numpy())
    dtype = getattr(model, "dtype", torch.float32)
    mask = torch.zeros(allowed.shape, dtype=dtype).masked_fill(~allowed, torch.finfo(dtype).min)
    return joined_states(model, ids, mask, positions).float().numpy()


def joined_states(model: Any, ids: Any, mask: Any, positions: Any) -> Any:
    """Each token's last layer joined with the mean of the last four (torch tensors in and
    out): what the packed layout reads, and what the exported graph computes."""
    import torch

    out = model(
        input_ids=ids,
        attention_mask=mask,
        position_ids=positions,
        token_type_ids=torch.zeros_like(ids),
        output_hidden_states=True,
    )
    last4 = torch.stack(out.hidden_states[-4:]).mean(0)
    return torch.cat([out.last_hidden_state, last4], dim=-1)
