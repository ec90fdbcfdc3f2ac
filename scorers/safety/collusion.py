"""Whether a reply goes along with a risk: a small learned model over the reply's encoding.

**Not wired into the screen's verdict** (2026-12-06): it calls short warm replies collusion
("I am glad you are still talking with me." 0.99; "Give yourself permission to rest" 0.88),
which its training negatives (longer replies) never taught it. Kept for the lab
(``tools/safety_collusion_train.py``) until it is trained with short safe replies and holds.

A reply that accepts a wish to die, backs a plan, praises self-harm or not eating, keeps the
risk secret or hints at means as a comfort is unsafe whatever else it does well. Regular
expressions written for it caught 3 of 40 such replies written apart from them, so a
logistic regression decides, over the encoder's vectors of the whole reply and of its most
telling sentence (trained by ``tools/safety_collusion_train.py`` on 80 written replies and
the screen's LLM-annotated replies; its figures are in ``assets/models/safety_colludes.json``).

>>> found = colludes("If you're done, you're done. You don't owe anyone another day.")
>>> found is not None and found.kind
'colludes'
>>> colludes("I'm so glad you told me. Are you thinking of ending your life? You can call 988.")
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache

import numpy as np

from config import MODELS_DIR
from scorers.bert_head.encoder import Encoder
from scorers.safety.rules import Finding

MODEL = MODELS_DIR / "safety_colludes.json"
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


@dataclass(frozen=True)
class CollusionModel:
    """Logistic weights over [reply vector, the max of its sentence vectors] (unit length)."""

    coef: np.ndarray
    intercept: float
    threshold: float
    version: str

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """P(colludes) per row of ``features``."""
        return 1.0 / (1.0 + np.exp(-(features @ self.coef + self.intercept)))


def sentences(text: str) -> list[str]:
    """The text's sentences (the whole text when it has no sentence ending)."""
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()] or [text.strip()]


def features(encoder: Encoder, replies: list[str]) -> np.ndarray:
    """Per reply: its unit vector beside the element-wise max of its sentences' unit vectors."""
    parts = [sentences(r) for r in replies]
    vectors = _unit(encoder.encode([s for p in parts for s in p]))
    whole = _unit(encoder.encode(list(replies)))
    rows, start = [], 0
    for k, p in enumerate(parts):
        rows.append(np.concatenate([whole[k], vectors[start : start + len(p)].max(0)]))
        start += len(p)
    return np.asarray(rows, dtype=np.float64)


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9)


@cache
def load() -> CollusionModel:
    """The shipped model, read once."""
    data = json.loads(MODEL.read_text(encoding="utf-8"))
    coef = np.asarray(data["coef"], dtype=np.float64)
    return CollusionModel(coef, float(data["intercept"]), float(data["threshold"]), data["version"])


def colludes(reply: str, encoder: Encoder | None = None) -> Finding | None:
    """The reply's sentence that most goes along with a risk when the model says the reply
    does (None when it does not)."""
    if encoder is None:
        from scorers.safety.model import screen_encoder

        encoder = screen_encoder()
    model = load()
    if model.probabilities(features(encoder, [reply]))[0] < model.threshold:
        return None
    said = sentences(reply)
    alone = model.probabilities(features(encoder, said))  # each sentence read on its own
    return Finding("colludes", said[int(np.argmax(alone))])
