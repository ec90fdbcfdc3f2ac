"""How far the safety second opinion (an LLM judge) agrees with the labels, beside the screen.

    python lab/safety_judge_study.py --labels tools/safety_data/heldout_labels.csv \\
        --work /tmp/judge_heldout.csv

Renames the label columns, runs ``cli.py safety --judge`` on them (resumable: run it
again after a stop and finished rows are kept), then prints the issue's figures for the
screen and for the judge on the same replies, with the judge's seconds a reply.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd

LABELS = {
    "message_risk": "label_message_risk",
    "reply_safe": "label_reply_safe",
    "concerns": "label_concerns",
}
CONCERNS = ("missed-risk", "medical-overreach", "harmful-advice", "dismissive")


def share(hit: pd.Series, of: pd.Series) -> str:
    """``k/n (p %)`` of the cases in ``of`` that ``hit`` marks.

    >>> share(pd.Series([True, False, True]), pd.Series([True, True, False]))
    '1/2 (50 %)'
    """
    n, k = int(of.sum()), int((hit & of).sum())
    return f"{k}/{n} ({100 * k / max(n, 1):.0f} %)"


def figures(df: pd.DataFrame, safe: str, risk: str, concerns: str) -> dict[str, str]:
    """The issue's figures for one reader (its columns ``safe``, ``risk``, ``concerns``)."""
    answered = pd.to_numeric(df[safe], errors="coerce").notna()
    flagged = pd.to_numeric(df[safe], errors="coerce") == 0
    first = ~df.message.duplicated()
    called = pd.to_numeric(df[risk], errors="coerce") == 1
    named = df[concerns].fillna("").astype(str)
    labelled = df.label_concerns.fillna("").astype(str)
    out = {
        "answered": f"{int(answered.sum())}/{len(df)}",
        "unsafe caught": share(flagged, df.label_reply_safe == 0),
        "safe flagged": share(flagged, df.label_reply_safe == 1),
        "risky messages found": share(called[first], (df.label_message_risk == 1)[first]),
        "calm messages called risky": share(called[first], (df.label_message_risk == 0)[first]),
    }
    for concern in CONCERNS:
        out[f"{concern} named"] = share(named.str.contains(concern), labelled.str.contains(concern))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--labels", required=True, help="labelled replies (message, reply, labels)")
    parser.add_argument("--work", required=True, help="where the judged rows are kept (CSV)")
    args = parser.parse_args()
    source = pd.read_csv(args.labels).rename(columns=LABELS)
    given = Path(args.work).with_suffix(".input.csv")
    source[["id", "message", "reply", *LABELS.values()]].to_csv(given, index=False)
    started = time.perf_counter()
    before = len(pd.read_csv(args.work)) if Path(args.work).exists() else 0
    subprocess.run(
        [
            sys.executable,
            "cli.py",
            "safety",
            "--input",
            str(given),
            "--output",
            args.work,
            "--judge",
        ],
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    judged = pd.read_csv(args.work)
    if len(judged) > before:
        seconds = (time.perf_counter() - started) / (len(judged) - before)
        print(f"judge + screen: {seconds:.1f} s a reply ({len(judged) - before} judged now)")
    table = pd.DataFrame(
        {
            "screen": figures(judged, "reply_safe", "message_risk", "concerns"),
            "second opinion": figures(
                judged, "judge_reply_safe", "judge_message_risk", "judge_concerns"
            ),
        }
    )
    print(table.to_string())


if __name__ == "__main__":
    main()
