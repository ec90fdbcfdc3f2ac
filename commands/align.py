"""``cli.py align``: agreement of a scorer with human ratings; optionally calibrate it.

    python cli.py align --bundled welivita --scorer bert-head --output report.json
    python cli.py align --input labelled.csv --scorer judge --human overall=rating --scale 1:5 \\
        --html report.html
    python cli.py align --bundled rubric-labels --sample 120 --scorer judge --calibrate \\
        --save-calibration rubric
"""

from __future__ import annotations

import argparse
from pathlib import Path

from commands.common import Subparsers, fail, say
from config import SCORE_CACHE_DIR, USER_CALIBRATIONS_DIR
from core.progress import terminal_progress
from core.tables import write_table
from studies.labelled import parse_mapping, parse_scale


def load_data(args: argparse.Namespace, rubric_id: str):
    """The labelled set the arguments name (a CSV with a mapping, or a bundled set)."""
    from studies.labelled import from_rows, load_bundled, read_rows

    if args.bundled:
        return load_bundled(args.bundled, args.sample, args.seed)
    if not args.input or not args.human:
        raise ValueError(
            "give --bundled NAME, or --input CSV with at least one --human NAME=COLUMN"
        )
    rows = read_rows(args.input)
    data = from_rows(
        rows,
        parse_mapping(args.human),
        scale=parse_scale(args.scale),
        rubric_id=rubric_id,
        name=Path(args.input).name,
    )
    if args.sample and args.sample < len(data):
        from studies.labelled import subset

        data = subset(data, args.sample, args.seed)
    return data


def write_rows(path: str, rows: list[dict]) -> None:
    """The per-row CSV (ids, human ratings, scorer values, status)."""
    write_table(path, rows)


def print_table(title: str, components: dict) -> None:
    from reports.alignment import table_rows

    print(title)
    print(f"  {'':20s}" + "".join(f"{n:>26s}" for n in components))
    for row in table_rows(components):
        print(f"  {row[0]:20s}" + "".join(f"{c:>26s}" for c in row[1:]))


def run_align(args: argparse.Namespace) -> int:
    """Score the labelled rows, compare with people, write the report(s)."""
    from scorers.registry import get_scorer
    from studies.alignment import checked_resamples
    from studies.labelled import unseen_by

    try:
        checked_resamples(args.boot)
        scorer = get_scorer(args.scorer)
        data = load_data(args, scorer.rubric_id)
        if not args.cross_validated:  # out-of-fold scores are held out already
            data = unseen_by(data, [scorer])
    except (ValueError, KeyError) as exc:
        return fail(str(exc.args[0]), 2)
    reason = scorer.unavailable_reason()
    if reason:
        return fail(f"{scorer.id} is unavailable: {reason}", 2)
    if args.cross_validated and (scorer.id != "bert-head" or data.name != "rubric-labels"):
        return fail("--cross-validated is for --scorer bert-head on --bundled rubric-labels", 2)
    say(f"{len(data)} labelled replies ({data.note}); scorer {scorer.id}")
    report = _report(args, scorer, data)
    if report["n_scored"] == 0:
        return fail(f"nothing could be scored: {report['unscored']}", 1)
    for why, count in report["unscored"].items():
        say(f"note: {count} replies unscored ({why})")
    print_table(
        f"{report['scorer']} on {data.name}: {report['n_scored']}/{report['n_rows']} scored",
        report["components"],
    )
    study = (
        _calibrate(args, scorer, data, report) if args.calibrate or args.save_calibration else None
    )
    _write(args, report, study, {"scorer": scorer.id, "data": data.name})
    return 0


def _report(args: argparse.Namespace, scorer, data) -> dict:  # type: ignore[no-untyped-def]
    """The alignment report: the scorer's values (cached), or the head's out-of-fold ones."""
    from studies import alignment

    cache = None if args.no_cache else SCORE_CACHE_DIR
    with terminal_progress("align") as progress:
        if args.cross_validated:
            values = alignment.head_cross_validated(data, progress=progress)
            return alignment.report_from_values(
                data,
                "bert-head (5-fold, out of fold)",
                "cross-validated",
                values,
                n_boot=args.boot,
                seed=args.seed,
            )
        return alignment.run_alignment(
            data,
            scorer,
            n_boot=args.boot,
            seed=args.seed,
            cache=cache,
            progress=progress,
            cached_only=args.cached_only,
        )


