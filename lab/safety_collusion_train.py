"""Train the screen's collusion model; report grouped CV and, with --heldout, the held-out set.

A lab result, not wired into the screen (docs/safety.md: it calls short warm replies
collusion): a logistic regression over the screen encoder's unit vectors of the whole reply
and the element-wise max of its sentences' vectors; the model is
``tools/safety_data/colludes_model.json``.

    nice python lab/safety_collusion_train.py            # CV, then writes the model
    nice python lab/safety_collusion_train.py --heldout  # reads the held-out set once

Positives: the written replies both LLM annotators said collude
(``tools/safety_data/collusion_items.csv``, labels A and B). Negatives: the rest of that set
and every reply in the screen's LLM-annotated development sets (made_labels*, and the shared
safety_dev*.csv). Folds are grouped by message. The recipe (C and the threshold) is chosen
by CV here; ``heldout_collusion_*`` is never read for fitting.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pandas as pd

from config import EXTRA_DATA_DIR
from scorers.bert_head.encoder import Encoder
from scorers.safety.model import screen_encoder
from scorers.safety.rules import sentences

#: The collusion labels and the model sit with the screen's other safety data.
DATA = Path(__file__).resolve().parents[1] / "tools" / "safety_data"
MODEL = DATA / "colludes_model.json"
NEGATIVES = [DATA / "made_labels.csv", DATA / "made_labels2.csv"] + [
    EXTRA_DATA_DIR / "safety" / f"safety_dev{s}.csv" for s in ("", "2")
]
C, THRESHOLD = 10.0, 0.5  # chosen by the grouped CV below (C 0.3-10, thresholds 0.5-0.9)


def features(encoder: Encoder, replies: list[str]) -> np.ndarray:
    """Per reply: its unit vector beside the element-wise max of its sentences' unit vectors."""
    parts = [sentences(r) or [r.strip()] for r in replies]
    vectors = _unit(encoder.encode([s for p in parts for s in p]))
    whole = _unit(encoder.encode(list(replies)))
    rows, start = [], 0
    for k, p in enumerate(parts):
        rows.append(np.concatenate([whole[k], vectors[start : start + len(p)].max(0)]))
        start += len(p)
    return np.asarray(rows, dtype=np.float64)


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9)


def labelled(stem: str, raters: str) -> pd.DataFrame:
    """A written set with ``y`` = 1 where every rater in ``raters`` marked "colludes"."""
    items = pd.read_csv(DATA / f"{stem}_items.csv")
    said = [
        pd.read_csv(DATA / f"{stem}_labels_{r}.csv").concerns.str.contains("colludes")
        for r in raters
    ]
    return items.assign(
        y=np.logical_and.reduce(said).astype(int),
        safe=pd.read_csv(DATA / f"{stem}_labels_{raters[0]}.csv").reply_safe,
    )


def training_rows() -> pd.DataFrame:
    """Positives and negatives, with a message group per row."""
    negatives = pd.concat([pd.read_csv(f)[["message", "reply"]].dropna() for f in NEGATIVES])
    rows = pd.concat(
        [labelled("collusion", "AB")[["message", "reply", "y"]], negatives.assign(y=0)],
        ignore_index=True,
    ).drop_duplicates("reply")
    return rows.assign(group=rows.message.factorize()[0])


def cross_validate(x: np.ndarray, rows: pd.DataFrame) -> dict:
    """Out-of-fold recall and false-fire rate at the chosen recipe."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold, cross_val_predict

    model = LogisticRegression(C=C, max_iter=2000, class_weight="balanced")
    p = cross_val_predict(
        model, x, rows.y, groups=rows.group, cv=GroupKFold(5), method="predict_proba"
    )[:, 1]
    y = rows.y.to_numpy()
    return {
        "recall": round(float(((p >= THRESHOLD) & (y == 1)).sum() / y.sum()), 3),
        "fires_on_others": round(float(((p >= THRESHOLD) & (y == 0)).sum() / (y == 0).sum()), 3),
        "positives": int(y.sum()),
        "others": int((y == 0).sum()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heldout", action="store_true", help="score the held-out set once")
    args = parser.parse_args()
    from sklearn.linear_model import LogisticRegression

    encoder, rows = screen_encoder(), training_rows()
    x = features(encoder, rows.reply.tolist())
    if args.heldout:
        fitted = json.loads(MODEL.read_text(encoding="utf-8"))
        held = labelled("heldout_collusion", "CD")
        p = 1 / (
            1
            + np.exp(
                -(features(encoder, held.reply.tolist()) @ fitted["coef"] + fitted["intercept"])
            )
        )
        hit = p >= fitted["threshold"]
        print(
            f"held out: collusion found {int((hit & (held.y == 1)).sum())}/{int(held.y.sum())}, "
            f"safe replies called collusion {int((hit & (held.safe == 1)).sum())}/"
            f"{int((held.safe == 1).sum())}"
        )
        return
    cv = cross_validate(x, rows)
    print("grouped CV:", cv)
    model = LogisticRegression(C=C, max_iter=2000, class_weight="balanced").fit(x, rows.y)
    data = {
        "version": f"colludes-lr-c{C:g}-{len(rows)}",
        "what": "logistic regression over [reply vector, max of sentence vectors], screen encoder",
        "labels": "LLM-annotated (two annotators, tools/safety_data/BRIEF.md + colludes), not people",
        "threshold": THRESHOLD,
        "cross_validation": cv,
        "intercept": float(model.intercept_[0]),
        "coef": [round(float(v), 6) for v in model.coef_[0]],
    }
    MODEL.write_text(json.dumps(data) + "\n", encoding="utf-8")
    print(f"wrote {MODEL}")


if __name__ == "__main__":
    main()
