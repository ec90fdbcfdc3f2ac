"""The process exits cleanly while a background thread is still generating.

The exit hook used to free the local model under a running generation: every
test passed, then the interpreter died with a segmentation fault (CI red).
A stream that a web worker keeps pumping for longer than the hook waits
crashed it too (an abort inside llama.cpp at exit): calls into llama.cpp stop
once the process begins to exit.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from config import ROOT

SCRIPT = textwrap.dedent(
    """
    import threading, time
    from responders.local_llama import load_llama

    llm, lock = load_llama("qwen2.5-coder-1.5b")
    started = threading.Event()

    def generate():
        with lock:
            started.set()
            for _ in llm.create_completion("Tell me about dogs.", max_tokens=40, stream=True):
                pass

    threading.Thread(target=generate, daemon=True).start()
    started.wait()
    time.sleep(0.3)
    print("leaving while it generates")
    """
)


PUMPED = textwrap.dedent(
    """
    import threading
    import responders.local_llama as local
    from core import native_calls
    from responders.local_llama import LocalLlamaResponder

    native_calls.EXIT_WAIT_SECONDS = 1.0  # shorter than the stream: the hook cannot outwait it
    started = threading.Event()
    ended = []

    def pump():  # a web worker pumping a long stream
        ask = "Write a very long story about two dogs, at least 1500 words."
        try:
            for _ in LocalLlamaResponder().generate(ask, system="", max_tokens=2000):
                started.set()
        except Exception as exc:
            ended.append(str(exc))

    worker = threading.Thread(target=pump, daemon=True)
    worker.start()
    started.wait()
    local._free_models()  # what the interpreter runs at exit
    worker.join(timeout=20)
    print("still generating" if worker.is_alive() else f"stream ended: {ended}")
    """
)


def _exit_status(script: str, said: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert said in done.stdout, done.stderr[-2000:]
    assert done.returncode == 0, f"exit status {done.returncode}: {done.stderr[-2000:]}"


def test_exit_waits_for_a_running_generation_before_freeing_the_model(
    local_model_path: str,
) -> None:
    _exit_status(SCRIPT, "leaving while it generates")


def test_exit_stops_a_stream_that_is_still_being_pumped(local_model_path: str) -> None:
    # Whether a thread left inside llama.cpp crashes the exit is a race; that the
    # exit hook stops the stream at once is not.
    _exit_status(PUMPED, "stream ended: ['the reply was cut off: the server is shutting down']")
