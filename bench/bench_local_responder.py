"""The local responder against raw llama_cpp on the same prompt, in one run.

Both load the same packaged GGUF with the same context size and threads, get
the same system prompt and message through the model's chat template, decode
greedily (temperature 0) for the same number of tokens, and are timed the
same way: time to first token (the prompt cache is cleared before every run,
so it includes reading the whole prompt), and decode speed in tokens per second
(tokens after the first / time after the first). Runs alternate so that
neither side gets a warmer machine. Prints a table and the ratios
(responder / raw; target >= 0.9 for tokens/s).

    python bench/bench_local_responder.py [--runs 5] [--max-tokens 96]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from config import DEFAULT_SYSTEM_PROMPT, SETTINGS
from responders.local_llama import LocalLlamaResponder, load_llama
from responders.model_files import QWEN_CODER_1_5B, ensure_model_file

MESSAGE = (
    "My partner left last month and I keep replaying every argument we had. "
    "I can't focus at work and I'm scared I'll never feel normal again."
)


def timed(stream: Iterator[str]) -> tuple[float, float, int]:
    """(seconds to first chunk, decode tokens/s, chunks) for one stream."""
    t0 = time.perf_counter()
    first = last = None
    count = 0
    for piece in stream:
        if not piece:
            continue
        now = time.perf_counter()
        first = now if first is None else first
        last = now
        count += 1
    assert first is not None and last is not None and count > 1
    return first - t0, (count - 1) / (last - first), count


def raw_stream(llm: object, max_tokens: int) -> Iterator[str]:
    messages = [
        {"role": "system", "content": DEFAULT_SYSTEM_PROMPT},
        {"role": "user", "content": MESSAGE},
    ]
    for chunk in llm.create_chat_completion(  # type: ignore[attr-defined]
        messages=messages, max_tokens=max_tokens, temperature=0.0, stream=True
    ):
        yield chunk["choices"][0]["delta"].get("content") or ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--max-tokens", type=int, default=96)
    args = parser.parse_args()

    from llama_cpp import Llama

    path = ensure_model_file(QWEN_CODER_1_5B)
    raw = Llama(
        model_path=str(path),
        n_ctx=SETTINGS.local_context,
        n_threads=SETTINGS.local_threads,
        verbose=False,
    )
    shared, _ = load_llama("qwen2.5-coder-1.5b")
    responder = LocalLlamaResponder()

    sides: dict[str, Callable[[], Iterator[str]]] = {
        "raw llama_cpp": lambda: raw_stream(raw, args.max_tokens),
        "local responder": lambda: iter(
            responder.generate(MESSAGE, max_tokens=args.max_tokens, temperature=0.0)
        ),
    }
    for make in sides.values():  # warm-up, not timed
        timed(make())
    results: dict[str, list[tuple[float, float, int]]] = {name: [] for name in sides}
    for i in range(args.runs):
        order = list(sides) if i % 2 == 0 else list(reversed(sides))
        for name in order:
            raw.reset()  # forget cached prompt tokens: time the full prompt each run
            shared.reset()
            results[name].append(timed(sides[name]()))

    print(
        f"model {path.name}, {args.runs} runs each, max {args.max_tokens} tokens, "
        f"{SETTINGS.local_threads} threads"
    )
    print(f"{'side':16s} {'first token s':>14s} {'tokens/s':>9s} {'tokens':>7s}")
    medians = {}
    for name, rows in results.items():
        ttft = statistics.median(r[0] for r in rows)
        tps = statistics.median(r[1] for r in rows)
        count = statistics.median(r[2] for r in rows)
        medians[name] = (ttft, tps)
        print(f"{name:16s} {ttft:14.3f} {tps:9.2f} {count:7.0f}")
    ours, base = medians["local responder"], medians["raw llama_cpp"]
    print(f"ratio tokens/s (responder / raw): {ours[1] / base[1]:.3f}  (target >= 0.9)")
    print(f"ratio first-token time (raw / responder): {base[0] / ours[0]:.3f}")


if __name__ == "__main__":
    main()
