"""Newcomer walk: ``python app.py --help`` started the server. It now prints what the app
does and the operator's settings it reads (with their values now, keys never shown), and
starts nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from config import ROOT
from tests.conftest import _free_port


def _run(*args: str, **env: str) -> tuple[subprocess.CompletedProcess, float]:
    env = {**os.environ, "GRADIO_SERVER_PORT": str(_free_port()), **env}
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "app.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done, time.monotonic() - began


def test_help_says_what_it_does_and_what_it_reads_and_starts_nothing():
    done, seconds = _run("--help", OPENAI_API_KEY="sk-newcomer-secret-123")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("usage: python app.py") and "--port" in out and "--host" in out
    assert "compares how empathically language models answer" in out
    for name in ("GRADIO_SERVER_PORT", "EMPATHY_LAB_MAX_UPLOAD_MB", "EMPATHY_LAB_RUNS_DIR"):
        assert name in out
    assert "OPENAI_API_KEY" in out and "sk-newcomer-secret-123" not in out
    assert "Running on" not in out + done.stderr
    assert seconds < 20, f"--help took {seconds:.1f} s: it loaded the pages"


def test_a_wrong_option_is_refused_without_starting():
    done, _ = _run("--port", "eighty")
    assert done.returncode == 2 and "invalid int value" in done.stderr
