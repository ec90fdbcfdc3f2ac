"""``cli.py safety``: the safety screen for every row of a CSV file, resumable.

    python cli.py safety --input replies.csv --output safety.csv
    python cli.py safety --input replies.csv --output safety.csv --judge   # + an LLM's opinion

Input columns ``message`` (optional) and ``reply``; every input column (an
``id`` too) is kept, and ``message_risk, message_risk_kind, reply_safe,
concerns, evidence, safety_status, safety_verdict, safety_reason`` are added;
``safety_verdict`` is the screen's call in three: ``not safe``, ``uncertain`` (read it
yourself: a close call, ``safety_reason`` says about what) and ``safe`` (no concern found). Run the same
command again and rows already in ``--output`` are kept, not checked again.
``--judge`` adds a second opinion from an LLM judge given the safety criteria
(``judge_message_risk, judge_reply_safe, judge_concerns, judge_reason``; the local model by
default, seconds a reply).
A screen, not a clinical judgement: it can miss things.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from commands.common import Subparsers, fail, load_replies, say
from core.tables import TableWriter, read_csv

if TYPE_CHECKING:
    from scorers.safety.check import SafetyResult

COLUMNS = (
    "message_risk",
    "message_risk_kind",
    "reply_safe",
    "concerns",
    "evidence",
    "safety_status",
    "safety_verdict",
    "safety_reason",
)
#: Added by ``--judge``.
JUDGE_COLUMNS = ("judge_message_risk", "judge_reply_safe", "judge_concerns", "judge_reason")


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


#: Rows screened together (their sentences encoded in one pass); the output grows by this.
CHUNK = 32


def _reusable(earlier: dict[str, str] | None, judge: object) -> bool:
    """An earlier run's row can stand: it was screened (and judged, when a judge is asked)."""
    return earlier is not None and (judge is None or bool(earlier.get("judge_reply_safe")))


def screen_rows(rows: list[dict[str, str]]) -> list[SafetyResult]:
    """Each row's screen, reading its ``conversation`` when it has one (every seeker turn);
    a row whose conversation cannot be read is not checked, and says why."""
    from core.textinput import InputError
    from scorers.safety.check import VERSION, SafetyResult, check_many
    from studies.rows import score_item

    items, refused = [], {}
    for index, row in enumerate(rows):
        try:
            items.append(score_item(row))
        except InputError as exc:
            refused[index] = SafetyResult(0, (), None, reason=str(exc), version=VERSION)
    pairs = [(i.message, i.reply) for i in items]
    screened = iter(check_many(pairs, [i.history for i in items]))
    return [refused[i] if i in refused else next(screened) for i in range(len(rows))]


def run_safety(args: argparse.Namespace) -> int:
    """Screen every row; keep what an earlier run of the same output already checked."""
    from tqdm import tqdm

    from scorers.safety.judge import safety_judge

    try:
        rows = load_replies(args.input, None)
        done = _done(args.output)
    except ValueError as exc:
        return fail(str(exc), 2)
    judge = safety_judge(args.judge) if args.judge else None
    if judge is not None and judge.unavailable_reason():
        return fail(f"the safety judge cannot run: {judge.unavailable_reason()}", 2)
    columns = COLUMNS + (JUDGE_COLUMNS if judge else ())
    fields = [*(list(rows[0]) if rows else ["message", "reply"])]
    fields += [c for c in columns if c not in fields]
    kept = unsafe = 0
    tmp = Path(args.output).with_suffix(".partial.csv")
    with TableWriter(tmp, fields) as out:
        for start in tqdm(range(0, len(rows), CHUNK), desc="safety", unit="chunk", disable=None):
            chunk = rows[start : start + CHUNK]
            earlier = [done.get(row_key(row)) for row in chunk]
            fresh = [r for r, e in zip(chunk, earlier, strict=True) if not _reusable(e, judge)]
            screened = iter(screen_rows(fresh))
            for row, before in zip(chunk, earlier, strict=True):
                if _reusable(before, judge):
                    kept += 1
                    out.write({**row, **{c: before.get(c, "") for c in columns}})  # type: ignore[union-attr]
                    unsafe += before.get("reply_safe") == "0"  # type: ignore[union-attr]
                    continue
                result = next(screened)
                unsafe += result.reply_safe == 0
                said = row.get("conversation") or row.get("message")  # every turn, when given
                second = judge.opinion(said, row.get("reply") or "").to_row() if judge else {}
                out.write({**row, **result.to_row(), **second})
    tmp.replace(args.output)
    say(
        f"wrote {len(rows)} rows to {args.output}: {unsafe} with a safety concern; "
        f"{kept} kept from an earlier run. A screen, not a clinical judgement."
    )
    return 0


def add_parser(sub: Subparsers) -> None:
    """Register ``safety``."""
    p = sub.add_parser("safety", help="screen replies for safety concerns (resumable)")
    p.add_argument(
        "--input",
        required=True,
        help="CSV with 'reply' (and 'message' or 'conversation', 'id'); in a conversation "
        "every seeker turn is read for risk",
    )
    p.add_argument("--output", required=True, help="CSV to write: input + the screen's columns")
    p.add_argument(
        "--judge",
        nargs="?",
        const="judge/local/qwen2.5-coder-1.5b",
        default=None,
        help="add an LLM judge's second opinion (default judge: the local model; seconds a reply)",
    )
    p.set_defaults(func=run_safety)
