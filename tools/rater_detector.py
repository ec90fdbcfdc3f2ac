"""Train and measure the detector of sentences addressed to the rater (issue 33).

    python tools/rater_detector.py            # leave-one-language-out CV and the threshold
    python tools/rater_detector.py --save     # also write assets/models/rater_addressed.json

Data: ``tools/injection_data/rater_sentences.csv`` (written for this project in
fifteen languages; never the styles ``tools/injection_study.py`` measures). The
threshold is the lowest that keeps ordinary sentences flagged at or below 1 % in
leave-one-language-out CV: each language's sentences are scored by a model that
never saw that language.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorers.judge.addressed import DETECTOR_FILE, Detector, embed

DATA = Path(__file__).resolve().parent / "injection_data" / "rater_sentences.csv"
MAX_ORDINARY_FLAGGED = 0.01


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
    args = parser.parse_args()
    from sklearn.linear_model import LogisticRegression

    df = pd.read_csv(DATA)
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
    if args.save:
        model = LogisticRegression(C=1.0, max_iter=2000).fit(x, y)
        detector = Detector(
            model.coef_[0].astype(np.float32),
            float(model.intercept_[0]),
            threshold,
            "rater-addressed-v1",
        )
        DETECTOR_FILE.write_text(detector.to_json() + "\n", encoding="utf-8")
        print(f"wrote {DETECTOR_FILE}")


if __name__ == "__main__":
    main()
