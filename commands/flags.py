"""``cli.py flags``: export the flag log after checking every row."""

from __future__ import annotations

import argparse
from pathlib import Path

from commands.common import Subparsers, fail


def run(args: argparse.Namespace) -> int:
    """Export the flag log after checking every row."""
    from core.flags import FlagLog, FlagLogError

    log = FlagLog(Path(args.flag_dir) if args.flag_dir else None)
    try:
        count = log.export(Path(args.output))
    except FlagLogError as exc:
        return fail(str(exc), 2)
    except OSError as exc:
        return fail(f"could not write {args.output}: {exc.strerror or exc}", 1)
    print(f"exported {count} flagged case(s) from {log.path} to {args.output}")
    return 0


def add_parser(sub: Subparsers) -> None:
    """Register ``flags``."""
    flags = sub.add_parser("flags", help="export the flag log")
    flags.add_argument("--output", required=True, help="where to write the copy")
    flags.add_argument("--flag-dir", default=None, help="the log's folder (default: flagged/)")
    flags.set_defaults(func=run)
