"""Can a sentence model find the sentences of a reply that go along with a risk (collusion),
where the whole-reply model (``safety_collusion_train.py``) called short warm replies
collusion? (issue 49)

    nice python lab/safety_collusion_sentences.py                     # message-grouped CV
    nice python lab/safety_collusion_sentences.py --heldout           # + the held-out sets, once
    nice python lab/safety_collusion_sentences.py --encoder DIR --C 0.003   # another encoder

A logistic model of one reply sentence's vector (the screen's MiniLM unless ``--encoder``),
taught by the sentences two LLM annotators both marked as colluding in
``tools/safety_data/collusion_sentence_items.csv`` (``BRIEF_COLLUSION_SENTENCES.md``; labels
G and H, α 0.98; a sentence they disagree on is left out). Negatives: the sentences both left
unmarked, and every sentence of the screen's LLM-annotated development replies without
harmful advice (``made_labels*``, the shared ``safety_dev*.csv``; short kind replies among
them). A reply colludes when its most colluding sentence's log-odds reaches the threshold,
chosen in the CV for 90 % of the colluding replies (``--recall``). Never fitted on:
``heldout_collusion_*`` (70 replies, two more annotators) and ``heldout_labels2.csv``.
Result (2026-12-06): not shipped; see lab/README.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pandas as pd

from config import EXTRA_DATA_DIR
from scorers.bert_head.encoder import Encoder, load_encoder
from scorers.safety.features import Read, read_pairs
from scorers.safety.model import riskiest, screen_encoder
from tools.safety_sentence_model import fit_sentence

DATA = Path(__file__).resolve().parents[1] / "tools" / "safety_data"
NEGATIVES = [DATA / "made_labels.csv", DATA / "made_labels2.csv"] + [
    EXTRA_DATA_DIR / "safety" / f"safety_dev{s}.csv" for s in ("", "2")
]
RECALL = 0.9  # the share of colluding replies (CV) the threshold keeps
C = 0.01


def sentence_marks() -> dict[str, int]:
    """Each collusion-set sentence both annotators marked alike: 1 colludes, 0 not."""
    items = pd.read_csv(DATA / "collusion_sentence_items.csv")
    g, h = (pd.read_csv(DATA / f"collusion_sentence_labels_{r}.csv") for r in "GH")
    both = items.merge(g, on=["id", "k"]).merge(h, on=["id", "k"], suffixes=("_g", "_h"))
    agreed = both[both.colludes_g == both.colludes_h]
    return dict(zip(agreed.sentence, agreed.colludes_g.astype(int), strict=True))


def replies() -> pd.DataFrame:
    """Every training reply with ``y`` (1: both reply annotators said it colludes)."""
    items = pd.read_csv(DATA / "collusion_items.csv")
    said = [
        pd.read_csv(DATA / f"collusion_labels_{r}.csv").concerns.str.contains("colludes")
        for r in "AB"
    ]
    colluding = items.assign(y=np.logical_and.reduce(said).astype(int), source="collusion")
    others = pd.concat(
        [pd.read_csv(f).assign(source=f.stem) for f in NEGATIVES], ignore_index=True
    ).dropna(subset=["message", "reply"])
    others = others[~others.concerns.fillna("").str.contains("harmful-advice")]
    rows = pd.concat(
        [colluding[["message", "reply", "y", "source"]], others.assign(y=0)[colluding.columns]],
        ignore_index=True,
    ).drop_duplicates("reply")
    return rows.assign(group=rows.message.factorize()[0]).reset_index(drop=True)


def labels_for(reads: list[Read], rows: pd.DataFrame, marks: dict[str, int]) -> dict[str, int]:
    """Sentence labels: the annotators' marks in the collusion set; 0 for every sentence of
    a reply that does not collude."""
    labels = dict(marks)
    for read, y in zip(reads, rows.y, strict=True):
        if not y:
            for s in read.reply_sentences:
                labels.setdefault(s, 0)
    return labels


def scores(sentence: np.ndarray, reads: list[Read]) -> np.ndarray:
    """Each reply's most colluding sentence's log-odds."""
    return np.array([riskiest(r, sentence, "reply")[0] for r in reads])


def cross_validate(
    reads: list[Read], rows: pd.DataFrame, marks: dict[str, int], c: float = C
) -> np.ndarray:
    """Out-of-fold reply scores, folds grouped by message."""
    from sklearn.model_selection import GroupKFold

    out = np.zeros(len(reads))
    for train, test in GroupKFold(5).split(reads, groups=rows.group):
        part = [reads[i] for i in train]
        sentence = fit_sentence(part, labels_for(part, rows.iloc[train], marks), "reply", c)
        out[test] = scores(sentence, [reads[i] for i in test])
    return out


def threshold_for(p: np.ndarray, y: np.ndarray, recall: float = RECALL) -> float:
    """The largest threshold that keeps ``recall`` of the positives."""
    return float(np.quantile(p[y == 1], 1 - recall, method="lower"))


def report(name: str, hit: np.ndarray, y: np.ndarray, safe: np.ndarray | None = None) -> str:
    """Found k/n colluding, and false calls among the rest (and among the safe)."""
    words = f"{name}: colluding found {int((hit & (y == 1)).sum())}/{int(y.sum())}"
    words += f", others called colluding {int((hit & (y == 0)).sum())}/{int((y == 0).sum())}"
    if safe is not None:
        words += f", safe called colluding {int((hit & safe).sum())}/{int(safe.sum())}"
    return words


def heldout(sentence: np.ndarray, threshold: float, encoder: Encoder) -> list[str]:
    """The never-fitted sets, read once."""
    items = pd.read_csv(DATA / "heldout_collusion_items.csv")
    said = [pd.read_csv(DATA / f"heldout_collusion_labels_{r}.csv") for r in "CD"]
    y = np.logical_and.reduce([s.concerns.str.contains("colludes") for s in said]).astype(int)
    safe = (said[0].reply_safe == 1).to_numpy()
    hit = (
        scores(sentence, read_pairs(list(zip(items.message, items.reply, strict=True)), encoder))
        >= threshold
    )
    short = pd.read_csv(DATA / "heldout_labels2.csv")
    s_hit = scores(
        sentence, read_pairs(list(zip(short.message, short.reply, strict=True)), encoder)
    )
    s_safe = (short.reply_safe == 1).to_numpy()
    return [
        report("held-out collusion set (70)", hit, y, safe),
        f"held-out short replies (32): safe called colluding "
        f"{int(((s_hit >= threshold) & s_safe).sum())}/{int(s_safe.sum())}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--heldout", action="store_true", help="also read the held-out sets")
    parser.add_argument("--encoder", help="a local sentence-encoder folder (torch runtime)")
    parser.add_argument("--C", type=float, default=C, help="the logistic regression's C")
    parser.add_argument("--recall", type=float, default=RECALL)
    args = parser.parse_args()
    encoder = load_encoder(path=args.encoder, runtime="torch") if args.encoder else screen_encoder()
    rows, marks = replies(), sentence_marks()
    reads = read_pairs(list(zip(rows.message, rows.reply, strict=True)), encoder)
    p = cross_validate(reads, rows, marks, args.C)
    y = rows.y.to_numpy()
    threshold = threshold_for(p, y, args.recall)
    short = (rows.source == "made_labels2").to_numpy()
    cv = report("grouped CV", p >= threshold, y)
    cv += f"; short replies called colluding {int(((p >= threshold) & short).sum())}/{int(short.sum())}"
    print(f"{cv} (threshold {threshold:.2f} log-odds, {sum(marks.values())} marked sentences)")
    if args.heldout:
        sentence = fit_sentence(reads, labels_for(reads, rows, marks), "reply", args.C)
        print("\n".join(heldout(sentence, threshold, encoder)))


if __name__ == "__main__":
    main()
