"""Train and measure the learned safety screen (issue 28).

    nice python tools/safety_train.py                 # message-grouped 5-fold CV on every set
    nice python tools/safety_train.py --split dev-dev2  # train on safety_dev, test on safety_dev2
    nice python tools/safety_train.py --save          # fit on every training set, write the model
    nice python tools/safety_train.py --reply-labels replies   # v3.1's whole-reply sentence labels
    nice python tools/safety_train.py --rules-decide --encoder DIR   # CV with another encoder

Training sets: ``../shared/data/safety/safety_dev.csv`` and ``safety_dev2.csv``
(LLM annotators) and this project's own written replies with their majority
labels (``tools/safety_data/made_labels.csv``). The held-out set
(``tools/safety_data/heldout_labels.csv``) is never read here: measure it with
``lab/safety_study.py --input``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pandas as pd

from config import MODELS_DIR
from scorers.bert_head.encoder import Encoder, load_encoder
from scorers.safety.check import VERSION
from scorers.safety.features import MESSAGE_RULES, Read, read_pairs, without_reassurance
from scorers.safety.message_risk import MEETS_RISK, RULES_DECIDE
from scorers.safety.model import RISKIEST_BLOCKS, Linear, design
from scorers.safety.rules import asks_about_risk, blames, meets_risk
from tools.safety_recipe import (
    DISMISSIVE_SPECS,
    MESSAGE_SPECS,
    REPLY_CONCERNS,
    REPLY_LABELS,
    SHIPPED,
    Recipe,
    Spec,
)
from tools.safety_reply_sentence_labels import marked_sentences
from tools.safety_sentence_labels import sentence_labels
from tools.safety_sentence_model import (
    fit_sentence,
    inner_riskiest,
    labels_from_annotators,
    labels_from_replies,
    logistic,
)
from tools.safety_sets import load_sets


def reply_sentence_labels(
    df: pd.DataFrame, rows: np.ndarray, chosen: list[Read], y: np.ndarray, name: str, source: str
) -> dict[str, int]:
    """The sentence labels a reply concern's sentence model learns from (``source``: one of
    :data:`tools.safety_recipe.REPLY_LABELS`)."""
    if source == "replies":
        return labels_from_replies(chosen, y)
    replies = df.reply.fillna("").to_numpy()[rows].tolist()
    return labels_from_annotators(chosen, replies, y, marked_sentences(name))


def label(df: pd.DataFrame, name: str) -> np.ndarray:
    """Each row's 0/1 label for decision ``name``."""
    if name == "message-risk":
        return df.message_risk.to_numpy(int)
    if name == "answers-risk":
        return (~df.concerns.str.contains("missed-risk")).to_numpy(int)
    return df.concerns.str.contains(name).to_numpy(int)


def rows_for(df: pd.DataFrame, spec: Spec) -> np.ndarray:
    """The row positions a decision trains on."""
    if spec.level == "message":
        return np.flatnonzero(~df.group.duplicated().to_numpy())
    if spec.level == "risky":
        return np.flatnonzero((df.message_risk.to_numpy(int) == 1) & df.has_reply.to_numpy())
    return np.flatnonzero(df.has_reply.to_numpy())


class Fitted(NamedTuple):
    """One decision's scaled logistic model, its threshold, the blocks it reads and (for a
    :data:`RISKIEST` block) the sentence model it reads: weights then bias, scaling folded in."""

    model: object
    threshold: float
    blocks: tuple[str, ...]
    sentence: np.ndarray | None = None


def fit_one(
    x: np.ndarray, y: np.ndarray, groups: np.ndarray, spec: Spec, name: str
) -> tuple[object, float]:
    """A scaled logistic model, and the threshold that keeps ``spec.recall`` of the cases to
    flag flagged in a message-grouped inner cross-validation of these rows only."""
    from sklearn.base import clone
    from sklearn.model_selection import GroupKFold, cross_val_predict

    model = logistic(spec.C)
    inner = cross_val_predict(
        clone(model), x, y, groups=groups, cv=GroupKFold(n_splits=4), method="predict_proba"
    )[:, 1]
    if name == "answers-risk":  # flag a miss below the threshold
        threshold = float(np.quantile(inner[y == 0], spec.recall))
    else:
        threshold = float(np.quantile(inner[y == 1], 1 - spec.recall))
    return model.fit(x, y), threshold


def to_linear(found: Fitted, dim: int) -> Linear:
    """A fitted scaler + logistic pipeline as the app's :class:`Linear` (scaling folded in)."""
    scaler, model = found.model[0], found.model[1]  # type: ignore[index]
    weights = (model.coef_[0] / scaler.scale_).astype(np.float32)
    center = scaler.mean_.astype(np.float32)
    bias = float(model.intercept_[0])
    return Linear(found.blocks, weights, bias, center, found.threshold, dim, found.sentence)


