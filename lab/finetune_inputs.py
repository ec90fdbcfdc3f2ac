"""What the fine-tuned cross-encoder reads, and how it trains (a helper, not a script).

Helper module of ``lab/finetune_head.py`` (issue 20); nothing here runs on its own or
ships. Holds the score ``COMPONENTS``, :class:`Variant` and :func:`parse_variant` (what
trains and what the model reads), :class:`TrainConfig` (the settings every variant
shares), :func:`encode` (token ids of (message, reply) pairs or of replies alone) and
:func:`batches` (padded batches of encoded rows).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    import torch

COMPONENTS = ("cognitive", "emotional", "behavioral")


@dataclass(frozen=True)
class Variant:
    """What trains (``layers``: -1 every layer) and what the model reads."""

    name: str
    layers: int
    message: bool = True
    seeds: int = 1


def parse_variant(name: str) -> Variant:
    """A variant from its name (see ``lab/finetune_head.py``'s module doc)."""
    m = re.fullmatch(r"(full|top(\d+))(-reply)?(?:x(\d+))?", name)
    if not m:
        raise ValueError(f"unknown variant {name!r}: full, topK, with -reply and xN")
    layers = -1 if m.group(1) == "full" else int(m.group(2))
    reply_only = m.group(3) is not None
    return Variant(name, layers, not reply_only, int(m.group(4) or 1))


@dataclass(frozen=True)
class TrainConfig:
    """Fixed before any fold was seen; the same for every variant."""

    epochs: int = 8
    batch: int = 16
    lr: float = 5e-5
    head_lr: float = 1e-3
    max_len: int = 320
    warmup: float = 0.1


def encode(tokenizer: Any, df: pd.DataFrame, variant: Variant, cfg: TrainConfig) -> Any:
    """Token ids of (message, reply) pairs, or of replies alone."""
    replies = df["reply"].fillna("").astype(str).tolist()
    if variant.message:
        messages = df["message"].fillna("").astype(str).tolist()
        return tokenizer(messages, replies, truncation="longest_first", max_length=cfg.max_len)
    return tokenizer(replies, truncation=True, max_length=cfg.max_len)


def batches(
    enc: Any, rows: np.ndarray, size: int, tokenizer: Any, device: Any
) -> Iterator[tuple[np.ndarray, dict[str, torch.Tensor]]]:
    """The rows of ``enc`` in chunks of ``size``: each chunk with its padded batch on ``device``."""
    for start in range(0, len(rows), size):
        chunk = rows[start : start + size]
        feats = [{k: enc[k][i] for k in enc} for i in chunk]
        batch = tokenizer.pad(feats, return_tensors="pt")
        yield chunk, {k: v.to(device) for k, v in batch.items()}
