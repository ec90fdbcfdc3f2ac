"""The labelled data sets, read once each way: as tidy frames every layer can use.

Studies turn them into :class:`studies.labelled.LabelledSet`; the head's
training reads the same frames for its checks against people. Which files
ship and which are optional is in ``assets/data/README.md``.

>>> wel = welivita_long()
>>> sorted(wel.kind.unique()), list(wel.columns)
(['chatgpt', 'chatgpt_empathy', 'human'], ['dialog_id', 'message', 'reply', 'rating', 'kind'])
"""

from __future__ import annotations

import pandas as pd

from config import EPITOME_DIR, RUBRIC_LABELS_CSV, WELIVITA_CSV

#: Welivita & Pu's three replies per opener, in this order.
WELIVITA_KINDS = ("human", "chatgpt", "chatgpt_empathy")


def rubric_labels() -> pd.DataFrame:
    """The 1,024 rubric-labelled replies (``id, source, source_id, message, reply`` + scores)."""
    return pd.read_csv(RUBRIC_LABELS_CSV)


def welivita_long() -> pd.DataFrame:
    """One row per rated reply: ``dialog_id, message, reply, rating, kind`` (blank replies dropped)."""
    wel = pd.read_csv(WELIVITA_CSV)
    parts = []
    for kind in WELIVITA_KINDS:
        part = wel[["dialog_id", "speaker_uttr", f"response_{kind}", f"rating_{kind}"]].copy()
        part.columns = ["dialog_id", "message", "reply", "rating"]
        part["kind"] = kind
        parts.append(part)
    df = pd.concat(parts).dropna(subset=["reply", "rating"])
    return df[df.reply.astype(str).str.strip() != ""].reset_index(drop=True)


def epitome_pairs() -> pd.DataFrame:
    """EPITOME replies with both levels: ``id, message, reply, level_er, level_ip`` (0–2).

    Raises FileNotFoundError when the optional set is not installed.
    """
    er = pd.read_csv(EPITOME_DIR / "emotional-reactions-reddit.csv")
    ip = pd.read_csv(EPITOME_DIR / "interpretations-reddit.csv")
    er = er.drop_duplicates(["sp_id", "rp_id"])
    ip = ip.drop_duplicates(["sp_id", "rp_id"])
    df = er.merge(ip[["sp_id", "rp_id", "level"]], on=["sp_id", "rp_id"], suffixes=("_er", "_ip"))
    df = df.dropna(subset=["response_post"]).rename(
        columns={"response_post": "reply", "seeker_post": "message"}
    )
    df["id"] = df.sp_id + "/" + df.rp_id
    return df[["id", "message", "reply", "level_er", "level_ip"]].reset_index(drop=True)
