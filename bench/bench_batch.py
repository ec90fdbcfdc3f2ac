"""The batch runner's concurrency against a fake provider: serial vs 8 rows at once.

100 calls to a local fake OpenAI server (tests/fake_providers.py) that waits
1 s before answering. Serial: one ``generate`` after the other, as a plain
loop would. Batch: :func:`studies.batch.run.run_batch` with concurrency 8 (the
same responder, no scorers). Prints both wall times and the ratio (target
>= 6.5x), all in one run.

    python bench/bench_batch.py [--calls 100] [--latency 1.0] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from config import Keys
from core.questions import load_questions
from responders.openai_api import OpenAIResponder
from studies.batch.plan import BatchQuestion, BatchSettings
from studies.batch.run import run_batch
from tests.fake_providers import FakeProvider, Stream

KEYS = Keys({"OPENAI_API_KEY": "sk-bench-0000000000"})


def questions(count: int) -> list[BatchQuestion]:
    bank = load_questions()
    return [BatchQuestion(str(i), bank[i % len(bank)].question + f" ({i})") for i in range(count)]


def serial(responder: OpenAIResponder, qs: list[BatchQuestion]) -> float:
    start = time.perf_counter()
    for q in qs:
        gen = responder.generate(q.text, max_tokens=50, keys=KEYS)
        "".join(gen)
        assert gen.reply.ok, gen.reply.error
    return time.perf_counter() - start


def batched(responder: OpenAIResponder, qs: list[BatchQuestion], concurrency: int) -> float:
    settings = BatchSettings((responder.id,), ("study",), (), max_tokens=50)
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        outcome = run_batch(
            folder,
            qs,
            settings,
            concurrency=concurrency,
            keys=KEYS,
            make_responder=lambda _: responder,
        )
        elapsed = time.perf_counter() - start
    assert outcome.done == len(qs), outcome
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    qs = questions(args.calls)
    with FakeProvider("openai") as fake:
        fake.script(*[Stream(["Here ", "for you."], delay_s=args.latency)] * (2 * args.calls))
        responder = OpenAIResponder("gpt-4o", base_url=fake.url + "/v1", max_retries=0)
        one = serial(responder, qs)
        many = batched(responder, qs, args.concurrency)
        assert len(fake.requests) == 2 * args.calls
    print(f"{args.calls} calls, {args.latency:.1f} s latency each")
    print(f"serial:                      {one:7.1f} s")
    print(f"batch runner, concurrency {args.concurrency}: {many:7.1f} s")
    print(f"ratio: {one / many:.2f}x (target >= 6.5x)")


if __name__ == "__main__":
    main()
