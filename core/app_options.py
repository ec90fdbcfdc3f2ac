"""``python app.py``'s options and the operator settings its ``--help`` lists (no Gradio
imports here, so ``--help`` answers before the pages load).

>>> parse_args(["--port", "8080"]).port
8080
"""

from __future__ import annotations

import argparse
import os
import textwrap

import config

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
