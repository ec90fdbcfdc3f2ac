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
- sentences re-encoded (beside the whole reply, or with their mean standing in
  for it: one pass over the reply's words) or spans (sentence vectors pooled
  from one pass of the reply), each in one encoder call, with the encoder run by torch
  or by ONNX Runtime (issue 33), in fp32 or int8 (dynamically quantised
  Linear layers), its texts packed end to end (issue 20) or "auto" (issue 33: this
  call is large, so bucketed by width, each text in a row of its own padded to its
  length rounded up); the shipped head's is marked.

Every head side runs the real command (``cli.main``: CSV in, the injection
guard, the head, CSV out); model loading (and quantising) is outside the
timings. Rounds alternate the sides; the medians are printed with the ratio
loop time ÷ side time (above 1 the side is faster than the loop), then the
largest difference between the scores of the two sentence sides (the same
recipe, padded or packed). Sides whose recipe is not the shipped one are
timed with the shipped weights (their rows cut or padded to its width): their
scores mean nothing.

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
from dataclasses import asdict, dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
from bench_scoring import plain_loop  # the same loop both benches measure against

from core.questions import load_questions
from scorers.base import ScoreItem
from scorers.bert_head.encoder import Encoder, default_encoder_path
from scorers.bert_head.features import FeatureRecipe, split_sentences
from scorers.bert_head.head import BertHead, load_head


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


@dataclass(frozen=True)
class BeforeRecipe(FeatureRecipe):
    """The sentence recipe's encoder calls as they were before issue 20: three per batch
    (rows cut or padded to ``width`` as :class:`SizedRecipe`'s, when it is set)."""

    width: int = 0

    def build(self, encoder: Encoder, items: list[ScoreItem]) -> np.ndarray:
        from scorers.bert_head.features import interaction, pool_sentences
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
        x = np.hstack(parts).astype(np.float32)
        return SizedRecipe.fit(x, self.width) if self.width else x


@dataclass(frozen=True)
class Side:
    """One way of running ``cli.py score --scorer bert-head``: recipe, layout, encoder."""

    name: str
    recipe: FeatureRecipe | None = None  # None: the shipped head's recipe
    quantize: str | None = None
    runtime: str = "torch"
    layout: str = "packed"  # how texts share a pass (scorers.bert_head.packing.LAYOUTS)
    before: bool = False  # three encoder calls, padded, BLAS threads free (before issue 20)


#: The head's recipe until issue 20's grouped CV (sentences re-encoded, fp32).
SENTENCES = FeatureRecipe(pooling="sentences", normalize=True, interaction=True)


@dataclass(frozen=True)
class SizedRecipe(FeatureRecipe):
    """A recipe whose rows are cut or zero-padded to the shipped head's width, so a side
    with another recipe can be timed through the shipped weights (its scores mean nothing).

    >>> SizedRecipe.fit(np.ones((1, 3)), 5).tolist(), SizedRecipe.fit(np.ones((1, 3)), 2).shape
    ([[1.0, 1.0, 1.0, 0.0, 0.0]], (1, 2))
    """

    width: int = 0

    def build(self, encoder: Encoder, items: list[ScoreItem]) -> np.ndarray:
        return self.fit(super().build(encoder, items), self.width)

    @staticmethod
    def fit(x: np.ndarray, width: int) -> np.ndarray:
        """``x`` cut or zero-padded to ``width`` columns."""
        if x.shape[1] >= width:
            return x[:, :width]
        return np.hstack([x, np.zeros((len(x), width - x.shape[1]), x.dtype)])


