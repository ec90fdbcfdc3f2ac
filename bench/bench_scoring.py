"""Scoring a compare round with the BERT heads vs a plain one-pass loop, side by side.

A round: 5 replies × (original + 10 perturbations) = 55 texts, with their
messages. Sides, each with a fresh encoder and an empty cache (cold):

- plain loop: the packaged MiniLM run once per reply at batch size 1 (the
  floor any head on this encoder has to beat; it scores nothing);
- ``bert-head-raw``: the first head, which encodes every sentence again on
  its own;
- ``bert-head``: the default head (its recipe is printed: normalised text,
  sentences, the message), cold, then warm (the same texts again, as when
  a page re-renders).

Two sets of 55: a compare round with perturbations (normalisation turns
several variants back into the original, so the default head encodes fewer
distinct texts), and 55 distinct bundled answers (no such help). Prints the
times and each side's ratio to the plain loop (targets: the default head no
slower than the loop, and ≤ 2 s cold).

    python bench/bench_scoring.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.questions import load_questions
from perturbations.registry import PERTURBATIONS
from scorers.base import ScoreItem
from scorers.bert_head.encoder import Encoder, default_encoder_path
from scorers.bert_head.head import load_head


def round_items() -> list[ScoreItem]:
    items = []
    for q in load_questions()[:5]:
        items.append(ScoreItem(q.answer, q.question))
        for p in list(PERTURBATIONS.values())[:10]:
            items.append(ScoreItem(p(q.answer, seed=0).text or q.answer, q.question))
    return items


def distinct_items(n: int = 55) -> list[ScoreItem]:
    """``n`` different bundled therapist answers with their questions."""
    return [ScoreItem(q.answer, q.question) for q in load_questions()[:n]]


def plain_loop(items: list[ScoreItem]) -> float:
    """Seconds to run the encoder once per reply, batch size 1 (windows of 256 tokens)."""
    import torch

    encoder = Encoder(default_encoder_path(), "plain")
    t0 = time.perf_counter()
    with torch.inference_mode():
        for item in items:
            ids = encoder.tokenizer(
                item.reply, truncation=True, max_length=256, return_tensors="pt"
            )
            encoder.model(**ids)
    return time.perf_counter() - t0


def head_time(scorer_id: str, items: list[ScoreItem]) -> tuple[float, float]:
    """(cold, warm) seconds for a shipped head on a fresh encoder with no disk cache."""
    head = load_head(scorer_id)
    head.encoder = Encoder(
        default_encoder_path(), head.encoder.name, quantize=head.encoder.quantize
    )
    t0 = time.perf_counter()
    head.score_many(items)
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    head.score_many(items)
    return cold, time.perf_counter() - t0


def main() -> None:
    load_head("bert-head"), load_head("bert-head-raw")  # start-up is not part of the timings
    recipe = load_head("bert-head").recipe
    print(f"encoder all-MiniLM-L6-v2; default head recipe: {recipe}")
    for title, items in (
        ("a compare round: 5 replies x 11 variants", round_items()),
        ("55 distinct bundled answers", distinct_items()),
    ):
        plain = plain_loop(items)
        raw_cold, _ = head_time("bert-head-raw", items)
        cold, warm = head_time("bert-head", items)
        print(f"\n{len(items)} texts, {title}")
        print(f"{'side':44s} {'time (s)':>9s} {'÷ plain loop':>13s}")
        for name, seconds in (
            ("plain loop, one pass per reply, batch 1", plain),
            ("bert-head-raw (raw text), cold", raw_cold),
            ("bert-head (the default), cold", cold),
            ("bert-head, warm cache", warm),
        ):
            print(f"{name:44s} {seconds:9.3f} {seconds / plain:13.2f}")
        print(f"bert-head-raw ÷ bert-head (cold): {raw_cold / cold:.2f}x")


if __name__ == "__main__":
    main()
