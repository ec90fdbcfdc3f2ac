"""The local judge, side by side: sampled JSON vs probability-weighted, cold vs cached rubric.

Each run judges a ~150-word reply to a bundled question (a different one per
run, so no judgement cache helps) three ways, in turn:

- ``judge/local/…``: the sampled judge (JSON with a rationale first, grammar-
  constrained), through the shared chat context;
- ``judge-weighted/local/…``, cached: the rubric's KV state reused (the
  context holds the rubric and the previous reply, never this one), after
  the local responder has written a short reply in between (it has its own
  context, so it does not evict the judge's);
- ``judge-weighted/local/…``, cold: the same reply again with the context
  reset first, so the rubric's KV state is computed again.

Prints the median seconds per judgement and the ratios (target ≤ 5 s for
the cached weighted judge).

    python bench/bench_judge.py [--runs 3] [--rationale-tokens 24]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.questions import load_questions
from responders.local_llama import LocalLlamaResponder, load_llama
from scorers.base import ScoreItem
from scorers.judge.absolute import LLMJudge
from scorers.judge.weighted import WeightedJudge


def replies(runs: int) -> list[ScoreItem]:
    """Bundled answers cut to about 150 words, with their questions."""
    out = []
    for q in load_questions():
        words = q.answer.split()
        if len(words) >= 150:
            out.append(ScoreItem(" ".join(words[:150]), q.question))
        if len(out) == runs:
            break
    return out


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rationale-tokens", type=int, default=24)
    args = parser.parse_args()
    responder = LocalLlamaResponder()
    sampled = LLMJudge(responder)
    weighted = WeightedJudge(rationale_tokens=args.rationale_tokens)
    llm, lock = load_llama(weighted.model, "judge")
    weighted.score("Warm-up.", "Warm-up.")  # loads both contexts; rubric now cached
    times: dict[str, list[float]] = {"sampled": [], "weighted, cold": [], "weighted, cached": []}
    for item in replies(args.runs):
        times["sampled"].append(timed(lambda i=item: sampled.score(i.reply, i.message)))
        "".join(responder.generate("Say hello.", max_tokens=8))  # the responder runs in between
        weighted._cache.clear()  # cached side first: the context holds the rubric and the
        # previous reply, never this one, so only the rubric prefix can be reused
        times["weighted, cached"].append(timed(lambda i=item: weighted.score(i.reply, i.message)))
        with lock:
            llm.reset()  # the rubric's KV state is gone
        weighted._cache.clear()
        times["weighted, cold"].append(timed(lambda i=item: weighted.score(i.reply, i.message)))
        print(" ".join(f"{k}: {v[-1]:.1f}s" for k, v in times.items()), file=sys.stderr, flush=True)
    medians = {k: statistics.median(v) for k, v in times.items()}
    print(f"median seconds per judgement of a 150-word reply ({args.runs} runs)")
    for name, value in medians.items():
        print(f"  {name:18s} {value:7.2f}   ÷ sampled {value / medians['sampled']:5.2f}")
    print(
        f"cold ÷ cached (weighted): {medians['weighted, cold'] / medians['weighted, cached']:.2f}x"
    )


if __name__ == "__main__":
    main()
