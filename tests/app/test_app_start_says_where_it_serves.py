"""Newcomer walk (on the way to the Vote page), starting the server: ``python app.py`` left its
log empty (no address: llama.cpp, loading the local model in the warm-up thread, pointed
standard output at /dev/null just as the server started), and a busy port 7860 quietly became
7861. Now one line says where the app serves, written at once; a port the operator chose that
is taken is refused at once with a plain message; a busy default port is replaced by the next
free one, and the line says so.
"""

from __future__ import annotations

import argparse
import os
import queue
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest

from config import ROOT
from core import app_options
from tests.conftest import _free_port


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRADIO_SERVER_")}
    return {**env, "GRADIO_ANALYTICS_ENABLED": "False", **extra}


@pytest.fixture
def taken() -> Iterator[int]:
    """A port on 127.0.0.1 where something already listens."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


def lines_of(proc: subprocess.Popen) -> queue.Queue[str]:
    """The process's output, line by line, as it comes."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in proc.stdout:  # type: ignore[union-attr]
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return lines


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


def running_line(lines: queue.Queue[str], url: str, deadline_s: float = 300) -> str | None:
    """The line that says where the app serves; None when the server answered at ``url`` and
    no such line followed within 5 seconds."""
    give_up, answered = time.monotonic() + deadline_s, None
    while time.monotonic() < give_up:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            if answered is None and answers(url):
                answered = time.monotonic()
            if answered is not None and time.monotonic() > answered + 5:
                return None
            continue
        if "is running on" in line:
            return line.strip()
    raise AssertionError(f"app.py did not start in {deadline_s} s")


@pytest.mark.slow
def test_the_app_says_where_it_serves_as_soon_as_it_does():
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    proc = subprocess.Popen(
        [sys.executable, "app.py", "--port", str(port)],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = running_line(lines_of(proc), url)
        assert line is not None, "the server answered, and its output never said where"
        assert line.startswith(f"Empathy Lab is running on {url}"), line
        assert "Ctrl+C" in line and answers(url)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.mark.parametrize("how", ["--port", "GRADIO_SERVER_PORT"])
def test_a_chosen_port_that_is_taken_is_refused_at_once(taken, how):
    args = ["--port", str(taken)] if how == "--port" else []
    env = _env(GRADIO_SERVER_PORT=str(taken)) if how != "--port" else _env()
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "app.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"port {taken} on 127.0.0.1 (set by {how}) is already in use" in done.stderr
    assert "--port" in done.stderr  # how to choose another
    assert "is running on" not in done.stdout
    assert time.monotonic() - began < 20, "it loaded the pages before refusing"


def test_a_busy_default_port_is_replaced_and_said(taken, monkeypatch):
    monkeypatch.setattr(app_options, "DEFAULT_PORT", taken)
    options = argparse.Namespace(host=None, port=None)
    address = app_options.serve_address(options, {})
    assert address.host == "127.0.0.1" and address.port > taken
    assert address.note == f"port {taken} was busy, so it took {address.port}"
    free = _free_port()
    monkeypatch.setattr(app_options, "DEFAULT_PORT", free)
    assert app_options.serve_address(options, {}) == app_options.Address("127.0.0.1", free)


def test_the_line_says_why_it_is_not_on_the_port_asked_for():
    from pages.widgets.launch import running_line as line

    said = line("http://127.0.0.1:7861/", "127.0.0.1", "port 7860 was busy, so it took 7861")
    assert said == (
        "Empathy Lab is running on http://127.0.0.1:7861/ (port 7860 was busy, so it took "
        "7861). Open it in a browser; Ctrl+C stops it."
    )
    assert "every network interface" in line("http://localhost:7860/", "0.0.0.0")
