"""cli.py generate: reply to stdout, errors to stderr, non-zero exits."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from config import ROOT
from core.questions import load_questions


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean_env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    clean_env.update(env or {})
    return subprocess.run(
        [sys.executable, "cli.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=clean_env,
    )


def test_generate_prints_the_therapist_answer():
    question = load_questions()[2]
    result = run_cli("generate", "--responder", "human/counselchat", "--message", question.question)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == question.answer.strip()
    assert result.stderr == ""


@pytest.mark.slow
def test_generate_with_the_local_model(local_model_path):
    result = run_cli(
        "generate",
        "--responder",
        "local/qwen2.5-coder-1.5b",
        "--message",
        "I feel invisible at work.",
        "--max-tokens",
        "12",
        "--temperature",
        "0",
        "--system",
        "Reply kindly.",
        "-v",
    )
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.split()) >= 4
    assert "tokens" in result.stderr and "out" in result.stderr


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--responder", "openai/gpt-4o", "--message", "hi"], 2, "needs OPENAI_API_KEY"),
        (["--responder", "nobody/x", "--message", "hi"], 2, "unknown responder"),
        (["--responder", "human", "--message", " \x07\x1b "], 2, "empty"),
        (["--responder", "human", "--message", "not bundled"], 2, "only for the bundled"),
        (["--responder", "human", "--message", "hi", "--max-tokens", "0"], 2, "max_tokens"),
    ],
    ids=["missing-key", "unknown", "empty", "not-bundled", "bad-max-tokens"],
)
def test_generate_errors_go_to_stderr_with_nonzero_exit(args, code, message):
    result = run_cli("generate", *args)
    assert result.returncode == code
    assert message in result.stderr and result.stdout == ""
    assert "Traceback" not in result.stderr


def test_failed_call_exits_1_without_leaking_the_key():
    secret = "sk-cli-secret-0000111122223333"
    result = run_cli(
        "generate",
        "--responder",
        "openai/gpt-4o",
        "--message",
        "hello",
        env={
            "OPENAI_API_KEY": secret,
            "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
            "EMPATHY_LAB_TIMEOUT_S": "2",
            "EMPATHY_LAB_MAX_RETRIES": "0",
        },
    )
    assert result.returncode == 1
    assert "could not reach the server" in result.stderr
    assert secret not in result.stderr + result.stdout
