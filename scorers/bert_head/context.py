"""How the empathy head reads a reply as the next turn of a conversation.

A single message is scored as always. When earlier turns come with it, the head's
three scores for (reply, last message) go, with a few measures of how the reply
relates to the earlier turns, into a small model trained on conversations labelled
on the rubric: a ridge per component or a tree ensemble, whichever conversation-grouped
cross-validation chose (``tools/conversation_train.py``; the figures are in
``assets/cards/head-context.json``):

- how close the reply is to the last message and to the earlier seeker turns
  (encoder cosines: the nearest and the mean);
- how close it is to the supporter's own earlier turns (saying it again);
- the share of the earlier seeker turns' content words the reply picks up (all of
  them, and those the last message does not repeat), and of the supporter's earlier
  content words it repeats;
- how many questions it asks (the rubric's "inviting question"), and how many turns
  came before.

>>> from core.conversation import Turn
>>> earlier = (Turn("seeker", "My sister Ana died in March."), Turn("supporter", "I'm so sorry."))
>>> words_taken("Missing Ana at Christmas must hurt.", earlier, "seeker")
0.25
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from config import CARDS_DIR, MODELS_DIR
from core.conversation import SEEKER, SUPPORTER, Turn
from scorers.base import ScoreItem
from scorers.bert_head.encoder import Encoder

CONTEXT_MODEL = MODELS_DIR / "head_context.json"
#: What real conversations rated by experts said of the model (``cli.py experts --card``).
EXPERTS_CARD = CARDS_DIR / "conversations-experts.json"
#: The measures beside the head's three scores, in the model's order.
MEASURES = (
    "cos_message",
    "cos_seeker_max",
    "cos_seeker_mean",
    "cos_supporter_max",
    "seeker_words_taken",
    "earlier_seeker_words_taken",
    "supporter_words_repeated",
    "questions",
    "earlier_turns",
)
_WORD = re.compile(r"[^\W\d_]{3,}")


def content_words(text: str) -> set[str]:
    """Lower-cased words of three letters or more, without English stop words.

    >>> sorted(content_words("I tried the meditation app and it made things worse"))
    ['app', 'meditation', 'things', 'tried', 'worse']
    """
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return {w for w in (m.lower() for m in _WORD.findall(text)) if w not in ENGLISH_STOP_WORDS}


def words_taken(reply: str, history: tuple[Turn, ...], role: str, besides: str = "") -> float:
    """The share of ``role``'s earlier content words (less those of ``besides``) that the
    reply uses (0 when none)."""
    earlier = set().union(*(content_words(t.text) for t in history if t.role == role))
    earlier -= content_words(besides)
    return len(earlier & content_words(reply)) / len(earlier) if earlier else 0.0


def measures(encoder: Encoder, items: list[ScoreItem]) -> np.ndarray:
    """The :data:`MEASURES` of each item (one encoder call for every text they need)."""
    texts = [i.reply for i in items] + [i.message or "" for i in items]
    texts += [t.text for i in items for t in i.history]
    vectors = encoder.encode(texts)
    vectors = vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9)
    n, start, rows = len(items), 2 * len(items), []
    for k, item in enumerate(items):
        reply = vectors[k]
        turns = vectors[start : start + len(item.history)]
        start += len(item.history)
        sims = turns @ reply
        seeker = np.array([t.role == SEEKER for t in item.history], dtype=bool)
        rows.append(
            [
                float(vectors[n + k] @ reply),
                float(sims[seeker].max()) if seeker.any() else 0.0,
                float(sims[seeker].mean()) if seeker.any() else 0.0,
                float(sims[~seeker].max()) if (~seeker).any() else 0.0,
                words_taken(item.reply, item.history, SEEKER),
                words_taken(item.reply, item.history, SEEKER, besides=item.message or ""),
                words_taken(item.reply, item.history, SUPPORTER),
                float(item.reply.count("?")),
                float(len(item.history)),
            ]
        )
    return np.asarray(rows, dtype=np.float64)


@dataclass(frozen=True)
class ContextModel:
    """Ridge weights per component over (head scores, measures), standardised inside."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray  # (3, features)
    intercept: np.ndarray  # (3,)
    version: str

    def predict(self, head: np.ndarray, found: np.ndarray) -> np.ndarray:
        """Scores in [1, 3] from the head's (n, 3) scores and the (n, k) measures."""
        x = (np.hstack([head, found]) - self.mean) / self.scale
        return np.clip(x @ self.coef.T + self.intercept, 1.0, 3.0)

    def save(self, path: Path) -> None:
        """Write the model as JSON."""
        path.write_text(self.to_json() + "\n", encoding="utf-8")

    def to_json(self) -> str:
        """The model as JSON (small: a few dozen numbers)."""
        data = {k: getattr(self, k) for k in ("mean", "scale", "coef", "intercept")}
        plain = {k: np.asarray(v).tolist() for k, v in data.items()}
        return json.dumps({"version": self.version, "measures": MEASURES, **plain}, indent=1)


