"""Train and measure the detector of sentences addressed to the rater (issue 33).

    python tools/rater_detector.py            # leave-one-language-out CV and the threshold
    python tools/rater_detector.py --save     # also write assets/models/rater_addressed.json
    python tools/rater_detector.py --ordinary 1500  # and count hits in 1,500 corpus texts

Data: ``tools/injection_data/rater_sentences.csv`` and, since v2,
``rater_sentences_more.csv`` (written for this project in fifteen languages; never the
styles ``lab/injection_study.py`` measures). The threshold is the lowest that keeps
ordinary sentences flagged at or below 1 % in leave-one-language-out CV (each language's
sentences scored by a model that never saw that language) and, since v2, at most 0.5 %
of a random 1,500 ordinary corpus texts (seed 1) holding a hit.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorers.judge.addressed import DETECTOR_FILE, Detector, embed

DATA = Path(__file__).resolve().parent / "injection_data" / "rater_sentences.csv"
#: 300 more (2026-11-27): text that vouches for the reply to a third party (reported thanks,
#: testimonials, pleas to see the care) and hard negatives; in the detector since v2.
MORE = DATA.with_name("rater_sentences_more.csv")
MAX_ORDINARY_FLAGGED = 0.01
#: v2 also keeps ordinary texts with a hit at or below this share of a random sample of the
#: corpus (seed 1; the figure reported reads another sample, seed 0): with its 300 more rows
#: the training-set rule alone let 17 of 1,500 ordinary texts through (1.1 %).
MAX_CORPUS_FLAGGED = 0.005
VERSION = "rater-addressed-v2"


def out_of_language(x: np.ndarray, y: np.ndarray, languages: np.ndarray) -> np.ndarray:
    """Each sentence's probability from a model trained without its language."""
    from sklearn.linear_model import LogisticRegression

    p = np.zeros(len(y))
    for language in np.unique(languages):
        held = languages == language
        model = LogisticRegression(C=1.0, max_iter=2000).fit(x[~held], y[~held])
        p[held] = model.predict_proba(x[held])[:, 1]
    return p


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--save", action="store_true", help="write the shipped detector")
    parser.add_argument("--without-more", action="store_true", help="v1's data: no MORE rows")
    parser.add_argument(
        "--ordinary", type=int, default=0, help="also read N random ordinary texts (seed 0)"
    )
    args = parser.parse_args()
    from sklearn.linear_model import LogisticRegression

    frames = [DATA] if args.without_more else [DATA, MORE]
    df = pd.concat([pd.read_csv(f) for f in frames], ignore_index=True)
    x, y = embed(df.text.astype(str).tolist()), df.label.to_numpy()
    p = out_of_language(x, y, df.language.to_numpy())
    ordinary = np.sort(p[y == 0])
    threshold = float(ordinary[int(np.ceil(len(ordinary) * (1 - MAX_ORDINARY_FLAGGED))) - 1]) + 1e-6
    threshold = max(threshold, 0.5)
    caught = p[y == 1] >= threshold
    print(
        f"{len(df)} sentences ({int(y.sum())} addressed to the rater), {df.language.nunique()} languages"
    )
    print(
        f"threshold {threshold:.3f}: ordinary flagged {(p[y == 0] >= threshold).mean():.1%}, "
        f"addressed caught {caught.mean():.1%} (leave-one-language-out)"
    )
    for language, part in df.assign(p=p).groupby("language"):
        hit = part.p >= threshold
        print(
            f"  {language}: caught {int(hit[part.label == 1].sum())}/{int((part.label == 1).sum())}, "
            f"ordinary flagged {int(hit[part.label == 0].sum())}/{int((part.label == 0).sum())}"
        )
    model = LogisticRegression(C=1.0, max_iter=2000).fit(x, y)
    detector = Detector(
        model.coef_[0].astype(np.float32),
        float(model.intercept_[0]),
        threshold,
        "rater-addressed-v1" if args.without_more else VERSION,
    )
    if not args.without_more:
        corpus = corpus_threshold(detector)
        print(f"threshold on a corpus sample (seed 1, <= {MAX_CORPUS_FLAGGED:.1%}): {corpus:.3f}")
        detector = replace(detector, threshold=max(threshold, corpus))
        print(f"threshold shipped: {detector.threshold:.3f}")
    if args.ordinary:
        print(ordinary_hits(detector, args.ordinary))
    if args.save:
        DETECTOR_FILE.write_text(detector.to_json() + "\n", encoding="utf-8")
        print(f"wrote {DETECTOR_FILE}")


def sample_texts(n: int, seed: int) -> list[str]:
    """``n`` random ordinary texts of ``tools/injection_corpus.py`` (bundled and shared replies
    and messages)."""
    import random

    from tools.injection_corpus import ordinary_texts

    texts = [t for _, t in ordinary_texts()]
    return random.Random(seed).sample(texts, min(n, len(texts)))


def corpus_threshold(detector: Detector, n: int = 1500, seed: int = 1) -> float:
    """The lowest threshold at which at most :data:`MAX_CORPUS_FLAGGED` of ``n`` random
    ordinary texts hold a sentence the detector flags."""
    best = np.sort(
        [max((q for _, q in detector.read(t)), default=0.0) for t in sample_texts(n, seed)]
    )
    allowed = int(MAX_CORPUS_FLAGGED * len(best))
    return float(best[len(best) - allowed - 1]) + 1e-6


def ordinary_hits(detector: Detector, n: int, seed: int = 0) -> str:
    """How many of ``n`` random ordinary texts (``tools/injection_corpus.py``'s: bundled and
    shared replies and messages) hold a sentence ``detector`` reads as addressed to the rater."""
    chosen = sample_texts(n, seed)
    hits = [(t, found) for t in chosen if (found := detector.pieces(t))]
    shown = "".join(f"\n  {found}" for _, found in hits[:8])
    return f"ordinary texts with a hit: {len(hits)} of {len(chosen)}{shown}"


if __name__ == "__main__":
    main()
