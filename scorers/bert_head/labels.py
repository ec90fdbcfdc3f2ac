"""The head's training labels: read and checked, and a short hash that names them.

A head's card records the hash of the rows it was trained on, so the head can
tell which bundled labels it has seen (:meth:`BertHead.seen_ids`).

>>> labels = load_labels(limit=3)
>>> len(labels), len(data_hash(labels))
(3, 16)
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd

from config import RUBRIC_LABELS_CSV
from scorers.base import COMPONENTS


def load_labels(path: Path = RUBRIC_LABELS_CSV, limit: int | None = None) -> pd.DataFrame:
    """The labelled replies (``message, reply, cognitive, emotional, behavioral`` …)."""
    df = pd.read_csv(path)
    missing = {"reply", *COMPONENTS} - set(df.columns)
    if missing:
        raise ValueError(f"{path} lacks the columns {sorted(missing)}")
    if "message" not in df.columns:
        df["message"] = ""
    df = df.dropna(subset=["reply"]).reset_index(drop=True)
    return df.head(limit) if limit else df


def data_hash(df: pd.DataFrame) -> str:
    """A short hash of the training rows, recorded in the card."""
    blob = df[["message", "reply", *COMPONENTS]].to_csv(index=False).encode()
    return hashlib.sha256(blob).hexdigest()[:16]
