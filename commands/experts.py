"""``cli.py experts``: a scorer against experts' ratings of real conversations.

    python cli.py experts                     # ../shared/data/experts/lend_an_ear.csv
    python cli.py experts --input lend_an_ear.csv --judge judge-weighted/local/qwen2.5-coder-1.5b \\
        --last-turn --output report.json
    python cli.py experts --input lend_an_ear.csv --card   # what the app shows and ships by

Every supporter turn is scored with the conversation before it and alone, the turns of a
conversation averaged, and the Spearman correlation with the experts' mean printed with a
bootstrap interval, beside one expert, the crowd and the LLM ratings in the same file.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from commands.common import Subparsers, fail, say
from config import LEND_AN_EAR_CSV


def run(args: argparse.Namespace) -> int:
    """Score the file's conversations, print the table, save the report or the card."""
    from scorers.bert_head.context import EXPERTS_CARD
    from studies import experts_report as report
    from studies.experts import read_rated

    try:
        rated = read_rated(Path(args.input))[: args.limit or None]
        judge = _judge(args.judge)
    except (OSError, ValueError, KeyError) as exc:
        return fail(f"{args.input}: {exc}" if isinstance(exc, OSError) else str(exc), 2)
    say(f"{len(rated)} conversations, rated by {report.WHO}")
    parts = [report.head_rows(*_heads(), rated, resamples=args.boot, progress=_progress)]
    if judge is not None:
        parts.append(
            report.judge_rows(
                judge.id,
                judge,
                rated,
                last_only=args.last_turn,
                resamples=args.boot,
                progress=_progress,
            )
        )
    data = report.report(rated, parts, source=Path(args.input).name, resamples=args.boot)
    data["command"] = _command(args)
    print("\n".join(report.lines(data)))
    out = EXPERTS_CARD if args.card else (Path(args.output) if args.output else None)
    if out is not None:
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        say(f"wrote {out}")
    return 0


def _heads():
    from scorers.bert_head.head import head_reading_turns

    return head_reading_turns(with_model=True), head_reading_turns(with_model=False)


def _judge(judge_id: str | None):
    """The judge to measure too (None without ``--judge``); refuses an unavailable one."""
    if not judge_id:
        return None
    from scorers.registry import get_scorer

    judge = get_scorer(judge_id)
    reason = judge.unavailable_reason()
    if reason:
        raise ValueError(f"{judge.id} is unavailable: {reason}")
    return judge


def _command(args: argparse.Namespace) -> str:
    """The command that made the report, with the file's name only (no local folders)."""
    words = ["python cli.py experts --input", Path(args.input).name]
    words += ["--judge", args.judge] if args.judge else []
    words += ["--last-turn"] if args.last_turn else []
    words += ["--limit", str(args.limit)] if args.limit else []
    return " ".join(words)


def _progress(name: str, done: int, total: int) -> None:
    if done == total or done % 10 == 0:
        say(f"{name}: {done}/{total} conversations")


def add_parser(sub: Subparsers) -> None:
    """Register ``experts``."""
    experts = sub.add_parser(
        "experts", help="a scorer against experts' ratings of real conversations (Lend an Ear)"
    )
    experts.add_argument(
        "--input",
        default=str(LEND_AN_EAR_CSV),
        help="a Lend an Ear CSV (conversation_id, rater, behaviours…); default: the data folder's",
    )
    experts.add_argument(
        "--judge", default=None, help="also measure this judge (slow: ~7 s a turn)"
    )
    experts.add_argument(
        "--last-turn",
        action="store_true",
        help="the judge scores each conversation's last supporter turn only (50 calls, not 315)",
    )
    experts.add_argument("--limit", type=int, default=0, help="the first N conversations only")
    experts.add_argument("--boot", type=int, default=2000, help="bootstrap resamples")
    experts.add_argument("--output", default=None, help="save the report as JSON")
    experts.add_argument(
        "--card",
        action="store_true",
        help="save it as the card the app shows and the ship rule reads",
    )
    experts.set_defaults(func=run)
