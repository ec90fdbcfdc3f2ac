"""``cli.py batch`` and ``cli.py batch-report``: run (or continue) a batch; rebuild its report.

    python cli.py batch --n 20 --seed 0 --responders local/qwen2.5-coder-1.5b,human/counselchat \\
        --strategies study,chain-of-empathy --scorers bert-head --max-tokens 200 --output runs/small
    python cli.py batch-report runs/small

Running the same command again continues the run: rows already stored as
ok are not asked again, failed rows are retried. Ctrl-C (or SIGTERM) stops
between rows and keeps every finished row.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

from commands.common import Subparsers, comma_list, fail, say
from config import DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, SETTINGS
from core.progress import terminal_progress
from responders.registry import LOCAL_DEFAULT, THERAPIST

if TYPE_CHECKING:
    from studies.batch.plan import BatchQuestion, BatchSettings


def _plan(args: argparse.Namespace) -> tuple[list[BatchQuestion], BatchSettings]:
    from studies.batch.plan import BatchSettings, bundled_questions, questions_from_csv
    from studies.strategies import parse_strategies

    questions = (
        questions_from_csv(args.input) if args.input else bundled_questions(args.n, args.seed)
    )
    responders, scorers = tuple(args.responders), tuple(args.scorers)
    if not responders:
        raise ValueError("name at least one responder with --responders")
    strategies = tuple(s.id for s in parse_strategies(args.strategies))
    if args.samples < 1 or not 1 <= args.max_tokens <= 8192:
        raise ValueError("--samples must be at least 1 and --max-tokens between 1 and 8192")
    settings = BatchSettings(
        responders, strategies, scorers, args.samples, args.max_tokens, args.temperature
    )
    return questions, settings


@contextlib.contextmanager
def _stop_on_sigterm(stop: threading.Event) -> Iterator[None]:
    """SIGTERM sets the stop flag (finish the rows in flight, keep them) instead of killing."""
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_batch_command(args: argparse.Namespace) -> int:
    """Run or continue a batch, then write its report and print the headline."""
    from studies.batch.run import check_ready, run_batch
    from studies.batch.store import RunMismatch

    try:
        questions, settings = _plan(args)
        reason = check_ready(settings.responders, settings.scorers)
    except (ValueError, KeyError) as exc:
        return fail(str(exc.args[0]), 2)
    if reason:
        return fail(reason, 2)
    stop = threading.Event()
    say(f"batch: {len(questions)} questions → {args.output} ({args.engine} engine)")
    try:
        with _stop_on_sigterm(stop), terminal_progress("batch") as progress:
            outcome = run_batch(
                args.output,
                questions,
                settings,
                engine=args.engine,
                address=args.address,
                concurrency=args.concurrency,
                stop=stop,
                progress=progress,
            )
    except (RunMismatch, ValueError, KeyError) as exc:
        return fail(str(exc.args[0]), 2)
    except KeyboardInterrupt:
        return fail("stopped; every finished row is kept: run the same command to continue", 1)
    say(
        f"{outcome.done} rows made, {outcome.failed} failed, {outcome.skipped} already done, "
        f"{outcome.not_run} not run"
    )
    _report(args.output)
    if not outcome.complete:
        return fail("not every row is done: run the same command again to continue", 1)
    return 0


def _report(folder: str) -> None:
    from reports.batch import write_report

    report = write_report(folder)
    print(report.headline.to_string(index=False))
    say(f"wrote {report.path} (and summary.csv, tests.csv) beside results.csv")


def run_batch_report(args: argparse.Namespace) -> int:
    """Rebuild a run's report from its results."""
    from studies.batch.store import RunMismatch

    try:
        _report(args.folder)
    except (RunMismatch, FileNotFoundError) as exc:
        return fail(str(exc), 2)
    return 0


def add_parser(sub: Subparsers) -> None:
    """Register ``batch`` and ``batch-report``."""
    p = sub.add_parser("batch", help="questions × responders × strategies × scorers, resumable")
    p.add_argument("--n", type=int, default=100, help="bundled questions to draw (default 100)")
    p.add_argument("--seed", type=int, default=0, help="which bundled questions are drawn")
    p.add_argument("--input", default=None, help="CSV with a 'question' column instead")
    p.add_argument(
        "--responders",
        type=comma_list,
        default=[LOCAL_DEFAULT, THERAPIST],
        help="comma-separated responder ids",
    )
    p.add_argument(
        "--scorers", type=comma_list, default=["bert-head"], help="comma-separated; '' for none"
    )
    p.add_argument("--strategies", default="study", help="comma-separated, or 'all'")
    p.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS)
    p.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE)
    p.add_argument("--samples", type=int, default=1, help="replies per question and strategy")
    # Where work runs: the operator's settings (EMPATHY_LAB_BATCH_*, EMPATHY_LAB_RAY_*) are the
    # defaults; the command line is the operator's too. Pages always run locally.
    p.add_argument(
        "--concurrency",
        type=int,
        default=SETTINGS.batch_concurrency,
        help="rows in flight at once (default: EMPATHY_LAB_BATCH_CONCURRENCY or 4)",
    )
    p.add_argument("--engine", choices=["local", "ray"], default=SETTINGS.batch_engine)
    p.add_argument(
        "--address",
        default=SETTINGS.ray_address,
        help="Ray cluster, e.g. ray://head:10001 (needs EMPATHY_LAB_RAY_ALLOW_REMOTE=1)",
    )
    p.add_argument("--output", required=True, help="run folder, e.g. runs/NAME")
    p.set_defaults(func=run_batch_command)

    r = sub.add_parser("batch-report", help="rebuild a batch run's report.html")
    r.add_argument("folder", help="the run folder")
    r.set_defaults(func=run_batch_report)
