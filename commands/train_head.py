"""``cli.py train-head`` and ``cli.py check-head``: train the BERT head; re-measure the shipped one."""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from commands.common import Subparsers, comma_list, fail, say
from commands.train_head_labels import labels_by, messages, refused_or_warned
from config import RUBRIC_LABELS_CSV

if TYPE_CHECKING:
    import pandas as pd

    from scorers.bert_head.encoder import Encoder
    from scorers.bert_head.head import FeatureRecipe


def run_train(args: argparse.Namespace) -> int:
    """Train the BERT head, report cross-validated metrics, and save it with its card."""
    from scorers.bert_head import training as ht
    from scorers.bert_head.encoder import load_encoder
    from scorers.bert_head.labels import load_labels

    try:
        labels = load_labels(Path(args.data), limit=args.limit)
    except (OSError, ValueError) as exc:
        return fail(str(exc), 2)
    refusal = refused_or_warned(labels, args.folds)
    if refusal:
        return fail(refusal, 2)
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
    recipes = _recipes(args)
    augment = tuple(args.augment)
    quick = ht.TrainConfig(heads=1, epochs=max(1, round(0.6 * args.epochs)), seed=args.seed)
    cv_config = quick if args.cv_quick else config
    search, best = _search(recipes, encoder, labels, y, augment, cv_config, args.folds)
    recipe, x, cv, extra = best
    say("training the final head on every row …")
    xt, yt = (x, y) if extra is None else (np.vstack([x, extra.x]), np.vstack([y, extra.y]))
    nets = ht.train_ensemble(xt, yt, config)
    weights_path, card_path = _output_paths(args)
    card = ht.build_card(
        encoder, recipe, config, labels, cv, None, args.encoder, search if len(search) > 1 else None
    )
    card.update(augmentations=list(augment), cv_config=asdict(cv_config), scorer=args.scorer_id)
    card["label"] = "Empathy head (MiniLM + trained head" + (
        ", reads normalised text)" if recipe.normalize else ", raw text)"
    )
    card["labels_by"] = labels_by(labels)
    _save(args, nets, card, (weights_path, card_path), encoder, labels)
    return 0


def _recipes(args: argparse.Namespace) -> dict[str, FeatureRecipe]:
    """The input recipes ``--recipe`` names (all three for ``select``), read as ``--pooling``
    and ``--no-normalize`` say."""
    from scorers.bert_head.head import FeatureRecipe

    shape = {"pooling": args.pooling, "normalize": args.normalize}
    choices = {
        "reply": FeatureRecipe(False, **shape),
        "pair": FeatureRecipe(True, **shape),
        "interaction": FeatureRecipe(False, interaction=True, **shape),
    }
    return choices if args.recipe == "select" else {args.recipe: choices[args.recipe]}