def _calibrate(args: argparse.Namespace, scorer, data, report: dict) -> dict:  # type: ignore[no-untyped-def]
    """Fit a calibration on part of the rows, print before/after on the rest, maybe save it."""
    from studies import alignment

    study = alignment.calibration_study(
        data,
        report,
        test_share=args.test_share,
        seed=args.seed,
        n_boot=args.boot,
        label=args.save_calibration,
    )
    cal = study["calibration"]
    say(f"calibration {cal.name}: fitted on {len(study['fit_rows'])} rows, methods {cal.methods}")
    print_table(f"before calibration, {len(study['test_rows'])} rows it never saw", study["before"])
    print_table("after calibration, same rows", study["after"])
    if args.save_calibration:
        from scorers.calibration import save_calibration

        path = save_calibration(cal, Path(args.calibration_dir))
        say(f"saved {path}; use it as {scorer.id}+calibrated:{cal.name}")
    return study


def _write(args: argparse.Namespace, report: dict, study: dict | None, about: dict) -> None:
    """report.json (and its calibration twin), the per-row CSV and the HTML report."""
    from reports.alignment import report_json, write_html

    if args.output:
        Path(args.output).write_text(report_json(report["components"], **about), encoding="utf-8")
        say(f"wrote {args.output}")
    if study and args.output:
        out = Path(args.output).with_suffix(".calibration.json")
        text = report_json(
            {f"before/{k}": v for k, v in study["before"].items()}
            | {f"after/{k}": v for k, v in study["after"].items()},
            **about,
            calibration=study["calibration"].name,
        )
        out.write_text(text, encoding="utf-8")
        say(f"wrote {out}")
    if args.rows:
        write_rows(args.rows, report["rows"])
        say(f"wrote {args.rows}")
    if args.html:
        write_html(Path(args.html), report, study)
        say(f"wrote {args.html}")


def add_parser(sub: Subparsers) -> None:
    """Register ``align``."""
    p = sub.add_parser("align", help="agreement of a scorer with human ratings (and calibration)")
    p.add_argument(
        "--scorer",
        default="bert-head",
        help="scorer id (e.g. bert-head, judge/local/qwen2.5-coder-1.5b)",
    )
    _add_data_options(p)
    _add_scoring_options(p)
    _add_output_options(p)
    _add_calibration_options(p)
    p.set_defaults(func=run_align)


def _add_data_options(parser: argparse.ArgumentParser) -> None:
    """The labelled rows: a CSV and its rating columns, or a bundled set; a seeded sample."""
    from studies.labelled import BUNDLED

    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--input", help="CSV with a 'reply' column (and 'message'), plus rating columns"
    )
    source.add_argument(
        "--bundled",
        choices=list(BUNDLED),
        help="a bundled labelled set: " + "; ".join(f"{k}: {v}" for k, v in BUNDLED.items()),
    )
    parser.add_argument(
        "--human",
        action="append",
        default=[],
        help="NAME=COLUMN: overall, cognitive, emotional or behavioral (repeatable)",
    )
    parser.add_argument(
        "--scale",
        default="1:3",
        help="the human ratings' scale bottom:top (mapped linearly onto the scorer's)",
    )
    parser.add_argument(
        "--sample", type=int, default=None, help="use N rows drawn at random (seeded)"
    )
    parser.add_argument("--seed", type=int, default=0)


def _add_scoring_options(parser: argparse.ArgumentParser) -> None:
    """The intervals' resamples, the head's out-of-fold scores, and the score cache."""
    parser.add_argument(
        "--boot",
        type=int,
        default=1000,
        help="bootstrap resamples for the 95%% intervals (0: none)",
    )
    parser.add_argument(
        "--cross-validated",
        action="store_true",
        help="bert-head on rubric-labels only: score each reply with heads trained without it "
        "(5 folds; the head's in-sample numbers say little)",
    )
    parser.add_argument(
        "--cached-only",
        action="store_true",
        help="score nothing: report on the rows already in the score cache (a long run still going)",
    )
    parser.add_argument("--no-cache", action="store_true", help="score afresh and keep nothing")


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    """The report's files: JSON, the per-row CSV, HTML."""
    parser.add_argument("--output", help="report.json: one object per compared name")
    parser.add_argument("--rows", help="per-row CSV: human ratings and scorer values")
    parser.add_argument("--html", help="a standalone HTML report with the figures")


def _add_calibration_options(parser: argparse.ArgumentParser) -> None:
    """Fitting a calibration on part of the rows, and saving it."""
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="fit a calibration on part of the rows; before/after on the rest",
    )
    parser.add_argument(
        "--test-share", type=float, default=0.5, help="share of rows the calibration never sees"
    )
    parser.add_argument(
        "--save-calibration", metavar="LABEL", help="save the fitted calibration as LABEL-<hash>"
    )
    parser.add_argument(
        "--calibration-dir", default=str(USER_CALIBRATIONS_DIR), help="where to save it"
    )
