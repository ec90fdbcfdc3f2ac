"""Which BERT-head recipe holds up on held-out messages and sources?

Every variant is measured on the 1,024 rubric labels with the same folds
(:mod:`scorers.bert_head.folds`), out-of-fold predictions only:

- ``message``: 5 folds grouped by message (a message's replies never split);
- ``source``: leave one source family out (counselchat, epitome, welivita, styled);
- ``kfold``: plain 5-fold, the view that over-rewarded the last head.

    nice python lab/head_experiments.py --output head_experiments.json
    nice python lab/head_experiments.py --variants spans+interaction@int8 --fits ridge

A variant is ``FEATURES[@int8]``; features:
- ``reference``: raw text, the reply and the mean and max of its sentences,
  each sentence re-encoded (the first head, ``bert-head-raw``: the reference
  study's frozen-encoder head);
- ``sentences+interaction``: normalised text, the same vectors plus how the
  reply relates to the message (product, |difference|, cosine) (the head shipped
  before issue 20's grouped CV);
- ``spans``, ``spans+interaction``: the sentence vectors pooled from one
  contextual pass of the reply instead (one encoder pass per text);
- ``sentmean+interaction``: sentences re-encoded, but no pass over the whole reply:
  the mean of its sentence vectors stands in for the reply's vector;
- ``@int8``: the encoder's Linear layers dynamically quantised to int8 (by ONNX
  Runtime, per channel; by torch when ``EMPATHY_LAB_ENCODER_RUNTIME=torch``).

Fits (each variant is fitted every way asked, same folds):
- ``mlp``: the shipped head's MLP (:class:`TrainConfig`, ``--heads`` per fold);
- ``ridge``: a ridge regression per component on standardised features
  (alpha by efficient leave-one-out within the training fold);
- ``blend``: the mean of ``mlp`` and ``ridge`` (a two-member ensemble).

The learning curve (``--curve VARIANT``) trains on 25/50/75/100 % of each
message-grouped fold's training rows and tests on the whole fold.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorers.bert_head import folds as cv
from scorers.bert_head import training as ht
from scorers.bert_head.encoder import load_encoder
from scorers.bert_head.head import FeatureRecipe
from scorers.bert_head.labels import load_labels

VARIANTS = ("reference", "sentences+interaction", "spans", "spans+interaction")
_NAMES = ("cognitive", "emotional", "behavioral", "overall")


def recipe_for(variant: str) -> FeatureRecipe:
    """The feature recipe a variant names.

    >>> recipe_for("spans+interaction@int8")
    FeatureRecipe(use_message=False, pooling='spans', normalize=True, interaction=True, whole_reply=True)
    >>> recipe_for("reference").normalize
    False
    """
    features = variant.split("@")[0]
    if features == "reference":
        return FeatureRecipe(pooling="sentences")
    return FeatureRecipe(
        use_message="message" in features,
        pooling="sentences" if features.startswith("sent") else "spans",
        normalize=True,
        interaction="interaction" in features,
        whole_reply=not features.startswith("sentmean"),
    )


def ridge_fit(x: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """A ridge regression per component on standardised features; predictions in [1, 3].

    >>> x = np.linspace(0, 1, 40)[:, None]; y = np.repeat(1 + 2 * x, 3, axis=1)
    >>> float(ridge_fit(x, y)(np.array([[0.5]]))[0, 0].round(1))
    2.0
    """
    from sklearn.linear_model import RidgeCV

    mean, scale = x.mean(0), x.std(0) + 1e-6
    model = RidgeCV(alphas=np.logspace(0, 5, 11), alpha_per_target=True)
    model.fit((x - mean) / scale, y)
    return lambda xs: np.clip(model.predict((xs - mean) / scale), 1.0, 3.0)


def fitter(kind: str, config: ht.TrainConfig) -> cv.Fitter:
    """The fitting function a name stands for (``mlp``, ``ridge``, ``blend``)."""

    def mlp(x: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        nets = ht.train_ensemble(x, y, config)
        return lambda xs: ht.predict(nets, xs)

    def blend(x: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        a, b = mlp(x, y), ridge_fit(x, y)
        return lambda xs: (a(xs) + b(xs)) / 2

    return {"mlp": mlp, "ridge": ridge_fit, "blend": blend}[kind]


def features(variant: str, labels, encoders: dict) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Feature rows of the labelled replies (the encoder's cache makes a rerun cheap)."""
    quantize = variant.split("@")[1] if "@" in variant else None
    if quantize not in encoders:
        encoders[quantize] = load_encoder(quantize=quantize)
    return ht.featurize(encoders[quantize], recipe_for(variant), labels)


def learning_curve(
    x: np.ndarray, y: np.ndarray, fit: cv.Fitter, splits: list, shares=(0.25, 0.5, 0.75, 1.0)
) -> dict[str, dict]:
    """Out-of-fold metrics when each fold trains on a share of its training rows."""
    rng = np.random.default_rng(0)
    out = {}
    for share in shares:
        cut = [(rng.permutation(tr)[: max(10, round(share * len(tr)))], te) for tr, te in splits]
        rows = round(float(np.mean([len(tr) for tr, _ in cut])))
        out[f"{share:.0%}"] = ht.metrics(cv.out_of_fold(x, y, fit, cut), y) | {"train_rows": rows}
    return out


