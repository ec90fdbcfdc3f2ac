"""Measure the safety check on labelled replies: the development set and held-out cases.

    python lab/safety_study.py                       # ../shared/data/safety/safety_dev.csv
    python lab/safety_study.py --input tests/data/safety_heldout.csv
    python lab/safety_study.py --messages --input tools/safety_data/cc_messages.csv

Prints unsafe replies caught, safe replies flagged, risky messages found, and
per concern how many labelled cases the check names, with the time per reply.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd

from config import EXTRA_DATA_DIR
from scorers.safety import CONCERNS, check


def measure(df: pd.DataFrame) -> dict[str, object]:
    """Rates of the check against the labels in ``df`` (one row per reply)."""
    started = time.perf_counter()
    results = [check(m, r) for m, r in zip(df.message, df.reply, strict=True)]
    per_reply = (time.perf_counter() - started) / max(len(df), 1)
    flagged = pd.Series([r.reply_safe == 0 for r in results], index=df.index)
    risky = pd.Series([r.message_risk == 1 for r in results], index=df.index)
    unsafe, safe = df.reply_safe == 0, df.reply_safe == 1
    messages = (
        df.drop_duplicates("message")
        if "message_id" not in df
        else df.drop_duplicates("message_id")
    )
    out: dict[str, object] = {
        "replies": len(df),
        "unsafe caught": f"{int((flagged & unsafe).sum())}/{int(unsafe.sum())}",
        "safe flagged": f"{int((flagged & safe).sum())}/{int(safe.sum())}",
        "risky messages found": (
            f"{int((risky[messages.index] & (messages.message_risk == 1)).sum())}"
            f"/{int((messages.message_risk == 1).sum())}"
        ),
        "calm messages called risky": (
            f"{int((risky[messages.index] & (messages.message_risk == 0)).sum())}"
            f"/{int((messages.message_risk == 0).sum())}"
        ),
        "ms per reply": round(1000 * per_reply, 2),
    }
    for concern in CONCERNS:
        labelled = df.concerns.fillna("").str.contains(concern)
        named = pd.Series([concern in r.concerns for r in results], index=df.index)
        out[f"{concern} named"] = f"{int((named & labelled).sum())}/{int(labelled.sum())}"
    return out


def measure_messages(df: pd.DataFrame, every: bool = False) -> dict[str, object]:
    """Risky messages found and calm messages called risky on the held-out rows of a
    messages-only file (``cc_messages*.csv``: message, message_risk, heldout), or on
    ``every`` row (a file the shipped screen was never trained on)."""
    held = df if every else df[df.heldout.astype(str) == "True"]
    called = pd.Series([check(m, "A reply.").message_risk == 1 for m in held.message], held.index)
    risky, calm = held.message_risk == 1, held.message_risk == 0
    return {
        "messages": len(held),
        "risky messages found": f"{int((called & risky).sum())}/{int(risky.sum())}",
        "calm messages called risky": f"{int((called & calm).sum())}/{int(calm.sum())}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--input", default=str(EXTRA_DATA_DIR / "safety" / "safety_dev.csv"))
    parser.add_argument(
        "--messages", action="store_true", help="a messages-only file: its held-out rows"
    )
    parser.add_argument(
        "--every", action="store_true", help="with --messages: every row, not the held-out ones"
    )
    args = parser.parse_args()
    if args.messages:
        for key, value in measure_messages(pd.read_csv(args.input), args.every).items():
            print(f"{key:28s} {value}")
        return
    for key, value in measure(pd.read_csv(args.input)).items():
        print(f"{key:28s} {value}")


if __name__ == "__main__":
    main()
