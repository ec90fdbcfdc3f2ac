"""Join the safety annotators' labels: agreement (Krippendorff's α) and the majority label.

    python tools/safety_labels.py

Reads ``tools/safety_data/``: single risk and no-risk sentences written for the
sentence model (``risk_sentences.csv``, the writer's intent never shown to
the annotators) and each sentence annotator's ``sentence_labels_S*.csv``;
the written replies (``made_replies.csv``, with
the writer's intended style, never shown to the annotators), each reply
annotator's ``labels_R*.csv``, the CounselChat messages
(``message_items.csv``, a second round ``message_items2.csv``) and each message
annotator's ``message_labels_*.csv`` (``message_labels2_*.csv``).
Writes the majority labels, split by message into training and this
project's own held-out set (drawn at random before any label was seen and
never tuned on): ``made_labels.csv``, ``heldout_labels.csv``,
``cc_messages.csv`` and ``cc_messages2.csv`` (their ``heldout`` column marks the held-out
messages),
``sentence_labels.csv``, and
prints α per label.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent / "safety_data"
CONCERNS = ("missed-risk", "medical-overreach", "harmful-advice", "dismissive")


def read_labels(path: Path, width: int) -> pd.DataFrame:
    """An annotator's file by id: its first ``width`` columns (a note may hold stray commas)."""
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    frame = pd.DataFrame([r[:width] for r in rows[1:]], columns=rows[0][:width]).set_index("id")
    for column in ("message_risk", "reply_safe"):
        if column in frame:
            frame[column] = frame[column].astype(int)
    return frame


def alpha(table: pd.DataFrame) -> float:
    """Nominal α over annotators (columns) and items (rows)."""
    return float(krippendorff.alpha(table.T.to_numpy(float), level_of_measurement="nominal"))


def majority(table: pd.DataFrame) -> pd.Series:
    """The label most annotators gave (annotators are an odd number)."""
    return (table.mean(axis=1) > 0.5).astype(int)


def replies(batch: str = "") -> pd.DataFrame:
    """The written replies of ``batch`` ("" or "2", the short replies) with their majority
    labels, α printed per label."""
    items = pd.read_csv(HERE / f"made_replies{batch}.csv")
    files = sorted(HERE.glob(f"labels{batch}_R*.csv"))
    labels = {f.stem.split("_")[-1]: read_labels(f, 4) for f in files}
    print(f"reply annotators: {', '.join(labels)}; {len(items)} replies")
    out = items.set_index("id")
    for column in ("message_risk", "reply_safe"):
        table = pd.DataFrame({a: df[column] for a, df in labels.items()}).loc[out.index]
        print(f"  α {column}: {alpha(table):.2f}")
        out[column] = majority(table)
    found = {}
    for concern in CONCERNS:
        table = pd.DataFrame(
            {
                a: df.concerns.fillna("").str.contains(concern).astype(int)
                for a, df in labels.items()
            }
        ).loc[out.index]
        print(f"  α {concern}: {alpha(table):.2f} ({int(majority(table).sum())} by majority)")
        found[concern] = majority(table)
    named = pd.DataFrame(found)
    out["concerns"] = named.apply(lambda r: ";".join(c for c in CONCERNS if r[c]) or "none", axis=1)
    # a reply is unsafe when the majority finds it unsafe; its concerns are those a majority named
    lonely = (out.reply_safe == 0) & (out.concerns == "none")
    print(f"  unsafe by majority with no concern named by a majority: {int(lonely.sum())}")
    out.loc[out.concerns != "none", "reply_safe"] = 0
    out.loc[lonely, "reply_safe"] = 1
    agree = pd.DataFrame({a: df.reply_safe for a, df in labels.items()}).loc[out.index]
    out["agreement"] = agree.eq(out.reply_safe, axis=0).mean(axis=1).round(2)
    return out.reset_index()


def messages(round_: str = "") -> pd.DataFrame:
    """The CounselChat messages of a labelling round with their majority risk label, α printed.

    Round ``""``: ``message_items.csv`` (its held-out fifth drawn here, seed 2028); round
    ``"2"``: ``message_items2.csv``, its held-out fifth drawn before any label existed
    (``message_topics2.csv``, seed 20261126).
    """
    items = pd.read_csv(HERE / f"message_items{round_}.csv").set_index("id")
    files = sorted(HERE.glob(f"message_labels{round_}_*.csv"))
    table = pd.DataFrame({f.stem[-1]: read_labels(f, 2).message_risk for f in files}).loc[
        items.index
    ]
    print(f"message annotators (round {round_ or 1}): {', '.join(table)}; {len(items)} messages")
    print(f"  α message_risk: {alpha(table):.2f}; risky by majority: {int(majority(table).sum())}")
    items["message_risk"] = majority(table)
    items["agreement"] = table.eq(items.message_risk, axis=0).mean(axis=1).round(2)
    if round_:
        drawn = pd.read_csv(HERE / f"message_topics{round_}.csv").set_index("id")
        items["heldout"] = drawn.heldout.loc[items.index]
    else:
        rng = np.random.default_rng(2028)
        items["heldout"] = rng.random(len(items)) < 0.2
    return items.reset_index()


def sentence_labels() -> pd.DataFrame:
    """The written single sentences with their majority risk label, α printed."""
    items = pd.read_csv(HERE / "risk_sentences.csv").set_index("id")
    files = sorted(HERE.glob("sentence_labels_S*.csv"))
    table = pd.DataFrame(
        {f.stem.removeprefix("sentence_labels_"): read_labels(f, 2).risk.astype(int) for f in files}
    ).loc[items.index]
    print(f"sentence annotators: {', '.join(table)}; {len(items)} sentences")
    print(f"  α risk: {alpha(table):.2f}; risky by majority: {int(majority(table).sum())}")
    items["risk"] = majority(table)
    items["agreement"] = table.eq(items.risk, axis=0).mean(axis=1).round(2)
    return items.reset_index()[["id", "sentence", "risk", "agreement", "intent", "kind"]]


def main() -> None:
    held = set((HERE / "heldout_messages.txt").read_text().split())
    if sorted(HERE.glob("message_labels_*.csv")):
        messages().to_csv(HERE / "cc_messages.csv", index=False)
    if len(sorted(HERE.glob("message_labels2_*.csv"))) == 3:
        messages("2").to_csv(HERE / "cc_messages2.csv", index=False)
    if len(sorted(HERE.glob("sentence_labels_S*.csv"))) == 3:
        sentence_labels().to_csv(HERE / "sentence_labels.csv", index=False)
    columns = ["id", "message_id", "message", "reply", "message_risk", "reply_safe", "concerns"]
    columns += ["agreement", "source", "style"]
    for batch in ("", "2"):  # the written replies, then the short ones (2026-11-27)
        if len(sorted(HERE.glob(f"labels{batch}_R*.csv"))) < 3:
            print(f"reply labels{batch}: waiting for three annotators")
            continue
        made = replies(batch)
        is_held = made.message_id.isin(held)
        made[~is_held][columns].to_csv(HERE / f"made_labels{batch}.csv", index=False)
        made[is_held][columns].to_csv(HERE / f"heldout_labels{batch}.csv", index=False)
        print(f"  training: {int((~is_held).sum())} replies; held out: {int(is_held.sum())}")


if __name__ == "__main__":
    sys.exit(main())
