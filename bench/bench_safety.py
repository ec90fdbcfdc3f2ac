"""Safety screen speed (issue 28): the learned screen beside the rules it replaced.

The 100 bundled CounselChat questions with their therapists' answers, timed
side by side in one run, rounds alternating:

- rules: the rule pass alone (``safety-rules-v3``: the rules the screen was before
  issue 28, now one input of the learned screen);
- learned, cold: ``scorers.safety.check`` with an empty vector cache (every
  sentence encoded by the shared MiniLM, run by ONNX Runtime as the app runs it),
  as a first screen of new replies; and the same with the MiniLM run by torch
  (as before issue 33);
- learned, warm: the same replies again (the vectors cached, as when the
  empathy head has just read the same texts).

Prints the median milliseconds a reply for each side, and the ratio learned ÷
rules. The target is ≤ 50 ms a reply on 2 cores for the learned screen.

    nice python bench/bench_safety.py --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.questions import load_questions


def pairs() -> list[tuple[str, str]]:
    """(question, therapist answer) for every bundled question."""
    return [(q.question, q.answer) for q in load_questions()]


def rules_ms(items: list[tuple[str, str]]) -> float:
    """Milliseconds a reply for the rules alone."""
    from scorers.safety.features import rule_hits

    started = time.perf_counter()
    for message, reply in items:
        rule_hits(message, reply)
    return 1000 * (time.perf_counter() - started) / len(items)


def learned_ms(items: list[tuple[str, str]], cold: bool, model: object = None) -> float:
    """Milliseconds a reply for the learned screen (``cold``: a fresh, empty vector cache;
    ``model``: the network the shared encoder runs, when not its own)."""
    from scorers.bert_head import encoder as enc
    from scorers.safety import check

    shared = enc.load_encoder()
    own = shared.model
    if cold:
        shared._cache.clear()
        shared._disk = enc._DiskCache(Path(tempfile.mkdtemp()) / "vectors.sqlite")
    shared.model = model or own
    try:
        started = time.perf_counter()
        for message, reply in items:
            check(message, reply)
        return 1000 * (time.perf_counter() - started) / len(items)
    finally:
        shared.model = own


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    items = pairs()
    from scorers.bert_head.encoder import Encoder, default_encoder_path

    learned_ms(items[:2], cold=True)  # load the encoder and the model outside the timings
    torch_model = Encoder(default_encoder_path(), "torch-side", runtime="torch").model
    times: dict[str, list[float]] = {
        "rules": [],
        "learned, cold": [],
        "cold, torch": [],
        "learned, warm": [],
    }
    for _ in range(args.rounds):
        times["rules"].append(rules_ms(items))
        times["learned, cold"].append(learned_ms(items, cold=True))
        times["cold, torch"].append(learned_ms(items, cold=True, model=torch_model))
        times["learned, warm"].append(learned_ms(items, cold=False))
    medians = {side: statistics.median(t) for side, t in times.items()}
    print(f"{len(items)} bundled question/answer pairs, {args.rounds} rounds, median ms a reply:")
    for side, ms in medians.items():
        ratio = ms / medians["rules"]
        print(f"  {side:<14} {ms:8.2f} ms   ({ratio:,.1f}× the rules' time)")
    print("target: learned, cold ≤ 50 ms a reply")


if __name__ == "__main__":
    main()
