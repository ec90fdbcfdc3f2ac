"""``python app.py``'s options, the operator settings its ``--help`` lists, and the address it
serves on (no Gradio imports here, so ``--help`` answers, and a taken port is refused, before
the pages load).

>>> parse_args(["--port", "8080"]).port
8080
"""

from __future__ import annotations

import argparse
import os
import socket
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass

import config

#: Where the app serves unless the operator says otherwise (--host/--port, GRADIO_SERVER_*).
DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 7860
#: Ports tried after :data:`DEFAULT_PORT` when it is taken (the operator chose none).
PORT_TRIES = 100

ABOUT = (
    "Start Empathy Lab: a web app that compares how empathically language models answer "
    "people in distress, and tests the tools that score empathy. It runs keyless on a "
    "local model; cloud models need their API keys."
)


def settings_help() -> str:
    """The operator's settings this server reads, each with the value it would use now
    (docs/deployment.md describes every one; API keys are named, never shown)."""
    s = config.SETTINGS
    rows = [
        (
            "GRADIO_SERVER_NAME",
            os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
            "address (--host)",
        ),
        ("GRADIO_SERVER_PORT", os.environ.get("GRADIO_SERVER_PORT", "7860"), "port (--port)"),
        ("EMPATHY_LAB_MAX_UPLOAD_MB", f"{s.max_upload_bytes / 2**20:g} MB", "largest upload"),
        ("EMPATHY_LAB_MAX_FLAG_LOG_MB", f"{s.max_flag_log_bytes / 2**20:g} MB", "largest flag log"),
        ("EMPATHY_LAB_MAX_MESSAGE_CHARS", s.max_message_chars, "longest message, in characters"),
        ("EMPATHY_LAB_TIMEOUT_S", f"{s.request_timeout_s:g} s", "time limit of one model call"),
        ("EMPATHY_LAB_THREADS", s.local_threads, "CPU threads of the local model"),
        ("EMPATHY_LAB_CONTEXT", s.local_context, "local model's context, in tokens"),
        ("EMPATHY_LAB_ENCODER_RUNTIME", s.encoder_runtime, "empathy head's encoder"),
        ("EMPATHY_LAB_BATCH_CONCURRENCY", s.batch_concurrency, "batch rows at once"),
        ("EMPATHY_LAB_RUNS_DIR", s.runs_dir, "batch runs"),
        ("EMPATHY_LAB_FLAG_DIR", s.flag_dir, "flagged cases"),
        ("EMPATHY_LAB_VOTES_DIR", s.votes_dir, "vote rounds"),
        ("EMPATHY_LAB_CACHE", s.cache_dir, "models, scores, calibrations"),
        ("EMPATHY_LAB_PUBLIC", "1" if s.public else "off", "strangers share this server"),
        ("EMPATHY_LAB_ADMIN_TOKEN", "set" if s.admin_token else "not set", "operator's token"),
        ("EMPATHY_LAB_VISITOR_MAX_RUNS", s.visitor_max_runs, "batch runs one visitor keeps"),
        ("EMPATHY_LAB_VISITOR_MAX_MB", f"{s.visitor_max_bytes / 2**20:g} MB", "one visitor's runs"),
        (
            "EMPATHY_LAB_VISITORS_MAX_MB",
            f"{s.visitors_max_bytes / 2**20:g} MB",
            "all visitors' runs",
        ),
        ("EMPATHY_LAB_KEEP_DAYS", f"{s.keep_days:g}", "days a visitor's run is kept"),
        ("EMPATHY_LAB_MAX_REQUEST_MB", f"{s.max_request_bytes / 2**20:g} MB", "largest request"),
        ("EMPATHY_LAB_DATA_DIR", s.extra_data_dir, "optional data sets"),
    ]
    lines = [f"  {name:<30} {what} (now {value})" for name, value, what in rows]
    keys = ", ".join(config.KEY_ENV_VARS)
    return (
        "settings, from the environment (all but GRADIO_* also from a .env file):\n"
        + "\n".join(lines)
        + f"\n  API keys: {keys} (never printed)"
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """``python app.py``'s options; ``--help`` prints :data:`ABOUT` and :func:`settings_help`."""
    parser = argparse.ArgumentParser(
        prog="python app.py",
        description=textwrap.fill(ABOUT, 88),
        epilog=settings_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", help="address to listen on (0.0.0.0: every interface)")
    parser.add_argument("--port", type=int, help="port to listen on")
    return parser.parse_args(argv)


@dataclass(frozen=True)
class Address:
    """Where the app will serve; ``note`` says why the port is not the one asked for."""

    host: str
    port: int
    note: str = ""


def port_free(host: str, port: int) -> bool:
    """Whether a server could listen on ``host``:``port`` now (nothing else listens there)."""
    try:
        family, kind, proto, _, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
            probe.bind(where)
    except OSError:
        return False
    return True


def asked_port(args: argparse.Namespace, env: Mapping[str, str]) -> tuple[int | None, str]:
    """The port the operator chose and how (``--port`` or ``GRADIO_SERVER_PORT``), or None.

    >>> asked_port(argparse.Namespace(port=None), {"GRADIO_SERVER_PORT": "8080"})
    (8080, 'GRADIO_SERVER_PORT')
    """
    how = "--port" if args.port is not None else "GRADIO_SERVER_PORT"
    text = str(args.port) if args.port is not None else env.get(how, "").strip()
    if not text:
        return None, ""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise SystemExit(f"Empathy Lab cannot start: {how} is {text}, not a port (1 to 65535).")
    return int(text), how


def serve_address(args: argparse.Namespace, env: Mapping[str, str] = os.environ) -> Address:
    """Where to serve: ``--host``/``--port``, else ``GRADIO_SERVER_NAME``/``GRADIO_SERVER_PORT``,
    else 127.0.0.1:7860. A port the operator chose that is taken stops the start with a plain
    message (SystemExit); the default port taken, the next free one is used, and ``note``
    says so.
    """
    host = args.host or env.get("GRADIO_SERVER_NAME", "").strip() or DEFAULT_HOST
    port, how = asked_port(args, env)
    if port is not None:
        if port_free(host, port):
            return Address(host, port)
        raise SystemExit(
            f"Empathy Lab cannot start: port {port} on {host} (set by {how}) is already in "
            "use, by another program or another Empathy Lab. Stop that one, or choose "
            "another port: python app.py --port PORT"
        )
    for port in range(DEFAULT_PORT, DEFAULT_PORT + PORT_TRIES):
        if port_free(host, port):
            busy = f"port {DEFAULT_PORT} was busy, so it took {port}"
            return Address(host, port, busy if port != DEFAULT_PORT else "")
    raise SystemExit(
        f"Empathy Lab cannot start: ports {DEFAULT_PORT} to {port} on {host} are all in use; "
        "choose one with python app.py --port PORT"
    )
