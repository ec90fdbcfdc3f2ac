"""Which BERT-head recipe cross-validates best, and would more labels pay?

Every variant is measured the same way: 5-fold cross-validation on the
1,024 rubric labels (same folds, same training settings), out-of-fold
predictions only; text normalised first, as the shipped head reads it.

    python tools/head_experiments.py --output head_experiments.json
    python tools/head_experiments.py --encoder /path/to/all-mpnet-base-v2 --variants spans

Variants (features of a reply; "message" = the person's message, encoded whole):
- ``sentences``: reply vector + mean and max of sentence vectors, each sentence
  re-encoded on its own (the first head);
- ``spans``: the same three vectors pooled from one contextual pass;
- ``spans+message``: ``spans`` and the message vector;
- ``spans+interaction``: ``spans``, the element-wise product and absolute
  difference of reply and message vectors, and their cosine — the head can
  see whether the reply fits *this* message;
- ``spans+augmented``: ``spans`` trained also on a shortened and a misspelt
  variant of each training reply (never of a test reply);
- ``spans+interaction+augmented``: both.

The learning curve trains the best variant on 25/50/75/100 % of each fold's
training rows and tests on the whole fold.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorers.bert_head import training as ht
from scorers.bert_head.encoder import load_encoder
from scorers.bert_head.head import FeatureRecipe

VARIANTS = (
    "sentences",
    "spans",
    "spans+message",
    "spans+interaction",
    "spans+augmented",
    "spans+interaction+augmented",
)


def recipe_for(variant: str) -> FeatureRecipe:
    """The feature recipe a variant names (normalised text in every case).

    >>> recipe_for("spans+interaction+augmented").interaction
    True
    """
    return FeatureRecipe(
        use_message="message" in variant,
        pooling="sentences" if variant.startswith("sentences") else "spans",
        normalize=True,
        interaction="interaction" in variant,
    )


def features(encoder, labels, variant: str) -> tuple[np.ndarray, ht.Augmented | None]:  # type: ignore[no-untyped-def]
    """Feature rows of the labelled replies for one variant (and training-only extras)."""
    recipe = recipe_for(variant)
    x = ht.featurize(encoder, recipe, labels)
    extra = ht.augment(encoder, recipe, labels) if "augmented" in variant else None
    return x, extra


def learning_curve(
    x: np.ndarray, y: np.ndarray, config: ht.TrainConfig, shares=(0.25, 0.5, 0.75, 1.0)
) -> dict[str, dict]:
    """Cross-validated metrics when each fold trains on a share of its training rows."""
    from sklearn.model_selection import KFold

    rng = np.random.default_rng(config.seed)
    out = {}
    for share in shares:
        pred = np.zeros_like(y)
        for train, test in KFold(5, shuffle=True, random_state=config.seed).split(x):
            keep = rng.permutation(train)[: max(10, round(share * len(train)))]
            pred[test] = ht.predict(ht.train_ensemble(x[keep], y[keep], config), x[test])
        out[f"{share:.0%}"] = ht.metrics(pred, y) | {"train_rows": round(share * len(x) * 0.8)}
    return out


_NAMES = ("cognitive", "emotional", "behavioral", "overall")


def _table(results: dict[str, dict]) -> str:
    head = "| variant | " + " | ".join(f"{c} MSE | {c} ρ" for c in _NAMES)
    lines = [head + " |", "|---" * 9 + "|"]
    for name, m in results.items():
        cells = [f"{m[c]['mse']:.3f} | {m[c]['spearman']:.3f}" for c in _NAMES]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--encoder", help="a local HF model folder (default: the packaged MiniLM)")
    p.add_argument("--variants", default=",".join(VARIANTS))
    p.add_argument("--heads", type=int, default=1, help="ensemble size in each fold")
    p.add_argument("--epochs", type=int, default=100)
    p.add_argument("--curve", default="", help="variant for the learning curve ('' = best)")
    p.add_argument("--no-curve", action="store_true")
    p.add_argument("--output", help="JSON with every number (written after each variant)")
    p.add_argument("--threads", type=int, default=0, help="torch threads (0 = torch's choice)")
    args = p.parse_args(argv)
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    labels = ht.load_labels()
    y = labels[["cognitive", "emotional", "behavioral"]].to_numpy(dtype=np.float32)
    encoder = load_encoder(args.encoder)
    config = ht.TrainConfig(heads=args.heads, epochs=args.epochs)
    print(f"{len(labels)} labels; encoder {encoder.name}; {config}", file=sys.stderr)
    results, xs = {}, {}
    for variant in args.variants.split(","):
        t0 = time.perf_counter()
        x, extra = features(encoder, labels, variant)
        xs[variant] = x
        results[variant] = ht.cross_validate(x, y, config, extra=extra)
        print(f"{variant} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        print(_table({variant: results[variant]}), file=sys.stderr, flush=True)
        _save(args.output, {"encoder": encoder.name, "config": vars(args), "cv": results})
    print(_table(results))
    out = {"encoder": encoder.name, "config": vars(args), "cv": results}
    if not args.no_curve:
        best = args.curve or min(results, key=lambda v: results[v]["overall"]["mse"])
        x, _ = (xs[best], None) if best in xs else features(encoder, labels, best)
        out["learning_curve"] = {"variant": best, "shares": learning_curve(x, y, config)}
        print(f"\nlearning curve ({best}):")
        print(_table(out["learning_curve"]["shares"]))
    _save(args.output, out)
    return 0


def _save(path: str | None, out: dict) -> None:
    if path:
        Path(path).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
