"""The BERT empathy head: a frozen encoder and a small trained regression head.

Features (what cross-validation chose, see the README's scorer card): the
reply's windowed encoder vector, plus the mean and the element-wise max of
its sentences' vectors, plus (optionally) the message's vector. A
standardiser and an MLP (Dropout → Linear → GELU → Dropout → Linear) map them
to three outputs squashed into [1, 3] by ``1 + 2·sigmoid``. Several heads
trained with different seeds are averaged (an ensemble), and the spread
between them is reported.

The head records the encoder it was trained on and refuses any other.

>>> head = load_head()
>>> s = head.score("I'm so sorry about your dad. Losing him this suddenly must be "
...                "shattering. Would it help to talk about him?", "My father died last week.")
>>> s.status, 1.0 <= s.overall <= 3.0
('ok', True)
"""

from __future__ import annotations

import copy
import json
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from config import CARDS_DIR, MODELS_DIR
from scorers.base import Score, ScoreItem, Scorer
from scorers.bert_head.context import (
    AnyContextModel,
    in_context,
    model_ships,
    shipped_context_model,
)
from scorers.bert_head.encoder import Encoder, load_encoder
from scorers.bert_head.features import (
    FeatureRecipe,
)
from scorers.bert_head.threads import one_blas_thread

HEAD_WEIGHTS = MODELS_DIR / "bert_head.safetensors"
HEAD_CARD = CARDS_DIR / "bert-head.json"
#: The shipped heads by scorer id: (weights, card). ``bert-head`` reads normalised
#: text and how the reply relates to the message; ``bert-head-raw`` is the first
#: head, kept so the Adversarial lab can show what fragility looks like.
HEADS: dict[str, tuple[Path, Path]] = {
    "bert-head": (HEAD_WEIGHTS, HEAD_CARD),
    "bert-head-raw": (MODELS_DIR / "bert_head_raw.safetensors", CARDS_DIR / "bert-head-raw.json"),
}


class HeadMismatchError(RuntimeError):
    """The head was trained on a different encoder than the one offered."""


class HeadNet:
    """The numpy forward pass of one trained head (no torch needed to score)."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.mean = weights["scaler_mean"]
        self.scale = weights["scaler_scale"]
        self.w1, self.b1 = weights["w1"], weights["b1"]
        self.w2, self.b2 = weights["w2"], weights["b2"]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        z = (x - self.mean) / self.scale
        h = z @ self.w1.T + self.b1
        h = 0.5 * h * (1.0 + _erf(h / np.sqrt(2.0)))  # exact GELU, as torch's default
        out = h @ self.w2.T + self.b2
        return 1.0 + 2.0 / (1.0 + np.exp(-out))


def _erf(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return erf(x)


class BertHead(Scorer):
    """Scores replies with an ensemble of trained heads on a frozen encoder."""

    id = "bert-head"
    label = "Empathy head (MiniLM + trained head)"

    def __init__(
        self, nets: list[HeadNet], recipe: FeatureRecipe, card: dict[str, Any], encoder: Encoder
    ) -> None:
        if card["encoder"] != encoder.name or int(card["encoder_dim"]) != encoder.dim:
            raise HeadMismatchError(
                f"this head was trained on {card['encoder']!r} ({card['encoder_dim']} dims), "
                f"not {encoder.name!r} ({encoder.dim} dims): train a head for that encoder "
                "with python cli.py train-head --encoder PATH"
            )
        if card.get("encoder_quantize") != encoder.quantize or (
            encoder.quantize and card.get("encoder_runtime", "torch") != encoder.runtime
        ):  # fp32 vectors are the same in either runtime; quantised ones are not
            raise HeadMismatchError(
                f"this head was trained on the encoder quantised as "
                f"{card.get('encoder_quantize')!r} ({card.get('encoder_runtime', 'torch')}), "
                f"not {encoder.quantize!r} ({encoder.runtime})"
            )
        self.id = str(card.get("scorer", self.id))
        self.label = str(card.get("label", self.label))
        self.nets = nets
        self.recipe = recipe
        self.card = card
        self.encoder = encoder
        #: How it reads a reply after earlier turns (None: as a reply to the last message).
        self.context: AnyContextModel | None = None

    def setting_parts(self) -> list[str]:
        """The labels it trained on and its recipe (the same labels can train different heads)."""
        if not self.card.get("data_hash"):
            return []
        recipe = self.card.get("recipe") or {}
        encoder = self.card.get("encoder_quantize")  # int8 vectors are not the fp32 ones
        return [
            f"data={self.card['data_hash']}",
            *([f"encoder={encoder}"] if encoder else []),
            *(f"{k}={v}" for k, v in sorted(recipe.items()) if _names_a_setting(k, v)),
        ]

    @property
    def turns_setting(self) -> str:
        """The conversation model's version (it reads the replies that follow earlier turns)."""
        return self.context.version if self.context else ""

    def seen_ids(self) -> frozenset[str]:
        """The rubric-label rows it was trained on (when its card says it trained on them)."""
        return _training_ids(str(self.card.get("data_hash", "")))

    def _score_batch(self, items: list[ScoreItem]) -> list[Score]:
        features = self.recipe.build(self.encoder, items)
        with one_blas_thread():  # BLAS threads would fight the encoder's for the cores
            preds = np.stack([net(features) for net in self.nets])  # (heads, n, 3)
        mean = in_context(self.context, self.encoder, items, preds.mean(0))
        spread = preds.mean(2).std(0) if len(self.nets) > 1 else None
        return [
            Score.from_components(
                self.id,
                *np.clip(mean[i], 1.0, 3.0).tolist(),
                spread=None if spread is None else float(spread[i]),
            )
            for i in range(len(items))
        ]


