"""Head speed (issue 20): the shipped empathy head vs a plain loop over its encoder.

55 distinct bundled therapist answers with their questions (CounselChat;
none of them is in the head's training labels), timed side by side in one
run, each side cold (a fresh encoder and an empty vector cache: a new SQLite
file in a temporary folder, as a first ``cli.py score`` writes one):

- plain loop: the packaged MiniLM run once per reply, batch 1, fp32 (first
  256 tokens), scoring nothing: the floor the head is measured against;
- head, before issue 20: ``cli.py score --scorer bert-head`` with the head
  reading as it did (reply, sentences and message in three encoder calls,
  each batch padded to its longest text; numpy's BLAS threads left free);
- head, now: ``cli.py score --scorer bert-head`` as shipped (one packed call).

Both head sides run the real command (``cli.main``: CSV in, the injection
guard, the head, CSV out); model loading is outside the timings. Rounds
alternate the sides; the medians are printed with the ratio loop time ÷ head
time (the head's speed over the loop's: above 1 the head is faster), then
the largest difference between the two heads' scores on the 55 replies.

    nice python bench/bench_head_speed.py --rounds 3
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import statistics
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from core.questions import load_questions
from scorers.base import ScoreItem
from scorers.bert_head.encoder import Encoder, default_encoder_path
from scorers.bert_head.head import BertHead, FeatureRecipe, load_head, split_sentences


def distinct_items(n: int = 55) -> list[ScoreItem]:
    """The first ``n`` bundled answers with different text, with their questions."""
    seen: set[str] = set()
    items = []
    for q in load_questions():
        if q.answer not in seen:
            seen.add(q.answer)
            items.append(ScoreItem(q.answer, q.question))
    if len(items) < n:
        raise SystemExit(f"only {len(items)} distinct bundled answers")
    return items[:n]


class BeforeRecipe(FeatureRecipe):
    """The sentence recipe's encoder calls as they were before issue 20: three per batch."""

    def build(self, encoder: Encoder, items: list[ScoreItem]) -> np.ndarray:
        from scorers.bert_head.head import interaction, pool_sentences
        from scorers.normalize import normalize_text

        if self.normalize:
            items = [
                ScoreItem(normalize_text(i.reply), normalize_text(i.message or "") or None)
                for i in items
            ]
        sentences = [split_sentences(i.reply) for i in items]
        replies = encoder.encode([i.reply for i in items])
        flat = encoder.encode([s for group in sentences for s in group])
        parts = [replies, *pool_sentences(flat, sentences)]
        if self.use_message or self.interaction:
            message = encoder.encode([i.message or "" for i in items])
            if self.use_message:
                parts.append(message)
            if self.interaction:
                parts.append(interaction(replies, message))
        return np.hstack(parts).astype(np.float32)


def plain_loop(items: list[ScoreItem]) -> float:
    """Seconds to run the encoder once per reply, batch 1, fp32."""
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


def cli_score(head: BertHead, before: bool, rows: Path, folder: Path) -> tuple[float, np.ndarray]:
    """Seconds for ``cli.py score --scorer bert-head`` on ``rows``, cold; and the scores.

    The shipped head (the object the command's registry hands out) gets a fresh
    encoder with its own empty cache file, laid out as before issue 20 or as now.
    """
    import cli
    from scorers.bert_head import head as head_module

    shipped, blas = head.recipe, head_module.one_blas_thread
    head.encoder = Encoder(
        default_encoder_path(),
        head.encoder.name,
        disk_cache=folder / "embeddings.sqlite",
        pack=not before,
    )
    head.recipe = BeforeRecipe(**asdict(shipped)) if before else shipped
    if before:
        head_module.one_blas_thread = contextlib.nullcontext
    try:
        out = folder / "scored.csv"
        t0 = time.perf_counter()
        code = cli.main(
            ["score", "--scorer", "bert-head", "--input", str(rows), "--output", str(out)]
        )
        seconds = time.perf_counter() - t0
        if code != 0:
            raise SystemExit(f"cli.py score failed ({code})")
        # Rescored from the warm memory cache: the same vectors, at full precision.
        from scorers.registry import get_scorer

        items = [ScoreItem(r["reply"], r["message"]) for r in _read(rows)]
        scores = get_scorer("bert-head").score_many(items)
        values = np.array([[v for v in s.components().values()] for s in scores], dtype=float)
    finally:
        head.recipe, head_module.one_blas_thread = shipped, blas
    return seconds, values


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--n", type=int, default=55)
    args = parser.parse_args()
    items = distinct_items(args.n)
    head = load_head("bert-head")  # start-up is not part of the timings
    print(f"{len(items)} distinct replies; encoder all-MiniLM-L6-v2; recipe {head.recipe}")
    times: dict[str, list[float]] = {"loop": [], "before": [], "now": []}
    with tempfile.TemporaryDirectory() as tmp:
        rows = Path(tmp) / "rows.csv"
        with rows.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, ["message", "reply"])
            writer.writeheader()
            writer.writerows({"message": i.message, "reply": i.reply} for i in items)
        for r in range(args.rounds):
            times["loop"].append(plain_loop(items))
            for side in ("before", "now"):
                folder = Path(tmp) / f"{side}{r}"
                folder.mkdir()
                seconds, scores = cli_score(head, side == "before", rows, folder)
                times[side].append(seconds)
                if side == "before":
                    old = scores
            new = scores
            print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]:.2f} s" for k, v in times.items()))
    report(times, old, new)


def report(times: dict[str, list[float]], old: np.ndarray, new: np.ndarray) -> None:
    """The median of each side, its ratio to the loop, and how far the two heads' scores differ."""
    loop = statistics.median(times["loop"])
    print(f"\n{'side (medians)':44s} {'time (s)':>9s} {'loop ÷ side':>12s}")
    for key, name in (
        ("loop", "plain loop, one pass per reply, batch 1"),
        ("before", "cli.py score bert-head, before issue 20"),
        ("now", "cli.py score bert-head, now"),
    ):
        seconds = statistics.median(times[key])
        print(f"{name:44s} {seconds:9.2f} {loop / seconds:12.2f}")
    before, now = statistics.median(times["before"]), statistics.median(times["now"])
    print(f"head now vs before: {before / now:.2f}x faster")
    diff = np.abs(old - new)
    changed = int((np.round(old, 2) != np.round(new, 2)).sum())
    print(
        f"scores, before vs now: max |difference| {diff.max():.2e} over {old.size} values "
        f"({old.shape[0]} replies x {old.shape[1]} components); {changed} differ at 2 decimals"
    )


if __name__ == "__main__":
    main()
