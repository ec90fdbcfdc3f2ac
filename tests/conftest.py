"""Shared fixtures: a scripted fake responder, the local model, llama.cpp's server.

Before anything of the app is imported, the environment is made safe for the
whole run (and for every subprocess a test starts): the server has no API
keys (empty values also hide a developer's ``.env``), every cloud base URL
points at a local port where nothing listens, and flags go to a temporary
folder. :func:`_no_keys_no_network` then checks the settings every module
holds, so no test can call a paid API by accident.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

#: A port bound (never listening) for the whole run: connecting to it is refused.
_DEAD_SOCKET = socket.socket()
_DEAD_SOCKET.bind(("127.0.0.1", 0))
DEAD_URL = f"http://127.0.0.1:{_DEAD_SOCKET.getsockname()[1]}"
KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OPENAI_COMPATIBLE_API_KEY")
BASE_URL_VARS = (
    "OPENAI_BASE_URL",
    "ANTHROPIC_BASE_URL",
    "GEMINI_BASE_URL",
    "OPENAI_COMPATIBLE_BASE_URL",
)
for _name in KEY_VARS:
    os.environ[_name] = ""  # empty, not unset: an empty value also overrides a .env file
for _name in BASE_URL_VARS:
    os.environ[_name] = DEAD_URL + ("/v1" if "OPENAI" in _name else "")
os.environ["EMPATHY_LAB_FLAG_DIR"] = tempfile.mkdtemp(prefix="empathy-lab-test-flags-")
# Every run starts with cold score and embedding caches, so no test passes on what an
# earlier run (or another machine's rounding) left behind. Only the joined model file,
# verified by its hash, is shared with the developer's cache (joining it takes minutes).
_REAL_CACHE = Path(os.environ.get("EMPATHY_LAB_CACHE", Path.home() / ".cache" / "empathy-lab"))
_TEST_CACHE = Path(tempfile.mkdtemp(prefix="empathy-lab-test-cache-"))
(_REAL_CACHE.expanduser() / "models").mkdir(parents=True, exist_ok=True)
(_TEST_CACHE / "models").symlink_to(_REAL_CACHE.expanduser() / "models", target_is_directory=True)
os.environ["EMPATHY_LAB_CACHE"] = str(_TEST_CACHE)
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"  # no usage pings from launched apps
os.environ["HF_HUB_OFFLINE"] = "1"  # the Hub is unreachable anyway: never try it

import config  # noqa: E402  (the app is imported only after the environment is safe)
from config import Keys  # noqa: E402
from responders.base import GenerationSettings, Responder, TransientError, Usage  # noqa: E402
from responders.model_files import QWEN_CODER_1_5B, ensure_model_file  # noqa: E402


@dataclass
class Call:
    message: str
    settings: GenerationSettings


def one_at_a_time(monkeypatch: pytest.MonkeyPatch, provider: str) -> None:
    """A batch runs a test-only ``provider``'s rows one at a time, as it runs the local model's."""
    from studies.batch import engine

    real = engine.provider_limits

    def limits(name: str, concurrency: int):  # type: ignore[no-untyped-def]
        out = real(name, concurrency)
        out[provider] = 1
        return out

    monkeypatch.setattr(engine, "provider_limits", limits)


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


def _safe(settings: config.Settings) -> config.Settings:
    return dataclasses.replace(
        settings,
        keys=Keys({}),
        openai_base_url=DEAD_URL + "/v1",
        anthropic_base_url=DEAD_URL,
        gemini_base_url=DEAD_URL,
        openai_compatible_base_url=DEAD_URL + "/v1",
    )


_LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "0.0.0.0")
#: Every (host, port) this test process connected to or tried to look up, in order.
CONNECTIONS: list[tuple[str, object]] = []
#: Hosts the guard refused (anything that is not this machine).
BLOCKED: list[str] = []


def _is_local(host: object) -> bool:
    text = host.decode() if isinstance(host, bytes) else str(host)
    return text in _LOCAL_HOSTS or text.startswith("127.")


def _guard_network(patch: pytest.MonkeyPatch) -> None:
    """Refuse (and record) any connection to a host other than this machine."""
    real_getaddrinfo, real_connect = socket.getaddrinfo, socket.socket.connect

    def getaddrinfo(host, port, *args, **kwargs):  # type: ignore[no-untyped-def]
        if host is not None and not _is_local(host):
            BLOCKED.append(str(host))
            raise socket.gaierror(f"the test suite refuses to reach {host}")
        return real_getaddrinfo(host, port, *args, **kwargs)

    def connect(sock: socket.socket, address: object) -> None:
        if isinstance(address, tuple):
            CONNECTIONS.append((str(address[0]), address[1]))
            if not _is_local(address[0]):
                BLOCKED.append(str(address[0]))
                raise ConnectionRefusedError(f"the test suite refuses to reach {address[0]}")
        real_connect(sock, address)

    patch.setattr(socket, "getaddrinfo", getaddrinfo)
    patch.setattr(socket.socket, "connect", connect)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say which hosts the network guard refused, if any (a library reaching out)."""
    if BLOCKED:
        hosts = ", ".join(sorted(set(BLOCKED)))
        terminalreporter.write_line(
            f"network guard refused {len(BLOCKED)} connection(s) to: {hosts}"
        )