def sides(head: BertHead) -> list[Side]:
    """The pre-issue-20 head, then each speed lever (one pass per text, int8, ONNX Runtime);
    the shipped one marked."""
    spans = replace(SENTENCES, pooling="spans")
    mean = replace(SENTENCES, whole_reply=False)
    out = [Side("cli.py score bert-head, before issue 20", SENTENCES, before=True)]
    levers = [
        ("sentences re-encoded", SENTENCES, None, "torch", "packed"),
        ("sentences re-encoded", SENTENCES, "int8", "torch", "packed"),
        ("sentences re-encoded", SENTENCES, None, "onnx", "packed"),
        ("sentences re-encoded", SENTENCES, "int8", "onnx", "packed"),
        ("sentences re-encoded", SENTENCES, None, "onnx", "auto"),
        ("spans (one pass)", spans, None, "onnx", "packed"),
        ("spans (one pass)", spans, "int8", "onnx", "packed"),
        ("sentence mean for the reply", mean, None, "onnx", "packed"),
        ("sentence mean for the reply", mean, "int8", "onnx", "packed"),
        ("sentence mean for the reply", mean, None, "onnx", "auto"),
    ]
    for name, recipe, quantize, runtime, layout in levers:
        shipped = (recipe, quantize, runtime, layout) == (
            head.recipe,
            head.encoder.quantize,
            head.encoder.runtime,
            head.encoder.layout,
        )
        label = f"{name}, {runtime} {quantize or 'fp32'} {layout}" + (" = shipped" * shipped)
        out.append(Side(label, recipe, quantize, runtime, layout))
    return out


def cli_score(head: BertHead, side: Side, rows: Path, folder: Path) -> tuple[float, np.ndarray]:
    """Seconds for ``cli.py score --scorer bert-head`` on ``rows``, cold; and the scores.

    The shipped head (the object the command's registry hands out) gets a fresh
    encoder with its own empty cache file, laid out and quantised as ``side`` says,
    and reads with ``side``'s recipe (its feature sizes match the shipped
    head's, so a side with another recipe is timed, not scored meaningfully).
    """
    import cli
    from scorers.bert_head import head as head_module

    shipped, encoder, blas = head.recipe, head.encoder, head_module.one_blas_thread
    recipe = side.recipe or shipped
    head.encoder = Encoder(
        default_encoder_path(),
        encoder.name,
        disk_cache=folder / "embeddings.sqlite",
        layout="padded" if side.before else side.layout,
        quantize=side.quantize,
        runtime=side.runtime,
    )
    width = head.nets[0].mean.shape[-1]
    head.recipe = (
        BeforeRecipe(**asdict(recipe), width=0 if recipe == shipped else width)
        if side.before
        else recipe
        if recipe == shipped
        else SizedRecipe(**asdict(recipe), width=width)
    )
    if side.before:
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
        head.recipe, head.encoder, head_module.one_blas_thread = shipped, encoder, blas
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
    runs = sides(head)
    print(f"{len(items)} distinct replies; encoder all-MiniLM-L6-v2; shipped recipe {head.recipe}")
    times: dict[str, list[float]] = {"plain loop, one pass per reply, batch 1": []}
    scores: dict[str, np.ndarray] = {}
    with tempfile.TemporaryDirectory() as tmp:
        rows = Path(tmp) / "rows.csv"
        with rows.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, ["message", "reply"])
            writer.writeheader()
            writer.writerows({"message": i.message, "reply": i.reply} for i in items)
        for r in range(args.rounds):
            times["plain loop, one pass per reply, batch 1"].append(plain_loop(items))
            for k, side in enumerate(runs):
                folder = Path(tmp) / f"{k}-{r}"
                folder.mkdir()
                seconds, scores[side.name] = cli_score(head, side, rows, folder)
                times.setdefault(side.name, []).append(seconds)
            print(f"round {r + 1}: " + ", ".join(f"{v[-1]:.2f} s" for v in times.values()))
    report(times, scores[runs[0].name], scores[runs[1].name])


def report(times: dict[str, list[float]], old: np.ndarray, new: np.ndarray) -> None:
    """Each side's median and its ratio to the loop; the layout's effect on the same recipe's scores."""
    loop = statistics.median(next(iter(times.values())))
    print(f"\n{'side (medians)':48s} {'time (s)':>9s} {'loop ÷ side':>12s}")
    for name, values in times.items():
        seconds = statistics.median(values)
        print(f"{name:48s} {seconds:9.2f} {loop / seconds:12.2f}")
    diff = np.abs(old - new)
    changed = int((np.round(old, 2) != np.round(new, 2)).sum())
    print(
        f"same recipe, before vs packed: max |score difference| {diff.max():.2e} over "
        f"{old.size} values; {changed} differ at 2 decimals"
    )


if __name__ == "__main__":
    main()
