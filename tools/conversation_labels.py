"""The rated conversation candidates the conversation model learns from (issue 32).

Holds ``DATA`` (``tools/conversation_data/``), ``ROUNDS`` (each round of written
conversations and its annotators' label files), :func:`load_rows` (the candidates with
their annotators' mean labels, and each conversation's turns), :func:`annotator_labels`
and :func:`agreement` (the annotators' ordinal α). ``tools/conversation_train.py``
imports them from here (and ``tools/conversation_heldout2.py`` reads ``DATA`` and
``load_rows`` through it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from core.conversation import Turn
from scorers.base import COMPONENTS

DATA = Path(__file__).resolve().parent / "conversation_data"


#: The rounds of written conversations: file prefix -> its annotators' label files. The
#: second (``more_``, 2026-11-26), third (``r3_``) and fourth (``r4_``, 2026-11-27) rounds are training data
#: only; the held-out sets stay as named.
ROUNDS = {
    "": "labels_K*.csv",
    "more_": "labels_M_K*.csv",
    "r3_": "labels_R3_K*.csv",
    "r4_": "labels_R4_K*.csv",
}


def load_rows() -> tuple[pd.DataFrame, dict[str, list[Turn]]]:
    """Candidates with their annotators' mean labels, and each conversation's turns (every
    round whose three annotators' files are there)."""
    convs, frames = {}, []
    for prefix, pattern in ROUNDS.items():
        if len(sorted(DATA.glob(pattern))) < 3:
            continue
        for line in (DATA / f"{prefix}conversations.jsonl").read_text("utf-8").splitlines():
            c = json.loads(line)
            convs[c["conversation_id"]] = [Turn(t["role"], t["text"]) for t in c["turns"]]
        rows = pd.read_csv(DATA / f"{prefix}candidates.csv")
        mean = annotator_labels(pattern).groupby("candidate_id")[list(COMPONENTS)].mean()
        frames.append(rows.join(mean, on="candidate_id", how="inner").assign(round=prefix or "1"))
    rows = pd.concat(frames, ignore_index=True)
    rows["overall"] = rows[list(COMPONENTS)].mean(axis=1)
    held = set((DATA / "heldout_conversations.txt").read_text().split())
    rows["heldout"] = rows.conversation_id.isin(held)
    return rows, convs


def annotator_labels(pattern: str = "labels_K*.csv") -> pd.DataFrame:
    """Every annotator's labels of one round, one row per (annotator, candidate)."""
    frames = []
    for path in sorted(DATA.glob(pattern)):
        frame = pd.read_csv(path)
        frame["annotator"] = path.stem.removeprefix("labels_")
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def agreement(pattern: str = "labels_K*.csv") -> dict[str, float]:
    """Krippendorff's α (ordinal) per component across one round's annotators."""
    import krippendorff

    labels = annotator_labels(pattern)
    out = {}
    shared = labels.candidate_id.value_counts()
    if (shared >= 2).sum() == 0:
        return {}  # no item rated twice yet
    for c in COMPONENTS:
        table = labels.pivot_table(index="annotator", columns="candidate_id", values=c)
        out[c] = round(
            float(krippendorff.alpha(table.to_numpy(float), level_of_measurement="ordinal")), 3
        )
    return out
