"""A bounded load test on 127.0.0.1: many visitors at once on the Compare page and the lab.

    python bench/bench_load.py [--sessions 20] [--max-tokens 16]

Starts the app as ``python app.py`` does (in its own process, its own port),
then opens ``--sessions`` gradio_client sessions on the Compare page (local
model at a small token limit plus the therapist's answer, each session a
different bundled question) and as many on the Adversarial lab (fixed rules
+ the empathy head, each session a different reply), all at once. It checks
that every session ends with its own result (the therapist's answer to its
own question; a lab table of its own reply) or a clear error, never another
session's, and reports wall time, queue positions seen, and the server's
memory before, at its peak and after. Bounded: a fixed number of requests,
a time limit, loopback only.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.questions import load_questions  # noqa: E402

LOCAL, HUMAN = "local/qwen2.5-coder-1.5b", "human/counselchat"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_app(tmp: Path) -> tuple[subprocess.Popen, str]:
    """The app in its own process, as ``python app.py`` starts it."""
    port = _free_port()
    env = {**os.environ, "EMPATHY_LAB_FLAG_DIR": str(tmp), "GRADIO_ANALYTICS_ENABLED": "False"}
    code = f"import app; app.start(server_name='127.0.0.1', server_port={port}, quiet=True)"
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    for _ in range(360):
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return proc, url
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("the app did not start")


def _follow(job: object, ranks: list[int]) -> None:
    """Wait for a job, noting every queue position the server reports for it."""
    while not job.done():  # type: ignore[attr-defined]
        rank = getattr(job.status(), "rank", None)  # type: ignore[attr-defined]
        if rank is not None:
            ranks.append(int(rank))
        time.sleep(0.2)


def connect(url: str, attempts: int = 3) -> object:
    """A gradio_client session (the page's config fetched), retried on a slow server."""
    from gradio_client import Client

    for attempt in range(attempts):
        try:
            return Client(url, verbose=False, httpx_kwargs={"timeout": 120})
        except Exception:
            if attempt == attempts - 1:
                raise
            time.sleep(2)
    raise AssertionError("unreachable")


def compare_session(
    client: object, start: threading.Barrier, index: int, max_tokens: int, ranks: list[int]
) -> str:
    """One visitor on the Compare page; returns 'ok', or what went wrong."""
    question = load_questions()[index]
    start.wait()
    job = client.submit(  # type: ignore[attr-defined]
        question.question, [LOCAL, HUMAN], ["bert-head"], "", max_tokens, 0.0,
        "", "", "", "", api_name="/compare",
    )  # fmt: skip
    _follow(job, ranks)
    try:
        outputs = job.result()
    except Exception as exc:  # a clear error is an acceptable end; a crash is not
        return f"error: {str(exc)[:120]}"
    from pages.compare import RESPONDER_IDS

    human = outputs[2 * RESPONDER_IDS.index(HUMAN)]
    local = outputs[2 * RESPONDER_IDS.index(LOCAL)]
    if human != question.answer:
        return "MIXED: the therapist panel holds another question's answer"
    return "ok" if local.strip() else "error: empty local reply"


def lab_session(client: object, start: threading.Barrier, index: int, ranks: list[int]) -> str:
    """One visitor on the Adversarial lab with its own reply."""
    from pages.adversarial import RULES_ONLY

    reply = f"Session {index}: I'm so sorry you are going through this. Try one small step."
    start.wait()
    job = client.submit(  # type: ignore[attr-defined]
        reply, "", ["leetspeak", "strip-empathy"], ["bert-head"], 0, RULES_ONLY, api_name="/lab"
    )
    _follow(job, ranks)
    try:
        table = job.result()[0]
    except Exception as exc:
        return f"error: {str(exc)[:120]}"
    return "ok" if f"Session {index}:" in table else "MIXED: another session's reply"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument(
        "--max-tokens", type=int, default=16, help="at least 16 (the page's minimum)"
    )
    args = parser.parse_args()
    import tempfile

    proc, url = start_app(Path(tempfile.mkdtemp()))
    time.sleep(20)  # let the warm-up finish, as on a Space that has been up a minute
    before = _rss_mb(proc.pid)
    peak = [before]
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak.append(_rss_mb(proc.pid))
            time.sleep(0.5)

    threading.Thread(target=watch, daemon=True).start()
    ranks: dict[str, list[int]] = {"compare": [], "lab": []}
    with ThreadPoolExecutor(max_workers=4) as pool:  # every visitor opens the page first
        clients = list(pool.map(lambda _: connect(url), range(2 * args.sessions)))
    start = threading.Barrier(2 * args.sessions)  # then all of them press the button at once
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=2 * args.sessions) as pool:
        compare = [
            pool.submit(compare_session, clients[i], start, i, args.max_tokens, ranks["compare"])
            for i in range(args.sessions)
        ]
        lab = [
            pool.submit(lab_session, clients[args.sessions + i], start, i, ranks["lab"])
            for i in range(args.sessions)
        ]
        results = {"compare": [f.result() for f in compare], "lab": [f.result() for f in lab]}
    wall = time.monotonic() - started
    stop.set()
    after = _rss_mb(proc.pid)
    proc.terminate()
    proc.wait(timeout=30)
    for page, outcomes in results.items():
        ok = outcomes.count("ok")
        mixed = sum(o.startswith("MIXED") for o in outcomes)
        errors = sorted({o for o in outcomes if o.startswith("error")})
        print(
            f"{page}: {ok}/{len(outcomes)} ok, {mixed} mixed up, errors: {errors or 'none'}, "
            f"largest queue position seen: {max(ranks[page], default=0)}"
        )
    print(
        f"wall time {wall:.0f} s; server memory {before:.0f} MB before, peak {max(peak):.0f} MB, after {after:.0f} MB"
    )
    if any(o.startswith("MIXED") for outs in results.values() for o in outs):
        sys.exit(1)


if __name__ == "__main__":
    main()
