"""Empathy Lab from the command line: the same functions the pages call.

    python cli.py generate --responder local/qwen2.5-coder-1.5b --message "I feel alone"
    python cli.py responders
    python cli.py score --scorer bert-head --input in.csv --output out.csv
    python cli.py train-head --data ../shared/data/rubric_labels/rubric_labels.csv
    python cli.py flags --output copy.csv
    python cli.py perturb --input in.csv --perturbations all --seed 0 --output out.csv
    python cli.py robustness --scorers bert-head,bert-head+normalize --seed 0 --output report.csv

Replies go to stdout, errors to stderr with a non-zero exit code
(1: the call failed, 2: bad input or an unavailable responder).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np

from config import (
    ASSETS_DIR,
    DEFAULT_MAX_TOKENS,
    DEFAULT_SYSTEM_PROMPT,
    DEFAULT_TEMPERATURE,
    RUBRIC_LABELS_CSV,
    SETTINGS,
)
from responders.base import ResponderError, ResponderUnavailable
from responders.registry import default_responder_ids, get_responder
from textinput import InputError


def say(text: str) -> None:
    """Progress for people: to stderr, at once."""
    print(text, file=sys.stderr, flush=True)


def _fail(message: str, code: int) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def cmd_generate(args: argparse.Namespace) -> int:
    """Stream one responder's reply to stdout."""
    try:
        responder = get_responder(args.responder)
        message = sys.stdin.read() if args.message == "-" else args.message
        generation = responder.generate(
            message,
            system=args.system,
            max_tokens=args.max_tokens,
            temperature=args.temperature,
        )
    except KeyError as exc:
        return _fail(str(exc.args[0]), 2)
    except (InputError, ValueError) as exc:
        return _fail(str(exc), 2)
    except ResponderUnavailable as exc:
        return _fail(f"{args.responder} is unavailable: {exc}", 2)
    try:
        for chunk in generation:
            sys.stdout.write(chunk)
            sys.stdout.flush()
    except ResponderError as exc:
        sys.stdout.write("\n")
        return _fail(f"{args.responder}: {exc}", 1)
    sys.stdout.write("\n")
    reply = generation.reply
    if args.verbose:
        from compare import describe_reply

        print(describe_reply(reply), file=sys.stderr)
        if reply.attribution:
            print(reply.attribution, file=sys.stderr)
    return 0


def cmd_responders(args: argparse.Namespace) -> int:
    """List the default responders and whether each can run here."""
    for rid in default_responder_ids():
        reason = get_responder(rid).unavailable_reason(SETTINGS.keys)
        print(f"{rid:40s} {'ready' if reason is None else reason}")
    return 0


def _read_csv(path: str) -> list[dict[str, str]]:
    """Rows of a UTF-8 CSV file as strings; raises ValueError with a clear message."""
    import csv

    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.DictReader(fh))
    except FileNotFoundError:
        raise ValueError(f"no such file: {path}") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"{path} is not a readable UTF-8 CSV file ({exc})") from None
    return rows


def _load_replies(path: str | None, limit: int | None) -> list[dict[str, str]]:
    """Rows with a ``reply`` (and maybe ``message``): a CSV file or the bundled ones."""
    if path is None:
        from questions import load_questions

        rows = [{"message": q.question, "reply": q.answer} for q in load_questions()]
    else:
        rows = _read_csv(path)
        if rows and "reply" not in rows[0]:
            raise ValueError(f"{path} has no 'reply' column (columns: {', '.join(rows[0])})")
    return rows[:limit] if limit else rows


