"""The process exits cleanly while a web worker's thread is encoding texts.

CI aborted after every test had passed ("terminate called without an active
exception"): a daemon thread inside ONNX Runtime when the interpreter exited was
ended as it came back, unwinding through C++ frames. The exit now closes a gate
on native calls (core.native_calls) and waits for the pass under way.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from config import ROOT

SCRIPT = textwrap.dedent(
    """
    import itertools, threading
    from core import native_calls
    from scorers.bert_head.encoder import Encoder, default_encoder_path

    encoder = Encoder(default_encoder_path(), "exit-test", runtime="{runtime}")
    started, ended = threading.Event(), []

    def pump():  # a worker encoding new texts without a pause
        try:
            for n in itertools.count():
                encoder.encode([f"That sounds hard, number {{n}}. I'm here."])
                started.set()
        except native_calls.ShuttingDown as exc:
            ended.append(str(exc))

    worker = threading.Thread(target=pump, daemon=True)
    worker.start()
    started.wait()
    {ending}
    """
)


def _run(runtime: str, ending: str) -> subprocess.CompletedProcess[str]:
    script = SCRIPT.format(runtime=runtime, ending=ending)
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_closing_the_gate_stops_an_encoding_worker_at_once() -> None:
    done = _run(
        "onnx",
        'native_calls.close(); worker.join(timeout=10); print("alive" if worker.is_alive() else ended)',
    )
    assert done.stdout.strip() == "['the server is shutting down']", done.stderr[-2000:]


def test_exit_while_a_worker_encodes_does_not_abort() -> None:
    for _ in range(3):  # a race: without the gate most of these exits aborted
        done = _run("onnx", 'print("leaving")')
        assert done.returncode == 0, f"exit status {done.returncode}: {done.stderr[-2000:]}"
