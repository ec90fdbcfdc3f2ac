"""Empathy Lab from the command line: the same study functions the pages call.

    python cli.py generate --responder local/qwen2.5-coder-1.5b --message "I feel alone"
    python cli.py responders
    python cli.py score --scorer bert-head --input in.csv --output out.csv
    python cli.py safety --input in.csv --output safety.csv
    python cli.py safety-rates --input labelled.csv
    python cli.py train-head --data ../shared/data/rubric_labels/rubric_labels.csv
    python cli.py flags --output copy.csv
    python cli.py perturb --input in.csv --perturbations all --seed 0 --output out.csv
    python cli.py robustness --scorers bert-head,bert-head+normalize --seed 0 --output report.csv
    python cli.py round create --question-id 839 --responders local/qwen2.5-coder-1.5b
    python cli.py votes summary --round K7Q2 --output results.csv
    python cli.py batch --n 20 --responders local,human/counselchat --output runs/small
    python cli.py align --bundled rubric-labels --scorer bert-head --output report.json
    python cli.py pairwise --judge judge/local/qwen2.5-coder-1.5b --n 5
    python cli.py story-rate --judge judge/local/qwen2.5-coder-1.5b --input stories.csv --output out.csv
    python cli.py resonance --method embedding --input pairs.csv --output out.csv
    python cli.py experts --judge judge-weighted/local/qwen2.5-coder-1.5b --last-turn

Each command lives in ``commands/<name>.py`` (the twin of a page). Replies
go to stdout, errors to stderr with a non-zero exit code (1: the call
failed, 2: bad input or an unavailable responder or scorer).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from commands import (
    align,
    batch,
    experts,
    flags,
    generate,
    pairwise,
    ratings,
    resonance,
    robustness,
    safety,
    safety_rates,
    score,
    stories,
    train_head,
    votes,
)

#: One module per study; each registers its sub-commands with ``add_parser``.
COMMANDS = (
    generate,
    score,
    train_head,
    robustness,
    flags,
    votes,
    batch,
    align,
    experts,
    pairwise,
    stories,
    resonance,
    safety,
    safety_rates,
    ratings,
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-command per task."""
    parser = argparse.ArgumentParser(prog="cli.py", description="Empathy Lab command line")
    sub = parser.add_subparsers(dest="command", required=True)
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