def table(results: dict[str, dict]) -> str:
    """A Markdown table: MSE and Spearman per component and overall, one row per result."""
    head = "| variant | " + " | ".join(f"{c} MSE / ρ" for c in _NAMES)
    lines = [head + " |", "|---" * 5 + "|"]
    for name, m in results.items():
        cells = [f"{m[c]['mse']:.3f} / {m[c]['spearman']:.3f}" for c in _NAMES]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--variants", default=",".join(VARIANTS))
    p.add_argument("--fits", default="ridge,mlp", help="mlp, ridge, blend (comma-separated)")
    p.add_argument("--views", default="message,source", help="message, source, kfold")
    p.add_argument("--heads", type=int, default=1, help="MLP ensemble size in each fold")
    p.add_argument("--epochs", type=int, default=100)
    p.add_argument("--curve", default="", help="variant for the learning curve (none if blank)")
    p.add_argument("--curve-fit", default="ridge")
    p.add_argument("--output", help="JSON with every number (written after each result)")
    p.add_argument("--ship", default="", help="train this variant's MLP ensemble on every label "
                   "and save it as the shipped head, with this run's grouped-CV numbers")  # fmt: skip
    p.add_argument("--threads", type=int, default=0, help="torch threads (0 = torch's choice)")
    args = p.parse_args(argv)
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    labels = load_labels()
    y = labels[["cognitive", "emotional", "behavioral"]].to_numpy(dtype=np.float32)
    config = ht.TrainConfig(heads=args.heads, epochs=args.epochs)
    views = {v: cv.splits(labels, v) for v in args.views.split(",")}
    print(f"{len(labels)} labels; {config}", file=sys.stderr)
    out: dict = {"config": vars(args), "cv": {v: {} for v in views}}
    encoders: dict = {}
    for variant in args.variants.split(","):
        t0 = time.perf_counter()
        x = features(variant, labels, encoders)
        print(f"{variant}: features {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        for view, folds in views.items():
            for kind in args.fits.split(","):
                t0 = time.perf_counter()
                pred = cv.out_of_fold(x, y, fitter(kind, config), folds)
                name = f"{variant} / {kind}"
                out["cv"][view][name] = ht.metrics(pred, y)
                took = time.perf_counter() - t0
                print(f"[{view}] ({took:.0f} s)\n" + table({name: out["cv"][view][name]}),
                      file=sys.stderr, flush=True)  # fmt: skip
                _save(args.output, out)
    for view, results in out["cv"].items():
        print(f"\n{view} view, out of fold:\n{table(results)}")
    if args.curve:
        x = features(args.curve, labels, encoders)
        fit = fitter(args.curve_fit, config)
        shares = learning_curve(x, y, fit, views.get("message") or cv.splits(labels))
        out["learning_curve"] = {"variant": args.curve, "fit": args.curve_fit, "shares": shares}
        print(f"\nlearning curve ({args.curve} / {args.curve_fit}, message-grouped folds):")
        print(table(shares))
    _save(args.output, out)
    if args.ship:
        name = f"{args.ship} / mlp"
        ship(args.ship, labels, encoders, {v: r[name] for v, r in out["cv"].items() if name in r})
    return 0


def ship(variant: str, labels, encoders: dict, cv_metrics: dict, heads: int = 3) -> None:  # type: ignore[no-untyped-def]
    """Train ``variant``'s MLP ensemble on every label and save it as the shipped ``bert-head``.

    The card keeps the card's caution and label, and records the grouped-CV
    metrics of this run (``cv_metrics`` is the message view; ``cv_views`` all).
    """
    import datetime as dt
    from dataclasses import asdict

    from scorers.bert_head.head import HEAD_CARD, HEAD_WEIGHTS, save_head

    x = features(variant, labels, encoders)
    y = labels[["cognitive", "emotional", "behavioral"]].to_numpy(dtype=np.float32)
    config = ht.TrainConfig(heads=heads)
    nets = ht.train_ensemble(x, y, config)
    encoder = encoders[variant.split("@")[1] if "@" in variant else None]
    old = json.loads(HEAD_CARD.read_text(encoding="utf-8"))
    card = ht.build_card(encoder, recipe_for(variant), config, labels, {}, None, None)
    card.pop("weights_file", None)
    views = {view: results for view, results in cv_metrics.items()}
    card.update(
        cv_folds="5, grouped by message",
        cv_metrics=views.get("message"),
        cv_views=views,
        cv_command=" ".join(["python lab/head_experiments.py", *sys.argv[1:]]),
        cv_config=asdict(ht.TrainConfig(heads=1)),
        external_checks=None,
        trained_on=dt.date.today().isoformat(),
        **{k: old[k] for k in ("label", "caution", "note") if k in old},
    )
    print(f"saved {save_head(nets, card, HEAD_WEIGHTS, HEAD_CARD)} and {HEAD_CARD}")


def _save(path: str | None, out: dict) -> None:
    if path:
        Path(path).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
