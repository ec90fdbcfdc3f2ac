"""The learned screen's linear models, and how a decision splits over what it read.

Each decision (the message's risk, whether the reply meets it, each reply
concern) is a logistic model over blocks of features: the mean and the
element-wise maximum of the sentence vectors of the message or the reply,
the largest log-odds a sentence model gives any sentence of either, and the
rules' hits. Being linear in those, its log-odds split exactly into one share
per sentence (the mean's share ``w·(s - μ)/n``; each maximum dimension goes
to the sentence that holds it; the riskiest sentence takes its block whole)
and one per rule hit, so every flag can name the sentence and the rules that
pushed it.

The weights ship in ``assets/models/safety_screen.safetensors`` with their
settings in ``safety_screen.json``; ``tools/safety_train.py`` writes both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from config import MODELS_DIR
from scorers.safety.features import MESSAGE_RULES, REPLY_RULES, Read

if TYPE_CHECKING:
    from scorers.bert_head.encoder import Encoder

#: The rule hits of each rules block.
RULES = {"message_rules": MESSAGE_RULES, "reply_rules": REPLY_RULES}
#: The blocks holding one number: the largest log-odds a sentence model gives any sentence
#: of the message or of the reply (``Linear.sentence``); no sentence reads :data:`NO_SENTENCE`.
RISKIEST = "message_riskiest"
REPLY_RISKIEST = "reply_riskiest"
RISKIEST_BLOCKS = (RISKIEST, REPLY_RISKIEST)
NO_SENTENCE = -10.0


@dataclass(frozen=True)
class Share:
    """What pushed one decision: a sentence (or a rule's words) and its log-odds."""

    source: str  # "message", "reply" or "rule:<name>"
    words: str
    weight: float


@dataclass(frozen=True)
class Decision:
    """One model's probability, its threshold, and the shares that pushed it."""

    probability: float
    threshold: float
    shares: tuple[Share, ...]

    @property
    def yes(self) -> bool:
        return self.probability >= self.threshold

    def top(self, source: str) -> Share | None:
        """The share from ``source`` that pushed most towards yes (None if none pushed so)."""
        found = [s for s in self.shares if s.source == source and s.weight > 0]
        return max(found, key=lambda s: s.weight) if found else None


@dataclass(frozen=True)
class Linear:
    """A logistic model over named feature blocks (scaling folded into the weights)."""

    blocks: tuple[str, ...]
    weights: np.ndarray
    bias: float
    center: np.ndarray
    threshold: float
    dim: int  # width of a sentence block (the encoder's)
    #: The sentence model a riskiest-sentence block reads: ``dim`` weights, then the bias.
    sentence: np.ndarray | None = None

    def decide(self, read: Read) -> Decision:
        """The probability for ``read``, split into shares."""
        shares: list[Share] = []
        logit = self.bias
        offset = 0
        for block in self.blocks:
            width = _width(block, self.dim)
            w = self.weights[offset : offset + width]
            c = self.center[offset : offset + width]
            offset += width
            if block in RISKIEST_BLOCKS:
                side = block.split("_")[0]
                part, found = _riskiest_share(float(w[0]), float(c[0]), read, self.sentence, side)
            else:
                part, found = _block_shares(block, w, c, read)
            logit += part
            shares += found
        probability = float(1.0 / (1.0 + np.exp(-logit)))
        return Decision(probability, self.threshold, tuple(shares))


def _width(block: str, dim: int) -> int:
    if block in RULES:
        return len(RULES[block])
    return 1 if block in RISKIEST_BLOCKS else dim


def riskiest(read: Read, sentence: np.ndarray | None, side: str = "message") -> tuple[float, int]:
    """The largest log-odds the sentence model gives a sentence of ``side`` (the message or
    the reply), and that sentence's position (:data:`NO_SENTENCE` and -1 when it has none).

    >>> import numpy as np
    >>> from scorers.safety.features import RuleHits
    >>> read = Read(["a", "b"], np.array([[1.0, 0.0], [0.0, 1.0]]), [], np.zeros((0, 2)),
    ...             RuleHits({}))
    >>> riskiest(read, np.array([0.5, 2.0, -1.0]))
    (1.0, 1)
    """
    if sentence is None:
        raise ValueError("a riskiest-sentence block needs a sentence model")
    texts, vectors = _side(read, side)
    if not texts:
        return NO_SENTENCE, -1
    odds = vectors @ sentence[:-1] + sentence[-1]
    at = int(np.argmax(odds))
    return float(odds[at]), at


def _side(read: Read, side: str) -> tuple[list[str], np.ndarray]:
    if side == "message":
        return read.message_sentences, read.message_vectors
    return read.reply_sentences, read.reply_vectors


def _riskiest_share(
    w: float, c: float, read: Read, sentence: np.ndarray | None, side: str = "message"
) -> tuple[float, list[Share]]:
    """The riskiest-sentence block's log-odds, all of it that sentence's share."""
    value, at = riskiest(read, sentence, side)
    part = w * (value - c)
    return part, ([Share(side, _side(read, side)[0][at], part)] if at >= 0 else [])


def _block_shares(
    block: str, w: np.ndarray, c: np.ndarray, read: Read
) -> tuple[float, list[Share]]:
    """The block's log-odds and its split over sentences or rule hits."""
    if block in RULES:
        x = read.hits.vector(RULES[block])
        contrib = w * (x - c)
        shares = [
            Share(f"rule:{name}", read.hits.words.get(name, ""), float(v))
            for name, v, on in zip(RULES[block], contrib, x, strict=True)
            if on
        ]
        return float(contrib.sum()), shares
    side, pool = block.split("_")
    texts = read.message_sentences if side == "message" else read.reply_sentences
    vectors = read.message_vectors if side == "message" else read.reply_vectors
    if not texts:
        return float(-(w @ c)), []
    centered = vectors - c
    if pool == "mean":
        per = centered @ w / len(texts)
    else:
        holder = vectors.argmax(0)
        per = np.zeros(len(texts))
        np.add.at(per, holder, w * centered[holder, np.arange(w.size)])
    return float(per.sum()), [Share(side, t, float(v)) for t, v in zip(texts, per, strict=True)]


@dataclass(frozen=True)
class Screen:
    """The trained models by decision name, and how they were made."""

    models: dict[str, Linear]
    version: str
    margin: float  # |probability - threshold| under this reads "uncertain"
    encoder_quantize: str | None = None  # the encoder form its vectors came from (None: fp32)


def load(folder: Path = MODELS_DIR) -> Screen:
    """The shipped screen (read once)."""
    return _load(str(folder))


@cache
def _load(folder: str) -> Screen:
    from safetensors.numpy import load_file

    meta = json.loads((Path(folder) / "safety_screen.json").read_text(encoding="utf-8"))
    tensors = load_file(str(Path(folder) / "safety_screen.safetensors"))
    models = {
        name: Linear(
            tuple(spec["blocks"]),
            tensors[f"{name}.weights"],
            float(spec["bias"]),
            tensors[f"{name}.center"],
            float(spec["threshold"]),
            int(meta["dim"]),
            tensors.get(f"{name}.sentence"),
        )
        for name, spec in meta["models"].items()
    }
    return Screen(models, meta["version"], float(meta["margin"]), meta.get("encoder_quantize"))


def design(read: Read, blocks: tuple[str, ...], sentence: np.ndarray | None = None) -> np.ndarray:
    """The feature row a model over ``blocks`` reads (what training fits on); a
    riskiest-sentence block reads the sentence model ``sentence``.

    A side with no sentences (no message) reads as zeros.
    """
    parts = []
    for block in blocks:
        if block in RULES:
            parts.append(read.hits.vector(RULES[block]))
            continue
        if block in RISKIEST_BLOCKS:
            value = riskiest(read, sentence, block.split("_")[0])[0]
            parts.append(np.array([value], dtype=np.float32))
            continue
        side, pool = block.split("_")
        vectors = read.message_vectors if side == "message" else read.reply_vectors
        if len(vectors) == 0:
            parts.append(np.zeros(vectors.shape[1], dtype=np.float32))
        else:
            parts.append(vectors.mean(0) if pool == "mean" else vectors.max(0))
    return np.concatenate(parts).astype(np.float32)


def screen_encoder() -> Encoder:
    """The shared encoder in the form the shipped screen was trained on (its
    ``encoder_quantize``: ``int8`` or none), the empathy head's when they match, so one
    encoding of a reply's sentences serves both.

    >>> screen_encoder().quantize is None  # the shipped screen reads fp32 vectors
    True
    """
    from scorers.bert_head.encoder import load_encoder

    return load_encoder(quantize=load().encoder_quantize)
