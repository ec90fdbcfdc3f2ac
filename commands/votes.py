"""``cli.py round`` and ``cli.py votes``: prepare blind-vote rounds, export and summarise votes.

python cli.py round create --question-id 839 --responders local/qwen2.5-coder-1.5b --seed 1
python cli.py round create --replies replies.csv        # columns: message, source, reply
python cli.py votes export --output votes.csv
python cli.py votes summary --round K7Q2 --output results.csv
"""

from __future__ import annotations

import argparse
from pathlib import Path

from commands.common import Subparsers, comma_list, fail, read_csv, say
from responders.registry import LOCAL_DEFAULT


def _folder(args: argparse.Namespace) -> Path | None:
    return Path(args.votes_dir) if args.votes_dir else None


def _create_from_replies(args: argparse.Namespace) -> list[str]:
    from studies.votes.rounds import create_round
    from studies.votes.setup import entries_from_rows, score_round

    grouped = entries_from_rows(read_csv(args.replies), args.message or "")
    codes = []
    for message, entries in grouped.items():
        rnd = create_round(message, entries, seed=args.seed, folder=_folder(args))
        if args.scorers:
            rnd = score_round(rnd, args.scorers, folder=_folder(args))
        codes.append(rnd.code)
    return codes


def _create_from_responders(args: argparse.Namespace) -> list[str]:
    from core.progress import terminal_progress
    from studies.votes.setup import make_round, question_by_id

    if args.question_id is not None:
        message = question_by_id(args.question_id).question
    elif args.message:
        message = args.message
    else:
        raise ValueError("give --question-id, --message or --replies")
    with terminal_progress("round") as progress:
        rnd, problems = make_round(
            message,
            args.responders,
            seed=args.seed,
            scorer_ids=args.scorers,
            progress=progress,
            folder=_folder(args),
            max_tokens=args.max_tokens,
            temperature=args.temperature,
        )
    for problem in problems:
        say(f"left out {problem}")
    return [rnd.code]


def run_create(args: argparse.Namespace) -> int:
    """Create one round (or one per message in ``--replies``) and print each code."""
    try:
        codes = _create_from_replies(args) if args.replies else _create_from_responders(args)
    except (ValueError, KeyError) as exc:  # InputError is a ValueError
        return fail(str(exc.args[0]), 2)
    for code in codes:
        print(code)
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Copy the vote log, after checking every row."""
    from core.csvlog import CsvLogError
    from studies.votes.log import VoteLog

    log = VoteLog(_folder(args))
    try:
        count = log.export(Path(args.output))
    except CsvLogError as exc:
        return fail(str(exc), 2)
    except OSError as exc:
        return fail(f"could not write {args.output}: {exc.strerror or exc}", 1)
    print(f"exported {count} vote(s) from {log.path} to {args.output}")
    return 0


def run_summary(args: argparse.Namespace) -> int:
    """Shares, ranking with 95 % intervals and scorer agreement; results CSV to ``--output``."""
    from core.csvlog import CsvLogError
    from reports.votes import write_results
    from studies.votes.log import VoteLog, read_votes
    from studies.votes.rounds import list_rounds
    from studies.votes.tally import tally

    try:
        rows = read_votes(Path(args.votes) if args.votes else VoteLog(_folder(args)).path)
        rounds = {r.code: r for r in list_rounds(_folder(args))}
        results, agreement = tally(rows, rounds, args.round, resamples=args.resamples)
    except (CsvLogError, ValueError) as exc:
        return fail(str(exc), 2)
    if not results:
        return fail("no votes" + (f" for round {args.round}" if args.round else ""), 2)
    try:
        write_results(results, Path(args.output))
    except OSError as exc:
        return fail(f"could not write {args.output}: {exc.strerror or exc}", 1)
    print("source\tstrength\t95% interval\tmost\tleast\tshown")
    for r in results:
        print(
            f"{r.source}\t{r.score:+.2f}\t{r.ci_low:+.2f} to {r.ci_high:+.2f}\t"
            f"{r.most_share:.0%}\t{r.least_share:.0%}\t{r.n}"
        )
    for a in agreement:
        say(
            f"{a.scorer}: top = most in {a.top_match:.0%}, bottom = least in "
            f"{a.bottom_match:.0%} of {a.votes} votes (chance {a.chance:.0%})"
        )
    say(f"wrote {len(results)} sources to {args.output}")
    return 0


def _add_votes_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--votes-dir", default=None, help="rounds and log folder (default: flagged/votes)"
    )


def add_parser(sub: Subparsers) -> None:
    """Register ``round create``, ``votes export`` and ``votes summary``."""
    rounds = sub.add_parser("round", help="prepare blind-vote rounds").add_subparsers(
        dest="round_command", required=True
    )
    create = rounds.add_parser("create", help="create a round and print its code")
    create.add_argument("--question-id", type=int, default=None, help="a bundled question's id")
    create.add_argument("--message", default=None, help="a pasted message instead")
    create.add_argument("--responders", type=comma_list, default=[LOCAL_DEFAULT], help="comma list")
    create.add_argument(
        "--replies", default=None, help="CSV of prepared replies: message,source,reply"
    )
    create.add_argument("--seed", type=int, default=None, help="shuffle seed (default: random)")
    create.add_argument(
        "--scorers", type=comma_list, default=["bert-head"], help="comma list; '' for none"
    )
    create.add_argument("--max-tokens", type=int, default=256)
    create.add_argument("--temperature", type=float, default=0.7)
    _add_votes_dir(create)
    create.set_defaults(func=run_create)

    votes = sub.add_parser("votes", help="export or summarise votes").add_subparsers(
        dest="votes_command", required=True
    )
    export = votes.add_parser("export", help="copy the vote log")
    export.add_argument("--output", required=True)
    _add_votes_dir(export)
    export.set_defaults(func=run_export)
    summary = votes.add_parser("summary", help="shares, ranking with intervals, agreement")
    summary.add_argument("--round", default=None, help="one round's code (default: all)")
    summary.add_argument("--votes", default=None, help="any CSV with round,voter,shown,most,least")
    summary.add_argument("--output", required=True, help="results CSV")
    summary.add_argument("--resamples", type=int, default=500, help="bootstrap resamples")
    _add_votes_dir(summary)
    summary.set_defaults(func=run_summary)
