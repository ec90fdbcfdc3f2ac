"""``cli.py pairwise``: a judge compares replies two at a time, in both orders.

    python cli.py pairwise --judge judge/local/qwen2.5-coder-1.5b \\
        --responders human/counselchat,local/qwen2.5-coder-1.5b --n 5 --output pairs.csv

Replies are generated for the first ``--n`` bundled CounselChat questions
(the therapist's answer for ``human/counselchat``), every pair is judged in
both orders, and the flip rate, the first-position and the longer-reply
win shares, and a Bradley–Terry ranking (bootstrap intervals) are printed.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from commands.common import Subparsers, comma_list, fail, say
from core.numbers import percent
from core.progress import terminal_progress
from core.tables import write_table
from responders.registry import LOCAL_DEFAULT, THERAPIST
from scorers.judge.base import SAMPLED_JUDGE


def run_pairwise_command(args: argparse.Namespace) -> int:
    """Generate, compare in both orders, report bias and a ranking."""
    from core.questions import load_questions
    from scorers.judge.pairwise import PairwiseJudge
    from scorers.registry import judge_responder
    from studies.pairwise import run_pairwise
    from studies.replies import collect_replies

    responder_ids = args.responders
    if len(responder_ids) < 2:
        return fail("give at least two responders, comma-separated", 2)
    if args.n < 1:
        return fail("--n must be at least 1", 2)
    try:
        judge = PairwiseJudge(judge_responder(args.judge))
    except KeyError as exc:
        return fail(str(exc.args[0]), 2)
    reason = judge.unavailable_reason()
    if reason:
        return fail(f"{judge.id} is unavailable: {reason}", 2)
    messages = [q.question for q in load_questions()[: args.n]]
    try:
        with terminal_progress("replies") as progress:
            collected = collect_replies(messages, responder_ids, args.max_tokens, progress)
    except KeyError as exc:
        return fail(str(exc.args[0]), 2)
    for note in collected.failures:
        say(f"note: {note} (left out)")
    replies = collected.replies
    with terminal_progress("pairs") as progress:
        result = run_pairwise(messages, replies, judge, n_boot=args.boot, progress=progress)
    print_result(result)
    if args.output:
        rows = result["rows"]
        write_table(args.output, rows, list(rows[0]) if rows else ["message"])
        say(f"wrote {args.output}")
    if args.json:
        clean = json.loads(json.dumps(result, default=str).replace("NaN", "null"))
        Path(args.json).write_text(json.dumps(clean, indent=2) + "\n", encoding="utf-8")
        say(f"wrote {args.json}")
    return 0


def print_result(result: dict) -> None:
    print(f"{result['judge']}: {len(result['rows'])} pairs, each judged in both orders")
    print(f"  {'':11s} {'flip rate':>10s} {'1st wins':>9s} {'longer wins':>12s}  final verdicts")
    for name, row in result["summary"].items():
        finals = ", ".join(f"{k} {v}" for k, v in sorted(row["final"].items()))
        print(
            f"  {name:11s} {percent(row['flip_rate']):>10s} {percent(row['first_wins']):>9s} "
            f"{percent(row['longer_wins']):>12s}  {finals}"
        )
    print("Bradley–Terry ranking (overall, agreed verdicts only):")
    for row in result["ranking"]:
        print(
            f"  {row['rank']}. {row['item']:32s} {row['strength']:+.2f} "
            f"[{row['low']:+.2f}, {row['high']:+.2f}]  wins {row['wins']}, losses {row['losses']}"
        )


def add_parser(sub: Subparsers) -> None:
    """Register ``pairwise``."""
    p = sub.add_parser("pairwise", help="compare replies two at a time, in both orders")
    p.add_argument("--judge", default=SAMPLED_JUDGE, help="judge/<responder id>")
    p.add_argument(
        "--responders",
        type=comma_list,
        default=[THERAPIST, LOCAL_DEFAULT],
        help="comma-separated responder ids (at least two)",
    )
    p.add_argument("--n", type=int, default=5, help="how many bundled questions")
    p.add_argument(
        "--max-tokens", type=int, default=300, help="reply length cap for generated replies"
    )
    p.add_argument("--boot", type=int, default=200, help="bootstrap resamples for the ranking")
    p.add_argument("--output", help="CSV: one row per pair with both orders' verdicts")
    p.add_argument("--json", help="JSON: rows, bias summary and ranking")
    p.set_defaults(func=run_pairwise_command)