def _names_a_setting(key: str, value: Any) -> bool:
    """Whether a recipe field goes into the cache key (fields at their old default do not,
    so scores cached before the field existed keep their keys).

    >>> _names_a_setting("use_message", False), _names_a_setting("whole_reply", True)
    (False, False)
    >>> _names_a_setting("whole_reply", False), _names_a_setting("pooling", "spans")
    (True, True)
    """
    return {"use_message": bool(value), "whole_reply": not value}.get(key, True)


def save_head(
    nets: list[dict[str, np.ndarray]],
    card: dict[str, Any],
    weights: Path = HEAD_WEIGHTS,
    card_path: Path = HEAD_CARD,
) -> Path:
    """Write the head's weights (safetensors) and its card (JSON); returns the weights path."""
    from safetensors.numpy import save_file

    tensors = {
        f"head{i}.{k}": np.ascontiguousarray(v, dtype=np.float32)
        for i, net in enumerate(nets)
        for k, v in net.items()
    }
    save_file(tensors, str(weights))
    card_path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    return weights


def read_head(
    weights: Path = HEAD_WEIGHTS, card_path: Path = HEAD_CARD, encoder: Encoder | None = None
) -> BertHead:
    """Load a head from its files; the encoder defaults to the one the card names."""
    from safetensors.numpy import load_file

    card = json.loads(card_path.read_text(encoding="utf-8"))
    tensors = load_file(str(weights))
    nets = []
    for i in range(int(card["heads"])):
        prefix = f"head{i}."
        nets.append(
            HeadNet({k[len(prefix) :]: v for k, v in tensors.items() if k.startswith(prefix)})
        )
    quantize = card.get("encoder_quantize")
    encoder = encoder or load_encoder(
        card.get("encoder_path"),
        card["encoder"],
        quantize,
        card.get("encoder_runtime", "torch") if quantize else None,
    )
    return BertHead(nets, FeatureRecipe(**card["recipe"]), card, encoder)


@lru_cache(maxsize=2)
def _training_ids(data_hash: str) -> frozenset[str]:
    """Ids of the bundled rubric labels, if ``data_hash`` is theirs (else none)."""
    from scorers.bert_head.labels import data_hash as hash_of
    from scorers.bert_head.labels import load_labels

    try:
        labels = load_labels()
    except (OSError, ValueError):
        return frozenset()
    return frozenset(labels.id.astype(str)) if hash_of(labels) == data_hash else frozenset()


_LOAD_LOCK = threading.Lock()


def load_head(scorer_id: str = "bert-head") -> BertHead:
    """A shipped head (see :data:`HEADS`) on its encoder.

    Loaded once, under a lock, whichever thread asks first.
    """
    if scorer_id not in HEADS:
        raise KeyError(f"no shipped head {scorer_id!r}; known: {', '.join(HEADS)}")
    with _LOAD_LOCK:
        return _load_head(scorer_id)


def shipped_weights(scorer_id: str = "bert-head") -> Path:
    """The weights file a shipped head reads: its card may name another head's file.

    The default head's card names the first head's weights (it reads them with
    normalisation built in) until a retrained head is saved by ``cli.py train-head``.
    """
    weights, card_path = HEADS[scorer_id]
    name = json.loads(card_path.read_text(encoding="utf-8")).get("weights_file")
    return MODELS_DIR / name if name else weights


@lru_cache(maxsize=4)
def _load_head(scorer_id: str) -> BertHead:
    head = read_head(shipped_weights(scorer_id), HEADS[scorer_id][1])
    # The conversation model was trained on this head's scores; it reads turns by default
    # only when it beat reading each turn alone on conversations experts rated.
    if scorer_id == "bert-head" and model_ships():
        head.context = shipped_context_model()
    return head


def head_reading_turns(*, with_model: bool) -> BertHead:
    """The default head reading earlier turns with the shipped conversation model, or
    without it (each turn as a reply to the last message), whatever the ship rule says:
    for studies that weigh the two readings."""
    head = copy.copy(load_head("bert-head"))
    head.context = shipped_context_model() if with_model else None
    return head
