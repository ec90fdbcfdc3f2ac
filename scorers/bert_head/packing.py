"""Many sequences in one encoder pass: bucketed by width, packed end to end, or padded.

The default, "auto", packs a small call (a pass's fixed cost outweighs the rest) and
buckets a large one.

Bucketed (issue 33): each sequence has a row of its own, padded to its length rounded up
to :data:`BUCKET` tokens, and shares a pass only with sequences of that width (so little
is padding). With no other sequence in its row, its computation does not change with
what else is encoded: on ONNX Runtime its vectors are bit for bit those it gets alone, and
stay so with an int8 encoder that scales each token on its own. Short sentences no longer
pay for attention across a long packed row: on the head bench's 594 texts, 3.39 s
against 4.34 s packed (``lab/int8_determinism_probe.py``, 2026-11-27).

Packed (issue 20): sequences laid end to end in rows (best fit, longest first); each
attends only to itself (a block-diagonal attention mask) and counts its positions from
0, so every token gets the vectors it gets alone, up to float rounding (about 1e-6).
Padded: one sequence a row, each pass padded to its longest, the layout before issue 20.

>>> pack_rows([5, 3, 2, 4], width=6)
[[0], [3, 2], [1]]
>>> buckets([3, 17, 5, 20, 40], tokens=48)
[[4], [1], [3], [0, 2]]
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from typing import Any

import numpy as np

#: Layouts of :func:`token_states`: "auto" packs a call of at most :data:`SMALL_CALL`
#: tokens and buckets a larger one.
LAYOUTS = ("auto", "bucketed", "packed", "padded")
#: The most tokens an "auto" call packs: below it a pass costs more than attention across a
#: row (about 2 ms a pass on 2 cores). The safety screen's calls (a reply's sentences and
#: its message) took 66 ms a reply bucketed, 53 packed, 55 with 512 here and 51 with 1,024
#: (bench/bench_safety.py, 2026-11-27, one machine; ±3 ms between runs).
SMALL_CALL = 1024
#: A bucketed sequence's row is its length rounded up to a multiple of this.
BUCKET = 16
#: The most tokens (rows × width) one bucketed pass holds.
PASS_TOKENS = 4096


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


def buckets(lengths: list[int], tokens: int = PASS_TOKENS) -> list[list[int]]:
    """Passes of sequence indices, widest first: each holds sequences of one bucket width
    (:func:`bucket_width`), at most ``tokens`` rows × width (always at least one row)."""
    by_width: dict[int, list[int]] = {}
    for index, length in enumerate(lengths):
        by_width.setdefault(bucket_width(length), []).append(index)
    passes = []
    for width in sorted(by_width, reverse=True):
        members, per = by_width[width], max(1, tokens // width)
        passes += [members[k : k + per] for k in range(0, len(members), per)]
    return passes


def bucket_width(length: int) -> int:
    """The row width of a bucketed sequence of ``length`` tokens: rounded up to :data:`BUCKET`.

    >>> bucket_width(1), bucket_width(16), bucket_width(17)
    (16, 16, 32)
    """
    return -(-max(length, 1) // BUCKET) * BUCKET


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
    model: Any,
    seqs: list[list[int]],
    pad_id: int = 0,
    how: str = "auto",
    batch_rows: int = 32,
) -> Iterator[tuple[int, np.ndarray]]:
    """``(index, token vectors)`` for each of ``seqs``, as each pass finishes.

    A token's vector joins the last layer and the mean of the last four, shape
    ``(len(seq), dim)``. ``seqs`` hold token ids with their special tokens; each
    must fit the position table of ``model`` (a Hugging Face BERT-style encoder);
    ``pad_id`` fills the ends of rows. ``model`` may also be an exported graph with a
    ``states(ids, mask, positions)`` method (:mod:`scorers.bert_head.onnx_model`).
    ``how`` is one of :data:`LAYOUTS`; packed and padded rows run ``batch_rows`` at a
    time, bucketed ones :data:`PASS_TOKENS` tokens at a time, so only one pass's vectors
    are held at once.
    """
    if how not in LAYOUTS:
        raise ValueError(f"unknown layout {how!r}; known: {', '.join(LAYOUTS)}")
    lengths = [len(s) for s in seqs]
    if how == "auto":
        how = "packed" if sum(lengths) <= SMALL_CALL else "bucketed"
    if how == "bucketed":
        passes = [[[i] for i in members] for members in buckets(lengths)]
    else:
        rows = layout(lengths, how == "packed")
        passes = [rows[k : k + batch_rows] for k in range(0, len(rows), batch_rows)]
    import torch

    with torch.inference_mode():
        for chunk in passes:
            width = bucket_width(max(lengths[row[0]] for row in chunk)) if how == "bucketed" else 0
            both = _forward(model, [[seqs[i] for i in row] for row in chunk], pad_id, width)
            for r, row in enumerate(chunk):
                at = 0
                for i in row:
                    yield i, both[r, at : at + lengths[i]]
                    at += lengths[i]


def _forward(model: Any, rows: list[list[list[int]]], pad_id: int, width: int = 0) -> np.ndarray:
    """One encoder pass over rows of sequences, padded to ``width`` (0: the fullest row's);
    ``(rows, width, dim)`` token vectors."""
    import torch

    width = width or max(sum(len(s) for s in row) for row in rows)
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
