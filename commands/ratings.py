"""``cli.py ratings``: people's ratings made in the app, as labels a head can be trained on.

    python cli.py ratings export --output clinic_labels.csv
    python cli.py train-head --labels clinic_labels.csv --output-dir my_head

``export`` writes one row per rated reply in the rubric-labels format (``id,
source, source_id, message, reply, cognitive, emotional, behavioral,
n_raters``; each component the mean of its raters) and says how far the
raters agreed. The twin of the Trust page's "Ratings made here".
"""

from __future__ import annotations

import argparse
from pathlib import Path

from commands.common import Subparsers, fail, say


def run_export(args: argparse.Namespace) -> int:
    """Write the ratings as labels."""
    from core.csvlog import CsvLogError
    from core.ratings import RatingLog
    from core.tables import write_table
    from studies.ratings import LABEL_COLUMNS, as_labels, ratings_note

    try:
        ratings = RatingLog(Path(args.folder) if args.folder else None).table()
    except CsvLogError as exc:
        return fail(str(exc), 2)
    if ratings.empty:
        return fail("no ratings made here yet: rate replies on the Compare page first", 2)
    labels = as_labels(ratings)
    write_table(args.output, labels.to_dict("records"), LABEL_COLUMNS)
    say(f"wrote {len(labels)} rated replies to {args.output}; {ratings_note(ratings)}")
    return 0


def add_parser(sub: Subparsers) -> None:
    """Register ``ratings``."""
    ratings = sub.add_parser("ratings", help="people's ratings made in the app")
    actions = ratings.add_subparsers(dest="action", required=True)
    export = actions.add_parser("export", help="write them as labels for train-head --labels")
    export.add_argument("--output", required=True, help="CSV to write (rubric-labels format)")
    export.add_argument(
        "--folder", default=None, help="the ratings log's folder (default: flagged/)"
    )
    export.set_defaults(func=run_export)
