"""Scoring a compare round with the BERT head vs a naive one-text-at-a-time pipeline.

A round: 5 replies × (original + 10 perturbations) = 55 texts, plus their
messages. Both sides compute the same features (windowed whole-text vector,
sentence mean and max) with the same encoder and the same trained head; the
naive side runs the transformers model once per window or sentence (batch
size 1), with no cache. Ours is timed cold (fresh
encoder, empty cache) and warm (the same texts again, as when a page
re-renders). Prints times, the ratios (target >= 5x) and the largest
difference between the two sides' scores.

    python bench/bench_scoring.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from core.questions import load_questions
from perturbations.registry import PERTURBATIONS
from scorers.base import ScoreItem
from scorers.bert_head.encoder import Encoder, default_encoder_path
from scorers.bert_head.head import HeadNet, load_head, split_sentences


def round_items() -> list[ScoreItem]:
    items = []
    for q in load_questions()[:5]:
        items.append(ScoreItem(q.answer, q.question))
        for p in list(PERTURBATIONS.values())[:10]:
            items.append(ScoreItem(p(q.answer, seed=0).text or q.answer, q.question))
    return items


def naive_scores(items: list[ScoreItem], nets: list[HeadNet], window: int) -> np.ndarray:
    """The same features, one forward pass per window or sentence (batch size 1, no cache)."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    path = str(default_encoder_path())
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModel.from_pretrained(path).eval()

    def vec(text: str) -> np.ndarray:
        ids = tokenizer(text, add_special_tokens=False)["input_ids"] or [tokenizer.unk_token_id]
        size = window - 2
        pieces, weights = [], []
        for start in range(0, len(ids), size):
            chunk = [tokenizer.cls_token_id, *ids[start : start + size], tokenizer.sep_token_id]
            with torch.inference_mode():
                out = model(input_ids=torch.tensor([chunk]), output_hidden_states=True)
            last = out.last_hidden_state[0].mean(0).numpy()
            last4 = torch.stack(out.hidden_states[-4:]).mean(0)[0].mean(0).numpy()
            pieces.append(np.concatenate([last, last4]))
            weights.append(len(chunk) - 2)
        return np.average(pieces, axis=0, weights=weights)

    rows = []
    for item in items:
        sentences = np.stack([vec(s) for s in split_sentences(item.reply)])
        rows.append(np.concatenate([vec(item.reply), sentences.mean(0), sentences.max(0)]))
    features = np.stack(rows).astype(np.float32)
    return np.mean([net(features) for net in nets], axis=0).mean(1)


def main() -> None:
    items = round_items()
    head = load_head()
    fresh = Encoder(default_encoder_path(), head.encoder.name)  # no disk cache, empty memory
    head.encoder = fresh
    t0 = time.perf_counter()
    ours = np.array([s.overall for s in head.score_many(items)])
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    head.score_many(items)
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    naive = naive_scores(items, head.nets, fresh.window)
    slow = time.perf_counter() - t0
    print(f"{len(items)} texts (5 replies x 11 variants), encoder {fresh.name}")
    print(f"naive, one forward pass per piece  : {slow:7.2f} s")
    print(f"bert-head, batched, cold cache      : {cold:7.2f} s   speed-up {slow / cold:5.1f}x")
    print(f"bert-head, batched, warm cache      : {warm:7.3f} s   speed-up {slow / warm:5.0f}x")
    print(f"largest |difference| in overall score: {np.max(np.abs(ours - naive)):.4f}")


if __name__ == "__main__":
    main()