def fit(df: pd.DataFrame, reads: list[Read], recipe: Recipe = SHIPPED) -> dict[str, Fitted]:
    """Every decision of ``recipe`` fitted on the rows of ``df``."""
    fitted = {}
    for name, spec in recipe.specs.items():
        rows = rows_for(df, spec)
        groups = df.group.to_numpy()[rows]
        sentence = None
        y = label(df, name)[rows]
        if spec.blocks[0] in RISKIEST_BLOCKS:  # read by sentence models not fitted
            side, chosen = spec.blocks[0].split("_")[0], [reads[i] for i in rows]  # on the row
            if side == "message":
                labels = sentence_labels()
            else:
                labels = reply_sentence_labels(df, rows, chosen, y, name, recipe.reply_labels)
            sentence = fit_sentence(chosen, labels, side)
            inner = inner_riskiest(chosen, groups, labels, side)
            rest = spec.blocks[1:]
            x = np.column_stack([inner, np.stack([design(reads[i], rest) for i in rows])])
        else:
            x = np.stack([design(reads[i], spec.blocks) for i in rows])
        found = fit_one(x, y, groups, spec, name)
        fitted[name] = Fitted(*found, spec.blocks, sentence)
    return fitted


def ruled(reads: list[Read]) -> np.ndarray:
    """Messages whose risk a rule decides whatever a model says (as the app: RULES_DECIDE)."""
    return np.array([any(r.hits.values.get(k) for k in RULES_DECIDE) for r in reads])


def rule_named(reads: list[Read]) -> np.ndarray:
    """Messages in which the rules name any risk (else a risk call is the model's alone)."""
    return np.array([any(r.hits.vector(MESSAGE_RULES)) for r in reads])


def predict(
    fitted: dict[str, Fitted], reads: list[Read], rules_decide: bool = False
) -> pd.DataFrame:
    """The screen's verdicts for ``reads``: risk, each concern, reply_safe."""
    out = {}
    for name, (model, threshold, blocks, sentence) in fitted.items():
        x = np.stack([design(r, blocks, sentence) for r in reads])
        out[name] = model.predict_proba(x)[:, 1] >= threshold  # type: ignore[attr-defined]
        if name == "dismissive" and rules_decide:  # as the app: reassurance is not dismissal
            kept = [without_reassurance(r) for r in reads]
            x = np.stack([design(r, blocks, sentence) for r in kept])
            again = model.predict_proba(x)[:, 1] >= threshold  # type: ignore[attr-defined]
            out[name] = out[name] & again & np.array([bool(r.reply_sentences) for r in kept])
            asks = [asks_about_risk(" ".join(r.reply_sentences)) is not None for r in reads]
            out[name] = out[name] & ~np.array(asks)
    if rules_decide:
        hit = ruled(reads)
        out["message-risk"] = out["message-risk"] | hit
        met = np.array(
            [
                any(r.hits.values.get(k) for k in MEETS_RISK)
                or meets_risk(" ".join(r.reply_sentences)) is not None
                for r in reads
            ]
        )
        out["answers-risk"] = out["answers-risk"] & (met | ~hit)
        blamed = np.array([blames(" ".join(r.reply_sentences)) is not None for r in reads])
        out["dismissive"] = out["dismissive"] | blamed
    pred = pd.DataFrame(out)
    pred["missed-risk"] = pred["message-risk"] & ~pred["answers-risk"]
    pred["unsafe"] = pred[["missed-risk", *REPLY_CONCERNS]].any(axis=1)
    return pred


def rates(df: pd.DataFrame, pred: pd.DataFrame) -> dict[str, str]:
    """The issue's figures: unsafe caught, safe flagged, risky found, calm called risky, concerns."""
    pred = pred.set_index(df.index)
    first = ~df.group.duplicated()
    risk = {
        "risky messages found": (pred["message-risk"][first], (df.message_risk == 1)[first]),
        "calm messages called risky": (pred["message-risk"][first], (df.message_risk == 0)[first]),
    }
    pred, df = pred[df.has_reply], df[df.has_reply]

    def share(hit: pd.Series, of: pd.Series) -> str:
        n, k = int(of.sum()), int((hit & of).sum())
        return f"{k}/{n} ({100 * k / max(n, 1):.0f} %)"

    out = {
        "unsafe caught": share(pred.unsafe, df.reply_safe == 0),
        "safe flagged": share(pred.unsafe, df.reply_safe == 1),
        **{name: share(*pair) for name, pair in risk.items()},
    }
    for concern in ("missed-risk", *REPLY_CONCERNS):
        out[f"{concern} named"] = share(pred[concern], df.concerns.str.contains(concern))
    return out


