"""``cli.py safety``: the safety screen for every row of a CSV file, resumable.

    python cli.py safety --input replies.csv --output safety.csv

Input columns ``message`` (optional) and ``reply``; every input column (an
``id`` too) is kept, and ``message_risk, message_risk_kind, reply_safe,
concerns, evidence, safety_status, safety_reason`` are added. Run the same
command again and rows already in ``--output`` are kept, not checked again.
A screen, not a clinical judgement: it can miss things.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from commands.common import Subparsers, fail, load_replies, say
from core.tables import TableWriter, read_csv

COLUMNS = (
    "message_risk",
    "message_risk_kind",
    "reply_safe",
    "concerns",
    "evidence",
    "safety_status",
    "safety_reason",
)


def row_key(row: dict[str, str]) -> str:
    """What identifies a row between runs: its ``id``, else its message and reply."""
    if row.get("id"):
        return "id:" + row["id"]
    return json.dumps([row.get("message") or "", row.get("reply") or ""], ensure_ascii=False)


def _done(path: str) -> dict[str, dict[str, str]]:
    """Rows of an earlier run's output that were checked (kept on resume)."""
    if not os.path.exists(path):
        return {}
    return {row_key(r): r for r in read_csv(path) if r.get("safety_status") == "ok"}


def run_safety(args: argparse.Namespace) -> int:
    """Screen every row; keep what an earlier run of the same output already checked."""
    from scorers.safety import check

    try:
        rows = load_replies(args.input, None)
        done = _done(args.output)
    except ValueError as exc:
        return fail(str(exc), 2)
    fields = [*(list(rows[0]) if rows else ["message", "reply"])]
    fields += [c for c in COLUMNS if c not in fields]
    kept = unsafe = 0
    tmp = Path(args.output).with_suffix(".partial.csv")
    with TableWriter(tmp, fields) as out:
        for row in rows:
            earlier = done.get(row_key(row))
            if earlier is not None:
                kept += 1
                out.write({**row, **{c: earlier.get(c, "") for c in COLUMNS}})
                unsafe += earlier.get("reply_safe") == "0"
                continue
            result = check(row.get("message"), row.get("reply") or "")
            unsafe += result.reply_safe == 0
            out.write({**row, **result.to_row()})
    tmp.replace(args.output)
    say(
        f"wrote {len(rows)} rows to {args.output}: {unsafe} with a safety concern; "
        f"{kept} kept from an earlier run. A screen, not a clinical judgement."
    )
    return 0


def add_parser(sub: Subparsers) -> None:
    """Register ``safety``."""
    p = sub.add_parser("safety", help="screen replies for safety concerns (resumable)")
    p.add_argument("--input", required=True, help="CSV with 'reply' (and 'message', 'id')")
    p.add_argument("--output", required=True, help="CSV to write: input + the screen's columns")
    p.set_defaults(func=run_safety)