def _persona(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The judge's reader persona from the command line (None when no part is given)."""
    from scorers.judge import Persona

    shared = None if args.shared_experience is None else args.shared_experience == "yes"
    persona = Persona(args.persona_gender, args.empathic_concern, args.perspective_taking, shared)
    return persona if persona.describe() else None


def cmd_score(args: argparse.Namespace) -> int:
    """Score the ``reply`` column of a CSV file (with ``message`` when present)."""
    import csv

    from scorers.base import COMPONENTS, ScoreItem
    from scorers.registry import get_scorer

    try:
        rows = _load_replies(args.input, None)
        scorer = get_scorer(
            args.scorer,
            samples=args.samples,
            temperature=args.temperature,
            persona=_persona(args),
        )
    except (ValueError, KeyError) as exc:
        return _fail(str(exc.args[0]), 2)
    reason = scorer.unavailable_reason()
    if reason:
        return _fail(f"{args.scorer} is unavailable: {reason}", 2)
    columns = [*COMPONENTS, "overall", "status"]
    fields = list(rows[0]) if rows else ["reply"]
    fields += [c for c in columns if c not in fields]
    unscored = 0
    with open(args.output, "w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        for start in range(0, len(rows), args.batch_size):
            batch = rows[start : start + args.batch_size]
            items = [ScoreItem(r.get("reply") or "", r.get("message") or None) for r in batch]
            scores = scorer.score_many(items)
            for offset, (row, score) in enumerate(zip(batch, scores, strict=True)):
                values = score.components()
                row.update({k: "" if v is None else f"{v:.4f}" for k, v in values.items()})
                row["status"] = score.status
                if not score.ok:
                    unscored += 1
                    line = start + offset + 2  # the header is line 1
                    print(f"line {line}: unscored: {score.reason}", file=sys.stderr)
                writer.writerow(row)
            out.flush()
            print(f"scored {min(start + args.batch_size, len(rows))}/{len(rows)}", file=sys.stderr)
    print(f"wrote {len(rows)} rows to {args.output} ({unscored} unscored)", file=sys.stderr)
    return 0


def cmd_train_head(args: argparse.Namespace) -> int:
    """Train the BERT head, report cross-validated metrics, and save it with its card."""
    from pathlib import Path

    from scorers import head_training as ht
    from scorers.bert_head import FeatureRecipe, read_head, save_head
    from scorers.encoder import load_encoder

    try:
        labels = ht.load_labels(Path(args.data), limit=args.limit)
    except (OSError, ValueError) as exc:
        return _fail(str(exc), 2)
    config = ht.TrainConfig(
        epochs=args.epochs,
        lr=args.lr,
        hidden=args.hidden,
        dropout=args.dropout,
        heads=args.heads,
        seed=args.seed,
    )
    encoder = load_encoder(args.encoder)
    say(f"{len(labels)} labelled replies; encoder {encoder.name} ({encoder.dim} dims)")
    y = labels[["cognitive", "emotional", "behavioral"]].to_numpy(dtype=np.float32)
    recipes = [FeatureRecipe(use_message=False), FeatureRecipe(use_message=True)]
    if args.recipe != "select":
        recipes = [FeatureRecipe(use_message=args.recipe == "pair")]
    search: dict[str, object] = {}
    best = None
    for recipe in recipes:
        name = "pair" if recipe.use_message else "reply"
        say(f"encoding ({name} input) …")
        x = ht.featurize(encoder, recipe, labels)
        say(f"{args.folds}-fold cross-validation ({name} input) …")
        cv = ht.cross_validate(x, y, config, folds=args.folds, progress=say)
        search[name] = cv
        _print_metrics(f"cross-validated, {name} input", cv)
        if best is None or cv["overall"]["mse"] < best[2]["overall"]["mse"]:
            best = (recipe, x, cv)
    recipe, x, cv = best
    say("training the final head on every row …")
    nets = ht.train_ensemble(x, y, config)
    out_dir = Path(args.output_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    card = ht.build_card(
        encoder, recipe, config, labels, cv, None, args.encoder, search if len(search) > 1 else None
    )
    weights = save_head(nets, card, out_dir)
    if args.checks:
        head = read_head(weights, out_dir / "bert_head.json", encoder)
        card["external_checks"] = ht.external_checks(head, labels, progress=say)
        for name, result in card["external_checks"].items():
            print(f"{name}: Spearman {result['spearman']:.3f} (n={result['n']})")
        save_head(nets, card, out_dir)
    print(f"saved {weights} and {out_dir / 'bert_head.json'}")
    return 0


def cmd_flags(args: argparse.Namespace) -> int:
    """Export the flag log after checking every row."""
    from pathlib import Path

    from flagging import FlagLog, FlagLogError

    log = FlagLog(Path(args.flag_dir) if args.flag_dir else None)
    try:
        count = log.export(Path(args.output))
    except FlagLogError as exc:
        return _fail(str(exc), 2)
    except OSError as exc:
        return _fail(f"could not write {args.output}: {exc.strerror or exc}", 1)
    print(f"exported {count} flagged case(s) from {log.path} to {args.output}")
    return 0


def _rewriter(spec: str):  # type: ignore[no-untyped-def]
    from perturbations.rewrite import find_rewriter

    responder, reason = find_rewriter(spec)
    if reason:
        print(f"note: rewriter {spec} unavailable ({reason}); using rules", file=sys.stderr)
    return responder


def cmd_perturb(args: argparse.Namespace) -> int:
    """Write one row per input row × perturbation."""
    import csv

    from perturbations.registry import resolve

    try:
        rows = _load_replies(args.input, None)
        perturbations = resolve(args.perturbations)
        rewriter = _rewriter(args.rewriter)
    except (ValueError, KeyError) as exc:
        return _fail(str(exc.args[0]), 2)
    fields = [*(list(rows[0]) if rows else ["reply"]), "perturbation", "seed", "text", "method"]
    with open(args.output, "w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        for index, row in enumerate(rows):
            for p in perturbations:
                variant = p(row.get("reply") or "", seed=args.seed + index, rewriter=rewriter)
                writer.writerow(
                    {
                        **row,
                        "perturbation": p.id,
                        "seed": variant.seed,
                        "text": variant.text,
                        "method": variant.method,
                    }
                )
            out.flush()
            print(f"perturbed {index + 1}/{len(rows)}", file=sys.stderr)
    print(f"wrote {len(rows) * len(perturbations)} rows to {args.output}", file=sys.stderr)
    return 0


def cmd_robustness(args: argparse.Namespace) -> int:
    """Run every perturbation over many replies and report how scores move."""
    import robustness as rb
    from perturbations.registry import resolve
    from scorers.base import ScoreItem
    from scorers.registry import get_scorer

    try:
        rows = _load_replies(args.input, args.limit)
        perturbations = resolve(args.perturbations)
        scorers = [get_scorer(s) for s in args.scorers.split(",") if s.strip()]
        rewriter = _rewriter(args.rewriter)
    except (ValueError, KeyError) as exc:
        return _fail(str(exc.args[0]), 2)
    for scorer in scorers:
        reason = scorer.unavailable_reason()
        if reason:
            return _fail(f"{scorer.id} is unavailable: {reason}", 2)
    items = [ScoreItem(r.get("reply") or "", r.get("message") or None) for r in rows]
    variants = rb.perturb_items(
        items, perturbations, seed=args.seed, rewriter=rewriter, progress=say
    )
    report = rb.summarise(rb.score_changes(items, variants, scorers, progress=say))
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


def cmd_check_head(args: argparse.Namespace) -> int:
    """Re-measure the shipped head against the Welivita and EPITOME ratings; update its card."""
    import json

    from scorers import head_training as ht
    from scorers.bert_head import HEAD_CARD, load_head

    head = load_head()
    labels = ht.load_labels()
    checks = ht.external_checks(head, labels, progress=say)
    for name, result in checks.items():
        print(f"{name}: Spearman {result['spearman']:.3f} (n={result['n']})")
    card = json.loads(HEAD_CARD.read_text(encoding="utf-8"))
    card["external_checks"] = checks
    HEAD_CARD.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    print(f"updated {HEAD_CARD}")
    return 0


def _print_metrics(title: str, table: dict[str, dict[str, float]]) -> None:
    print(title)
    print(f"  {'':11s} {'MSE':>6s} {'Pearson':>8s} {'Spearman':>9s}")
    for name, row in table.items():
        print(f"  {name:11s} {row['mse']:6.3f} {row['pearson']:8.3f} {row['spearman']:9.3f}")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-command per task."""
    parser = argparse.ArgumentParser(prog="cli.py", description="Empathy Lab command line")
    sub = parser.add_subparsers(dest="command", required=True)

    gen = sub.add_parser("generate", help="print one responder's reply to a message")
    gen.add_argument("--responder", required=True, help="e.g. local/qwen2.5-coder-1.5b")
    gen.add_argument("--message", required=True, help="the person's message ('-' reads stdin)")
    gen.add_argument("--system", default=DEFAULT_SYSTEM_PROMPT, help="system prompt")
    gen.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS)
    gen.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE)
    gen.add_argument("-v", "--verbose", action="store_true", help="latency and tokens to stderr")
    gen.set_defaults(func=cmd_generate)

    lst = sub.add_parser("responders", help="list responders and what each needs")
    lst.set_defaults(func=cmd_responders)

    score = sub.add_parser("score", help="score the replies in a CSV file")
    score.add_argument("--scorer", required=True, help="bert-head or judge/<responder id>")
    score.add_argument("--input", required=True, help="CSV with a 'reply' column (and 'message')")
    score.add_argument("--output", required=True, help="CSV to write: input + scores")
    score.add_argument("--samples", type=int, default=1, help="judge samples per reply")
    score.add_argument("--temperature", type=float, default=0.0, help="judge temperature")
    score.add_argument("--persona-gender", default=None, help="judge reads as, e.g., 'woman'")
    score.add_argument("--empathic-concern", choices=["low", "high"], default=None)
    score.add_argument("--perspective-taking", choices=["low", "high"], default=None)
    score.add_argument(
        "--shared-experience",
        choices=["yes", "no"],
        default=None,
        help="the reader has (not) been through something like the writer",
    )
    score.add_argument("--batch-size", type=int, default=32)
    score.set_defaults(func=cmd_score)

    train = sub.add_parser("train-head", help="train the BERT empathy head")
    train.add_argument("--data", default=str(RUBRIC_LABELS_CSV), help="labelled replies CSV")
    train.add_argument("--encoder", default=None, help="a local HF model folder (default: MiniLM)")
    train.add_argument(
        "--recipe",
        choices=["select", "reply", "pair"],
        default="reply",
        help="reply alone (default: what cross-validation preferred), message + reply, "
        "or select: cross-validate both and keep the better",
    )
    train.add_argument("--epochs", type=int, default=100)
    train.add_argument("--lr", type=float, default=5e-4)
    train.add_argument("--hidden", type=int, default=512)
    train.add_argument("--dropout", type=float, default=0.5)
    train.add_argument("--heads", type=int, default=3, help="ensemble size")
    train.add_argument("--folds", type=int, default=5)
    train.add_argument("--seed", type=int, default=0)
    train.add_argument("--limit", type=int, default=None, help="use only the first N rows")
    train.add_argument("--output-dir", default=str(ASSETS_DIR))
    train.add_argument(
        "--no-checks",
        dest="checks",
        action="store_false",
        help="skip the Welivita and EPITOME checks",
    )
    train.set_defaults(func=cmd_train_head)

    perturb = sub.add_parser("perturb", help="write perturbed variants of replies")
    perturb.add_argument("--input", required=True, help="CSV with a 'reply' column")
    perturb.add_argument("--perturbations", default="all", help="'all' or comma-separated ids")
    perturb.add_argument("--seed", type=int, default=0)
    perturb.add_argument("--output", required=True)
    perturb.add_argument(
        "--rewriter",
        default="local/qwen2.5-coder-1.5b",
        help="responder for LLM rewrites, or 'none' for the rules",
    )
    perturb.set_defaults(func=cmd_perturb)

    robust = sub.add_parser("robustness", help="how scores move under perturbations")
    robust.add_argument("--input", default=None, help="CSV of replies (default: 100 bundled)")
    robust.add_argument("--scorers", default="bert-head", help="comma-separated scorer ids")
    robust.add_argument("--perturbations", default="all")
    robust.add_argument("--seed", type=int, default=0)
    robust.add_argument("--limit", type=int, default=None, help="use only the first N replies")
    robust.add_argument(
        "--rewriter", default="none", help="responder for LLM rewrites (default: rules, fast)"
    )
    robust.add_argument("--output", required=True)
    robust.set_defaults(func=cmd_robustness)

    check = sub.add_parser("check-head", help="re-measure the shipped head on held-out ratings")
    check.set_defaults(func=cmd_check_head)

    flags = sub.add_parser("flags", help="export the flag log")
    flags.add_argument("--output", required=True, help="where to write the copy")
    flags.add_argument("--flag-dir", default=None, help="the log's folder (default: flagged/)")
    flags.set_defaults(func=cmd_flags)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
