"""The real start-up path (``python app.py``) with two visitors at once.

The app runs as people run it: ``python app.py`` in its own process (preload,
warm-up thread, queue, launch), on a free port of 127.0.0.1. Two visitors
submit a comparison at the same moment, each with a key typed into the page,
to two fake providers; both jobs finish, they run side by side, and each
provider sees only its own visitor's key. A request sent as soon as the
server answers (while the warm-up thread is still loading models) succeeds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest
from gradio_client import Client

from config import ROOT
from core.questions import load_questions
from pages.widgets.scores import names
from tests.conftest import _free_port
from tests.fake_providers import FakeProvider, Stream

pytestmark = pytest.mark.slow
# Each visitor types a key for both providers (none looks like an API key) and asks one.
KEYS_A = ("visitor A cloud 111", "visitor A server 112")
KEYS_B = ("visitor B cloud 221", "visitor B server 222")
DELAY_S = 2.0  # each fake waits this long before its first byte


@pytest.fixture(scope="module")
def fakes() -> Iterator[tuple[FakeProvider, FakeProvider]]:
    with FakeProvider("openai") as cloud, FakeProvider("openai") as compat:
        yield cloud, compat


@pytest.fixture(scope="module")
def started(fakes, tmp_path_factory) -> Iterator[tuple[str, float]]:
    """``python app.py`` on a free port; yields (url, monotonic time it first answered)."""
    cloud, compat = fakes
    port = _free_port()
    env = {
        **os.environ,
        "GRADIO_SERVER_NAME": "127.0.0.1",
        "GRADIO_SERVER_PORT": str(port),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "OPENAI_BASE_URL": cloud.url + "/v1",
        "OPENAI_COMPATIBLE_BASE_URL": compat.url + "/v1",
    }
    log_path = tmp_path_factory.mktemp("app") / "app.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "app.py"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 300
        try:
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(log_path.read_text(errors="replace")[-3000:])
                try:
                    with urllib.request.urlopen(url, timeout=2):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError("app.py did not answer in 300 s") from None
                    time.sleep(0.05)
            yield url, time.monotonic()
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(log_path.read_text(errors="replace")[-3000:])  # shown when a test failed


def compare(client: Client, message: str, responders: list[str], scorers: list[str], *keys: str):
    return client.submit(message, responders, scorers, "", 32, 0.0, *keys, api_name="/compare")


def test_a_request_right_after_start_is_scored(started):
    url, up_at = started
    client = Client(url, verbose=False)
    question = load_questions()[4]
    job = compare(client, question.question, ["human/counselchat"], ["bert-head"], "", "", "", "")
    sent_after = time.monotonic() - up_at
    outputs = job.result(timeout=300)
    table = next(o for o in outputs if isinstance(o, dict) and "headers" in o)  # after the panels
    rows = [dict(zip(table["headers"], r, strict=True)) for r in table["data"]]
    assert [(r["Scored by"], r["Status"]) for r in rows] == [(names("bert-head"), "scored")], rows
    assert sent_after < 5, f"sent {sent_after:.1f} s after the server answered"


def test_two_visitors_at_once_each_with_their_own_key(started, fakes):
    url, _ = started
    cloud, compat = fakes
    cloud.script(Stream(["From the ", "cloud."], delay_s=DELAY_S))
    compat.script(Stream(["From the ", "server."], delay_s=DELAY_S))
    a, b = Client(url, verbose=False), Client(url, verbose=False)
    message = "I keep thinking about the accident."
    job_a = compare(a, message, ["openai/gpt-4o"], [], KEYS_A[0], "", "", KEYS_A[1])
    job_b = compare(b, message, ["openai-compatible/default"], [], KEYS_B[0], "", "", KEYS_B[1])
    out_a, out_b = job_a.result(timeout=120), job_b.result(timeout=120)
    assert "From the cloud." in out_a and "From the server." in out_b
    shown = json.dumps(out_a) + json.dumps(out_b)
    assert not any(key in shown for key in (*KEYS_A, *KEYS_B))
    (req_a,) = cloud.requests  # visitor A's request, with A's cloud key
    (req_b,) = compat.requests  # visitor B's request, with B's server key
    assert req_a.headers["authorization"] == f"Bearer {KEYS_A[0]}"
    assert req_b.headers["authorization"] == f"Bearer {KEYS_B[1]}"
    assert abs(req_a.at - req_b.at) < DELAY_S  # both were in flight at once