def _output_paths(args: argparse.Namespace) -> tuple[Path, Path]:
    """Where the head's weights and card go: ``--output-dir`` (made if missing) or the
    shipped head's files."""
    from scorers.bert_head.head import HEAD_CARD, HEAD_WEIGHTS

    if not args.output_dir:
        return HEAD_WEIGHTS, HEAD_CARD
    out_dir = Path(args.output_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    return out_dir / "bert_head.safetensors", out_dir / "bert_head.json"


def _save(
    args: argparse.Namespace,
    nets: list[dict[str, np.ndarray]],
    card: dict[str, Any],
    paths: tuple[Path, Path],
    encoder: Encoder,
    labels: pd.DataFrame,
) -> None:
    """Save the head and its card at ``paths``; unless ``--no-checks``, measure it on the
    Welivita and EPITOME ratings, print the figures and save the card again with them."""
    from scorers.bert_head import training as ht
    from scorers.bert_head.head import read_head, save_head

    weights_path, card_path = paths
    weights = save_head(nets, card, weights_path, card_path)
    if args.checks:
        head = read_head(weights, card_path, encoder)
        card["external_checks"] = ht.external_checks(head, labels, progress=say)
        for name, result in card["external_checks"].items():
            print(f"{name}: Spearman {result['spearman']:.3f} (n={result['n']})")
        save_head(nets, card, weights_path, card_path)
    print(f"saved {weights} and {card_path}")


def _search(recipes, encoder, labels, y, augment, cv_config, folds):  # type: ignore[no-untyped-def]
    """Cross-validate each recipe; returns every result and the best (recipe, x, cv, extra)."""
    from scorers.bert_head import training as ht

    search: dict[str, object] = {}
    best = None
    for name, recipe in recipes.items():
        say(f"encoding ({name} input) …")
        x = ht.featurize(encoder, recipe, labels)
        extra = None
        if augment:
            say(f"encoding variants of every reply: {', '.join(augment)} …")
            extra = ht.augment(encoder, recipe, labels, augment)
        say(f"{folds}-fold cross-validation, a message's replies in one fold ({name} input) …")
        cv = ht.cross_validate(
            x, y, cv_config, folds=folds, progress=say, extra=extra, groups=messages(labels)
        )
        search[name] = cv
        print_metrics(f"cross-validated, {name} input", cv)
        if best is None or cv["overall"]["mse"] < best[2]["overall"]["mse"]:
            best = (recipe, x, cv, extra)
    return search, best


def run_check(args: argparse.Namespace) -> int:
    """Re-measure the shipped head against the Welivita and EPITOME ratings; update its card."""
    import json

    from scorers.bert_head import training as ht
    from scorers.bert_head.head import HEAD_CARD, load_head
    from scorers.bert_head.labels import load_labels

    head = load_head()
    labels = load_labels()
    checks = ht.external_checks(head, labels, progress=say)
    for name, result in checks.items():
        print(f"{name}: Spearman {result['spearman']:.3f} (n={result['n']})")
    card = json.loads(HEAD_CARD.read_text(encoding="utf-8"))
    card["external_checks"] = checks
    HEAD_CARD.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    print(f"updated {HEAD_CARD}")
    return 0


def print_metrics(title: str, table: dict[str, dict[str, float]]) -> None:
    print(title)
    print(f"  {'':11s} {'MSE':>6s} {'Pearson':>8s} {'Spearman':>9s}")
    for name, row in table.items():
        print(f"  {name:11s} {row['mse']:6.3f} {row['pearson']:8.3f} {row['spearman']:9.3f}")


def add_parser(sub: Subparsers) -> None:
    """Register ``train-head`` and ``check-head``."""
    train = sub.add_parser("train-head", help="train the BERT empathy head")
    _add_input_options(train)
    _add_training_options(train)
    _add_output_options(train)
    train.set_defaults(func=run_train)

    check = sub.add_parser("check-head", help="re-measure the shipped head on held-out ratings")
    check.set_defaults(func=run_check)


def _add_input_options(parser: argparse.ArgumentParser) -> None:
    """train-head's labels, encoder and what the head reads (recipe, pooling, text, variants)."""
    parser.add_argument(
        "--data",
        "--labels",
        dest="data",
        default=str(RUBRIC_LABELS_CSV),
        help="labelled replies CSV: reply, message (optional) and cognitive, emotional, "
        "behavioral on 1-3 (e.g. from cli.py ratings export)",
    )
    parser.add_argument("--encoder", default=None, help="a local HF model folder (default: MiniLM)")
    parser.add_argument(
        "--recipe",
        choices=["select", "reply", "pair", "interaction"],
        default="interaction",
        help="reply with its relation to the message (interaction, the shipped head), reply "
        "alone, message + reply vectors, or select: cross-validate all three and keep the best",
    )
    parser.add_argument(
        "--pooling",
        choices=["spans", "sentences"],
        default="sentences",
        help="sentences re-encoded one by one (the shipped head) or pooled from one contextual "
        "pass (spans: faster, a little less accurate)",
    )
    parser.add_argument(
        "--no-normalize",
        dest="normalize",
        action="store_false",
        help="read raw text (the teaching head, bert-head-raw)",
    )
    parser.add_argument(
        "--augment",
        type=comma_list,
        default=[],
        help="meaning-keeping perturbations whose variants of each reply join training, "
        "e.g. shortened,spelling-errors (default none: they cost accuracy)",
    )


def _add_training_options(parser: argparse.ArgumentParser) -> None:
    """train-head's cross-validation, the card's scorer id and the hyper-parameters."""
    parser.add_argument(
        "--cv-quick",
        action="store_true",
        help="cross-validate one head per fold, 60%% of the epochs (about 5x cheaper)",
    )
    parser.add_argument("--scorer-id", default="bert-head", help="the id the card gives the head")
    parser.add_argument("--epochs", type=int, default=100)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--hidden", type=int, default=512)
    parser.add_argument("--dropout", type=float, default=0.5)
    parser.add_argument("--heads", type=int, default=3, help="ensemble size")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None, help="use only the first N rows")


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    """Where train-head saves the head, and whether it checks it on held-out ratings."""
    parser.add_argument(
        "--output-dir",
        default=None,
        help="folder for bert_head.safetensors and bert_head.json (default: the shipped head, "
        "which the app then uses in this copy: give a folder to keep a trial apart)",
    )
    parser.add_argument(
        "--no-checks",
        dest="checks",
        action="store_false",
        help="skip the Welivita and EPITOME checks",
    )
