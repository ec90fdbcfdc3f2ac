"""``cli.py score``: the input CSV plus each row's scores and status."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from commands.common import Subparsers, add_persona_options, fail, load_replies, persona
from core.tables import TableWriter

if TYPE_CHECKING:
    from scorers.base import Score, Scorer


def run(args: argparse.Namespace) -> int:
    """Score the ``reply`` column of a CSV file (with ``message``, or ``conversation``: the
    turns before the reply, when present)."""
    from scorers.registry import get_scorer

    try:
        rows = load_replies(args.input, None)
        scorer = get_scorer(
            args.scorer, samples=args.samples, temperature=args.temperature, persona=persona(args)
        )
    except (ValueError, KeyError) as exc:
        return fail(str(exc.args[0]), 2)
    reason = scorer.unavailable_reason()
    if reason:
        return fail(f"{args.scorer} is unavailable: {reason}", 2)
    from scorers.rubric import load_rubric

    # score_note says what the scorer set aside (e.g. "injection attempt removed: …").
    columns = [*load_rubric(scorer.rubric_id).names, "status", "score_note"]
    fields = list(rows[0]) if rows else ["reply"]
    fields += [c for c in columns if c not in fields]
    unscored = 0
    with TableWriter(args.output, fields) as out:
        for start in range(0, len(rows), args.batch_size):
            batch = rows[start : start + args.batch_size]
            scores = _score_rows(scorer, batch)
            for offset, (row, score) in enumerate(zip(batch, scores, strict=True)):
                values = score.components()
                row.update({k: "" if v is None else f"{v:.4f}" for k, v in values.items()})
                row["status"] = score.status
                row["score_note"] = score.note or ""
                if not score.ok:
                    unscored += 1
                    line = start + offset + 2  # the header is line 1
                    print(f"line {line}: unscored: {score.reason}", file=sys.stderr)
                out.write(row)
            print(f"scored {min(start + args.batch_size, len(rows))}/{len(rows)}", file=sys.stderr)
    print(f"wrote {len(rows)} rows to {args.output} ({unscored} unscored)", file=sys.stderr)
    return 0


def _score_rows(scorer: Scorer, rows: list[dict[str, str]]) -> list[Score]:
    """Each row's score; a row whose conversation cannot be read is unscored, with why."""
    from core.textinput import InputError
    from scorers.base import Score
    from studies.rows import score_item

    items, refused = [], {}
    for index, row in enumerate(rows):
        try:
            items.append(score_item(row))
        except InputError as exc:
            refused[index] = Score.unscored(scorer.id, str(exc), rubric_id=scorer.rubric_id)
    scored = iter(scorer.score_many(items))
    return [refused[i] if i in refused else next(scored) for i in range(len(rows))]


def add_parser(sub: Subparsers) -> None:
    """Register ``score``."""
    score = sub.add_parser("score", help="score the replies in a CSV file")
    score.add_argument("--scorer", required=True, help="bert-head or judge/<responder id>")
    score.add_argument(
        "--input",
        required=True,
        help="CSV with a 'reply' column and 'message' or 'conversation' (Seeker:/Supporter: "
        "lines or JSON turns ending on the seeker; without a reply, its last supporter turn)",
    )
    score.add_argument("--output", required=True, help="CSV to write: input + scores")
    score.add_argument("--samples", type=int, default=1, help="judge samples per reply")
    score.add_argument("--temperature", type=float, default=0.0, help="judge temperature")
    add_persona_options(score)
    score.add_argument("--batch-size", type=int, default=32)
    score.set_defaults(func=run)