@pytest.fixture(scope="session", autouse=True)
def _no_keys_no_network() -> Iterator[None]:
    """Every module's ``SETTINGS``: no server keys, every cloud URL a dead local port;
    any connection beyond 127.0.0.1 is refused for the whole run."""
    patch = pytest.MonkeyPatch()
    safe = _safe(config.SETTINGS)
    for module in list(sys.modules.values()):
        if isinstance(getattr(module, "SETTINGS", None), config.Settings):
            patch.setattr(module, "SETTINGS", safe)
    _guard_network(patch)
    yield
    patch.undo()


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


@contextlib.contextmanager
def served(page):  # type: ignore[no-untyped-def]
    """One page (a ``gr.Blocks``) on 127.0.0.1 (a free port), quietly, with the app's CSS;
    yields its address and closes it after."""
    from pages.widgets.style import CSS

    page.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1", css=CSS)
    try:
        yield page.local_url
    finally:
        page.close()


@contextlib.contextmanager
def stories_judged_by(judge: Any) -> Iterator[None]:
    """Every story judge answered by ``judge`` (a fake) while it lasts, each judge's id still
    checked by the real parser; the judges made before and during it are forgotten."""
    from scorers.judge import story as story_module

    real = story_module.base.judge_responder

    def judge_responder(spec: str, **options: Any) -> Any:
        real(spec, **options)  # ids are still checked by the real parser
        return judge

    patch = pytest.MonkeyPatch()
    patch.setattr(story_module.base, "judge_responder", judge_responder)
    story_module._JUDGES.clear()
    try:
        yield
    finally:
        patch.undo()
        story_module._JUDGES.clear()


#: A story the Stories page's browser tests type in (a fake judge rates it).
STORY = "When my grandmother died I could not fly home for the funeral, and I still feel it."


def rated_chart(tab: Any, url: str, button_name: str, story: str = STORY) -> Any:
    """The Stories page at ``url`` in ``tab``: ``story`` typed in, the button named
    ``button_name`` pressed; returns the results chart (a Playwright ``Locator``) once its
    title shows, scrolled into view."""
    from playwright.sync_api import expect

    tab.goto(url)
    tab.locator("textarea").first.fill(story)
    tab.get_by_role("button", name=button_name).click()
    chart = tab.locator(".js-plotly-plot").first
    expect(chart.locator(".gtitle")).to_be_visible(timeout=30_000)
    chart.scroll_into_view_if_needed()
    return chart


@pytest.fixture(scope="module")
def vote_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Vote rounds and votes kept in a temporary folder for one test module."""
    from studies.votes import rounds as votes_module

    folder = tmp_path_factory.mktemp("votes")
    patch = pytest.MonkeyPatch()
    patch.setattr(
        votes_module, "SETTINGS", dataclasses.replace(votes_module.SETTINGS, votes_dir=folder)
    )
    yield folder
    patch.undo()


@pytest.fixture(scope="module")
def vote_url(vote_folder: Path) -> Iterator[str]:
    """The Vote page served for one test module (rounds in :func:`vote_folder`); no
    trailing slash, so ``f"{vote_url}/?round=..."`` reads as a visitor's link."""
    from pages import vote

    with served(vote.build()) as address:
        yield address.rstrip("/")


#: Debian's chromium, which the browser tests drive through Playwright (never a downloaded one).
CHROMIUM = "/usr/bin/chromium"


def require_chromium() -> None:
    """Called at the top of a browser test module: skip it where Debian's chromium is missing."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed here", allow_module_level=True)


@contextlib.contextmanager
def browser_page(width: int, height: int = 900, **options: object) -> Iterator[Any]:
    """A tab of a fresh headless chromium at ``width`` × ``height`` px (``options``: more of
    Playwright's ``new_context`` settings, e.g. ``accept_downloads=True``); the browser is
    closed after, whatever happened."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = browser.new_context(viewport={"width": width, "height": height}, **options)
            yield context.new_page()
        finally:
            browser.close()


@pytest.fixture(params=[(1280, 900), (390, 844)], ids=["wide", "phone"])
def tab(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh tab at desktop and at phone size (``tab.width``); errors the page throws fail
    the test. Screenshots go to the test module's ``SHOTS`` folder, made here when it has one."""
    shots = getattr(request.module, "SHOTS", None)
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    width, height = request.param
    with browser_page(width, height) as page:
        page.width, page.errors = width, []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        yield page
    assert page.errors == [], f"browser errors: {page.errors}"
