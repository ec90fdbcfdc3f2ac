"""``cli.py perturb`` and ``cli.py robustness``: variants of replies; how scores move under them."""

from __future__ import annotations

import argparse
import sys

from commands.common import Subparsers, comma_list, fail, load_replies, say
from core.progress import terminal_progress
from core.tables import TableWriter
from responders.base import Responder
from responders.registry import LOCAL_DEFAULT
from studies import robustness as rb


def rewriter_for(spec: str) -> Responder | None:
    from studies.robustness import find_rewriter

    responder, reason = find_rewriter(spec)
    if reason:
        print(f"note: rewriter {spec} unavailable ({reason}); using rules", file=sys.stderr)
    return responder


def run_perturb(args: argparse.Namespace) -> int:
    """Write one row per input row × perturbation."""
    from perturbations.registry import resolve

    try:
        rows = load_replies(args.input, None)
        perturbations = resolve(args.perturbations)
        rewriter = rewriter_for(args.rewriter)
    except (ValueError, KeyError) as exc:
        return fail(str(exc.args[0]), 2)
    fields = [*(list(rows[0]) if rows else ["reply"]), "perturbation", "seed", "text", "method"]
    fields.append("paired_message")  # the other person's message (wrong-message control only)
    with TableWriter(args.output, fields) as out:
        for index, row in enumerate(rows):
            for p in perturbations:
                variant = p(
                    row.get("reply") or "",
                    seed=args.seed + index,
                    rewriter=rewriter,
                    message=row.get("message") or None,
                )
                out.write(
                    {
                        **row,
                        "perturbation": p.id,
                        "seed": variant.seed,
                        "text": variant.text,
                        "method": variant.method,
                        "paired_message": variant.message or "",
                    }
                )
            print(f"perturbed {index + 1}/{len(rows)}", file=sys.stderr)
    print(f"wrote {len(rows) * len(perturbations)} rows to {args.output}", file=sys.stderr)
    return 0


def run_robustness(args: argparse.Namespace) -> int:
    """Run every perturbation over many replies and report how scores move."""
    from perturbations.registry import resolve
    from scorers.base import ScoreItem
    from scorers.registry import get_scorer

    try:
        rows = load_replies(args.input, args.limit)
        perturbations = resolve(args.perturbations)
        scorers = [get_scorer(s) for s in args.scorers]
        rewriter = rewriter_for(args.rewriter)
    except (ValueError, KeyError) as exc:
        return fail(str(exc.args[0]), 2)
    for scorer in scorers:
        reason = scorer.unavailable_reason()
        if reason:
            return fail(f"{scorer.id} is unavailable: {reason}", 2)
    items = [ScoreItem(r.get("reply") or "", r.get("message") or None) for r in rows]
    with terminal_progress("robustness") as progress:
        report = rb.run_robustness(
            items, perturbations, scorers, seed=args.seed, rewriter=rewriter, progress=progress
        )
    rb.write_report(report, args.output)
    print(f"{'perturbation':20s} {'scorer':36s} {'mean Δ':>7s} {'mean |Δ|':>8s} {'moved':>6s}")
    for row in report:
        if row["component"] == "overall":
            print(
                f"{row['perturbation']:20s} {row['scorer']:36s} {row['mean_change']:7.3f} "
                f"{row['mean_abs_change']:8.3f} {row['share_overall_moved']:6.2f}"
            )
    say(f"wrote {len(report)} rows to {args.output}")
    return 0


def add_parser(sub: Subparsers) -> None:
    """Register ``perturb`` and ``robustness``."""
    perturb = sub.add_parser("perturb", help="write perturbed variants of replies")
    perturb.add_argument("--input", required=True, help="CSV with a 'reply' column")
    perturb.add_argument("--perturbations", default="all", help="'all' or comma-separated ids")
    perturb.add_argument("--seed", type=int, default=0)
    perturb.add_argument("--output", required=True)
    perturb.add_argument(
        "--rewriter",
        default=LOCAL_DEFAULT,
        help="responder for LLM rewrites, or 'none' for the rules",
    )
    perturb.set_defaults(func=run_perturb)

    robust = sub.add_parser("robustness", help="how scores move under perturbations")
    robust.add_argument("--input", default=None, help="CSV of replies (default: 100 bundled)")
    robust.add_argument(
        "--scorers", type=comma_list, default=["bert-head"], help="comma-separated scorer ids"
    )
    robust.add_argument("--perturbations", default="all")
    robust.add_argument("--seed", type=int, default=0)
    robust.add_argument("--limit", type=int, default=None, help="use only the first N replies")
    robust.add_argument(
        "--rewriter", default="none", help="responder for LLM rewrites (default: rules, fast)"
    )
    robust.add_argument("--output", required=True)
    robust.set_defaults(func=run_robustness)
