"""The process exits cleanly while a background thread is still generating.

The exit hook used to free the local model under a running generation: every
test passed, then the interpreter died with a segmentation fault (CI red).
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


def test_exit_waits_for_a_running_generation_before_freeing_the_model(
    local_model_path: str,
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "leaving while it generates" in done.stdout, done.stderr[-2000:]
    assert done.returncode == 0, f"exit status {done.returncode}: {done.stderr[-2000:]}"
