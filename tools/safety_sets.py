"""The labelled sets the learned safety screen trains on: where each is and how they load.

Read by ``tools/safety_train.py`` (every fit) and ``tools/safety_reply_sentence_labels.py``
(the replies its annotators read), so neither imports the other for them.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from config import EXTRA_DATA_DIR

HERE = Path(__file__).resolve().parent / "safety_data"
SETS = {
    "dev": EXTRA_DATA_DIR / "safety" / "safety_dev.csv",
    "dev2": EXTRA_DATA_DIR / "safety" / "safety_dev2.csv",
    "made": HERE / "made_labels.csv",
    "made2": HERE / "made_labels2.csv",  # short written replies (2026-11-27)
    "cc": HERE / "cc_messages.csv",  # CounselChat messages with a risk label and no reply
    "cc2": HERE / "cc_messages2.csv",  # a second round of them (2026-11-26)
}


def load_sets(names: list[str]) -> pd.DataFrame:
    """The labelled replies of ``names``, one frame; ``group`` is the message."""
    frames = []
    for name in names:
        if not SETS[name].exists():
            print(f"(skipping {name}: {SETS[name]} not found)")
            continue
        df = pd.read_csv(SETS[name], dtype={"concerns": str})
        if name in ("cc", "cc2"):
            df = df[~df.heldout].assign(reply="", reply_safe=-1, concerns="none")
        df = df.fillna({"concerns": "none"})
        df["set"] = name
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df["group"] = df["message"].str.strip().factorize()[0]
    df["has_reply"] = ~df.set.isin(["cc", "cc2"])
    return df
