"""Shared fixtures: a scripted fake responder, the local model, llama.cpp's server."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

import pytest

from config import Keys
from responders.base import GenerationSettings, Responder, TransientError, Usage
from responders.model_files import QWEN_CODER_1_5B, ensure_model_file


@dataclass
class Call:
    message: str
    settings: GenerationSettings


class ScriptedResponder(Responder):
    """A fake responder: yields scripted chunks (with pauses) or raises; records calls."""

    provider: ClassVar[str] = "scripted"
    default_model: ClassVar[str] = "fake"
    label: ClassVar[str] = "Scripted"
    backoff_base_s: ClassVar[float] = 0.0

    def __init__(
        self,
        model: str = "fake",
        chunks: list[str] | None = None,
        *,
        pause_s: float = 0.0,
        fail: Exception | None = None,
        failures_first: int = 0,
    ) -> None:
        super().__init__(model, max_retries=2)
        self.chunks = chunks if chunks is not None else ["ok"]
        self.pause_s = pause_s
        self.fail = fail
        self.failures_first = failures_first
        self.calls: list[Call] = []
        self.yielded = 0

    def _stream(
        self, message: str, settings: GenerationSettings, keys: Keys
    ) -> Iterator[str | Usage]:
        self.calls.append(Call(message, settings))
        if self.failures_first > 0:
            self.failures_first -= 1
            raise TransientError("rate limited by the provider (HTTP 429)")
        for chunk in self.chunks:
            time.sleep(self.pause_s)
            self.yielded += 1
            yield chunk
        if self.fail is not None:
            raise self.fail
        yield Usage(3, len(self.chunks))


@pytest.fixture
def scripted() -> type[ScriptedResponder]:
    return ScriptedResponder


@pytest.fixture(scope="session")
def local_model_path() -> str:
    """The joined, verified packaged model (built on first use)."""
    return str(ensure_model_file(QWEN_CODER_1_5B))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def llama_server(local_model_path: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama-cpp-python's own OpenAI-compatible server on 127.0.0.1; yields its /v1 URL."""
    port = _free_port()
    log_path = tmp_path_factory.mktemp("llama-server") / "server.log"
    log = log_path.open("wb")  # a file, not a pipe: a full pipe would stall the server
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            local_model_path,
            "--model_alias",
            "qwen-local",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "2048",
            "--n_threads",
            "2",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 180
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(log_path.read_text(errors="replace")[-2000:])
            try:
                with urllib.request.urlopen(url + "/models", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("llama.cpp server did not start in 180 s") from None
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@contextlib.contextmanager
def app_client():  # type: ignore[no-untyped-def]
    """The whole app on 127.0.0.1 (a free port) and a gradio_client for it."""
    from gradio_client import Client

    import app as app_module

    demo = app_module.build_app()
    demo.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1")
    try:
        yield Client(demo.local_url, verbose=False)
    finally:
        demo.close()
