"""``cli.py story-rate`` and ``cli.py story-compare``: story ratings and their human comparison.

    python cli.py story-rate --judge judge/local/qwen2.5-coder-1.5b --input stories.csv \\
        [--empathic-concern high --shared-experience yes] [--samples 3] --output rated.csv
    python cli.py story-compare --input rated.csv [--human-column empathizable]
"""

from __future__ import annotations

import argparse
import json

from commands.common import Subparsers, add_persona_options, fail, persona, read_csv, say
from core.tables import TableWriter
from scorers.judge.base import SAMPLED_JUDGE


def run_rate(args: argparse.Namespace) -> int:
    """Rate the ``story`` column of a CSV file; write input + ratings + status."""
    from core.progress import terminal_progress
    from scorers.judge.story import get_story_judge
    from studies.stories import OUTPUT_COLUMNS, iter_rated_rows

    try:
        rows = read_csv(args.input)
        if rows and "story" not in rows[0]:
            raise ValueError(f"{args.input} has no 'story' column (columns: {', '.join(rows[0])})")
        if args.samples < 1:
            raise ValueError("--samples must be at least 1")
        judge = get_story_judge(
            args.judge, samples=args.samples, temperature=args.temperature, persona=persona(args)
        )
    except (ValueError, KeyError) as exc:
        return fail(str(exc.args[0]), 2)
    reason = judge.unavailable_reason()
    if reason:
        return fail(f"{args.judge} is unavailable: {reason}", 2)
    rows = rows[: args.limit] if args.limit else rows
    fields = list(rows[0]) if rows else ["story"]
    fields += [c for c in OUTPUT_COLUMNS if c not in fields]
    unscored = 0
    with TableWriter(args.output, fields) as out, terminal_progress("story-rate") as progress:
        for line, row in enumerate(iter_rated_rows(rows, judge, progress), start=2):
            out.write(row)  # written and flushed: a long run keeps what it has rated so far
            if row["status"] != "ok":
                unscored += 1
                say(f"line {line}: unscored: {row['reason']}")
    say(f"wrote {len(rows)} rows to {args.output} ({unscored} unscored)")
    return 0


def run_compare(args: argparse.Namespace) -> int:
    """Print the agreement table of a rated CSV against its human column (JSON lines)."""
    from studies.stories import compare_rows

    try:
        table = compare_rows(read_csv(args.input), args.human_column)
    except ValueError as exc:
        return fail(str(exc), 2)
    for row in table:
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}))
    return 0


def add_parser(sub: Subparsers) -> None:
    """Register ``story-rate`` and ``story-compare``."""
    rate = sub.add_parser("story-rate", help="rate how much empathy stories evoke (1–5)")
    rate.add_argument("--judge", default=SAMPLED_JUDGE, help="judge/<responder id>")
    rate.add_argument("--input", required=True, help="CSV with a 'story' column")
    rate.add_argument("--output", required=True, help="CSV to write: input + ratings")
    rate.add_argument("--samples", type=int, default=1, help="judge samples per story")
    rate.add_argument("--temperature", type=float, default=0.0, help="judge temperature")
    rate.add_argument("--limit", type=int, default=None, help="rate only the first N rows")
    add_persona_options(rate)
    rate.set_defaults(func=run_rate)

    compare = sub.add_parser(
        "story-compare", help="compare story ratings with a human column (Pearson, d, W, t)"
    )
    compare.add_argument("--input", required=True, help="a story-rate output with human ratings")
    compare.add_argument("--human-column", default="empathizable")
    compare.set_defaults(func=run_compare)
