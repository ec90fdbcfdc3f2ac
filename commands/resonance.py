"""``cli.py resonance``, ``resonance-find`` and ``resonance-pairs``: empathic similarity of stories.

python cli.py resonance --method embedding --input pairs.csv --output rated.csv
python cli.py resonance --method judge/local/qwen2.5-coder-1.5b --input pairs.csv --output rated.csv
python cli.py resonance-find --story "When my father died…" --method embedding --top 5
python cli.py resonance-pairs --pairs 10 --seed 0 --output pairs.csv
"""

from __future__ import annotations

import argparse
import json
import statistics

from commands.common import Subparsers, fail, read_csv, say
from core.tables import write_table


def _method(method_id: str, samples: int):
    from scorers.resonance import JudgeResonance, get_resonance_method

    method = get_resonance_method(method_id, samples=samples)
    reason = method.unavailable_reason() if isinstance(method, JudgeResonance) else None
    if reason:
        raise ValueError(f"{method_id} is unavailable: {reason}")
    return method


def run_resonance(args: argparse.Namespace) -> int:
    """Rate the ``story_a, story_b`` pairs of a CSV file; print metrics when labels are there."""
    from core.progress import terminal_progress
    from studies.resonance import metrics_from_rows, rate_pair_rows, write_rows

    try:
        rows = read_csv(args.input)
        missing = [c for c in ("story_a", "story_b") if rows and c not in rows[0]]
        if missing:
            raise ValueError(f"{args.input} has no {' or '.join(missing)} column")
        method = _method(args.method, args.samples)
    except (ValueError, KeyError) as exc:
        return fail(str(exc.args[0]), 2)
    rows = rows[: args.limit] if args.limit else rows
    with terminal_progress("resonance") as progress:
        rated = rate_pair_rows(rows, method, progress)
    write_rows(args.output, rated, judge=method.id != "embedding")
    for line, row in enumerate(rated, start=2):
        if row["status"] != "ok":
            say(f"line {line}: unscored: {row['reason']}")
    gaps = [float(r["order_gap"]) for r in rated if r.get("order_gap")]
    if gaps:
        biased = sum(g >= 1 for g in gaps)
        say(
            f"order gap: mean {statistics.fmean(gaps):.3f} over {len(gaps)} pairs, "
            f"max {max(gaps):.2f}; {biased} pair(s) with a gap of 1 or more (position bias)"
        )
    for row in metrics_from_rows(rated):
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}))
    unscored = sum(r["status"] != "ok" for r in rated)
    say(f"wrote {len(rated)} rows to {args.output} ({unscored} unscored)")
    return 0


def run_find(args: argparse.Namespace) -> int:
    """Print the bundled stories most similar to a story (JSON lines, best first)."""
    from studies.resonance import find_resonant

    try:
        method = _method(args.method, 1)
        matches = find_resonant(args.story, method, top=args.top, shortlist=args.shortlist)
    except (ValueError, KeyError) as exc:
        return fail(str(exc.args[0]), 2)
    for m in matches:
        values = {a: None if v is None else round(v, 3) for a, v in (m.rating.values or {}).items()}
        print(
            json.dumps(
                {
                    "story_id": m.story.story_id,
                    **values,
                    "status": m.rating.status,
                    "order_gap": m.rating.order_gap,
                    "opening": m.story.choice_label,
                }
            )
        )
    return 0


def run_pairs(args: argparse.Namespace) -> int:
    """Write random pairs of bundled stories (with their aspect summaries) to a CSV file."""
    from studies.resonance import bundled_pairs

    rows = bundled_pairs(args.pairs, args.seed)
    write_table(args.output, rows)
    say(f"wrote {len(rows)} pairs of bundled EmpathicStories stories to {args.output}")
    return 0


def add_parser(sub: Subparsers) -> None:
    """Register ``resonance``, ``resonance-find`` and ``resonance-pairs``."""
    rate = sub.add_parser("resonance", help="empathic similarity (1–4) of story pairs")
    rate.add_argument("--method", default="embedding", help="embedding or judge/<responder id>")
    rate.add_argument("--input", required=True, help="CSV with story_a and story_b columns")
    rate.add_argument("--output", required=True, help="CSV to write: input + similarities")
    rate.add_argument("--samples", type=int, default=1, help="judge samples per order")
    rate.add_argument("--limit", type=int, default=None, help="rate only the first N rows")
    rate.set_defaults(func=run_resonance)

    find = sub.add_parser("resonance-find", help="bundled stories most similar to a story")
    find.add_argument("--story", required=True)
    find.add_argument("--method", default="embedding", help="embedding or judge/<responder id>")
    find.add_argument("--top", type=int, default=5)
    find.add_argument("--shortlist", type=int, default=10, help="judge re-ranks this many")
    find.set_defaults(func=run_find)

    pairs = sub.add_parser("resonance-pairs", help="random pairs of bundled stories, as CSV")
    pairs.add_argument("--pairs", type=int, default=10)
    pairs.add_argument("--seed", type=int, default=0)
    pairs.add_argument("--output", required=True)
    pairs.set_defaults(func=run_pairs)