def cross_validate(
    df: pd.DataFrame,
    reads: list[Read],
    folds: int = 5,
    rules_decide: bool = False,
    recipe: Recipe = SHIPPED,
) -> pd.DataFrame:
    """Out-of-fold verdicts, the folds grouped by message."""
    from sklearn.model_selection import GroupKFold

    parts = []
    for train, test in GroupKFold(n_splits=folds).split(df, groups=df.group):
        fitted = fit(df.iloc[train].reset_index(drop=True), [reads[i] for i in train], recipe)
        parts.append(predict(fitted, [reads[i] for i in test], rules_decide).set_index(test))
    return pd.concat(parts).sort_index()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=["cv", "dev-dev2"], default="cv")
    parser.add_argument("--sets", default="dev,dev2,made,cc")  # cc2: measured, not shipped
    parser.add_argument("--save", action="store_true", help="fit on every set and write the model")
    parser.add_argument(
        "--quantize", default="", help="the encoder's form: '' (fp32, as shipped) or int8"
    )
    parser.add_argument(
        "--rules-decide",
        action="store_true",
        help="as the app: a suicide/self-harm rule hit is risk (met only by words the rules "
        "know), blame is dismissive, reassurance is not",
    )
    parser.add_argument(
        "--encoder",
        help="a local sentence-encoder folder to measure instead of the packaged MiniLM "
        "(torch runtime; never with --save)",
    )
    parser.add_argument("--message", choices=list(MESSAGE_SPECS), default="riskiest")
    parser.add_argument("--message-recall", type=float, help="the share of risky messages kept")
    parser.add_argument(
        "--reply-labels",
        choices=list(REPLY_LABELS),
        default=SHIPPED.reply_labels,
        help="the sentence labels of the reply-concern sentence models",
    )
    parser.add_argument("--dismissive", choices=list(DISMISSIVE_SPECS), default="meanmax")
    args = parser.parse_args()
    recipe = SHIPPED.varied(args.message, args.message_recall, args.reply_labels, args.dismissive)
    df = load_sets(args.sets.split(","))
    if args.encoder and args.save:
        parser.error("--encoder measures another encoder; the shipped screen reads the MiniLM")
    encoder = (
        load_encoder(path=args.encoder, runtime="torch")
        if args.encoder
        else load_encoder(quantize=args.quantize or None)
    )
    pairs = list(zip(df.message.fillna(""), df.reply.fillna(""), strict=True))
    reads = read_pairs(pairs, encoder)
    if args.save:
        save(fit(df, reads, recipe), df, encoder)
        return
    if args.split == "dev-dev2":
        train = np.flatnonzero(df.set == "dev")
        test = np.flatnonzero(df.set == "dev2")
        fitted = fit(df.iloc[train].reset_index(drop=True), [reads[i] for i in train], recipe)
        tested = predict(fitted, [reads[i] for i in test], args.rules_decide)
        result = rates(df.iloc[test], tested)
    else:
        pred = cross_validate(df, reads, rules_decide=args.rules_decide, recipe=recipe)
        result = rates(df, pred)
        for name in df.set.unique():
            mask = (df.set == name).to_numpy()
            print(name, json.dumps(rates(df[mask], pred[mask])))
        print("risk seen by the model alone:", alone(df, reads, pred))
    print(json.dumps(result, indent=1))


def alone(df: pd.DataFrame, reads: list[Read], pred: pd.DataFrame) -> str:
    """How often a message risk the model alone saw (no risk the rules name) was right,
    against one the rules named (``wording.ALONE`` quotes the first)."""
    first = ~df.group.duplicated().to_numpy()
    named = rule_named(reads)
    said = pred["message-risk"].to_numpy() & first
    right = df.message_risk.to_numpy(int) == 1
    parts = []
    for what, mask in (("model alone", said & ~named), ("rules named", said & named)):
        parts.append(f"{what} {int((mask & right).sum())} right of {int(mask.sum())}")
    return "; ".join(parts)


def save(fitted: dict[str, Fitted], df: pd.DataFrame, encoder: Encoder) -> None:
    """Write the weights (safetensors) and their settings (JSON) the app loads."""
    from safetensors.numpy import save_file

    linear = {n: to_linear(f, encoder.dim) for n, f in fitted.items()}
    tensors, models = {}, {}
    for name, model in linear.items():
        tensors[f"{name}.weights"], tensors[f"{name}.center"] = model.weights, model.center
        if model.sentence is not None:
            tensors[f"{name}.sentence"] = model.sentence
        models[name] = {
            "blocks": list(model.blocks),
            "bias": model.bias,
            "threshold": model.threshold,
        }
    save_file(tensors, str(MODELS_DIR / "safety_screen.safetensors"))
    meta = {
        "version": VERSION,
        "dim": encoder.dim,
        "encoder_quantize": encoder.quantize,
        "margin": 0.05,
        "trained_on": {s: int((df.set == s).sum()) for s in df.set.unique()},
        "models": models,
    }
    (MODELS_DIR / "safety_screen.json").write_text(json.dumps(meta, indent=1) + "\n")
    print("wrote", MODELS_DIR / "safety_screen.json")


if __name__ == "__main__":
    main()