@dataclass(frozen=True)
class TreeContextModel:
    """A scikit-learn tree ensemble over (head scores, measures), three outputs."""

    estimator: Any  # a fitted ExtraTreesRegressor or RandomForestRegressor
    version: str

    def predict(self, head: np.ndarray, found: np.ndarray) -> np.ndarray:
        """Scores in [1, 3] from the head's (n, 3) scores and the (n, k) measures."""
        return np.clip(self.estimator.predict(np.hstack([head, found])), 1.0, 3.0)

    def save(self, path: Path) -> None:
        """Write the ensemble (``path`` with ``.skops``: no pickle) and its JSON note."""
        import zipfile

        import skops.io

        trees = path.with_suffix(".skops")
        skops.io.dump(self.estimator, trees, compression=zipfile.ZIP_DEFLATED, compresslevel=9)
        note = {"version": self.version, "measures": MEASURES, "kind": "trees", "file": trees.name}
        path.write_text(json.dumps(note, indent=1) + "\n", encoding="utf-8")


#: Either kind of conversation model: both read (head scores, measures) the same way.
AnyContextModel = ContextModel | TreeContextModel
#: The only types a tree file may hold beyond scikit-learn's and numpy's defaults.
TRUSTED_TYPES = ["sklearn.tree._tree.Tree"]


def read_context_model(path: Path = CONTEXT_MODEL) -> AnyContextModel | None:
    """The trained model, or None when none ships (then turns are not read)."""
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if tuple(data["measures"]) != MEASURES:
        raise ValueError(f"{path.name} was trained on other measures: retrain it")
    if data.get("kind") == "trees":
        import skops.io

        trees = path.parent / data["file"]
        return TreeContextModel(skops.io.load(trees, trusted=TRUSTED_TYPES), str(data["version"]))
    arrays = {
        k: np.asarray(data[k], dtype=np.float64) for k in ("mean", "scale", "coef", "intercept")
    }
    return ContextModel(**arrays, version=str(data["version"]))


def model_ships(card: Path | None = None) -> bool:
    """Whether the head reads turns with the conversation model by default: only when,
    on real conversations rated by experts, the model beat reading each turn alone with
    its whole paired interval above zero (the card of ``cli.py experts``; no card, no).

    >>> model_ships()  # 0.41 against 0.39 on Lend an Ear: a gain the interval does not hold
    False
    """
    card = card or EXPERTS_CARD
    if not card.exists():
        return False
    return json.loads(card.read_text(encoding="utf-8")).get("model_ships") is True


@lru_cache(maxsize=1)
def shipped_context_model() -> AnyContextModel | None:
    """:func:`read_context_model` of the shipped file, read once."""
    return read_context_model()


def in_context(
    model: AnyContextModel | None, encoder: Encoder, items: list[ScoreItem], head: np.ndarray
) -> np.ndarray:
    """The head's (n, 3) scores, with the rows of items that have earlier turns read in
    their conversation by ``model`` (unchanged when there is no model or no such item)."""
    rows = [i for i, item in enumerate(items) if item.history]
    if model is None or not rows:
        return head
    out = head.copy()
    out[rows] = model.predict(head[rows], measures(encoder, [items[i] for i in rows]))
    return out
