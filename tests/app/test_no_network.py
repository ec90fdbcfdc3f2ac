"""No test calls a paid API: keys in the outer environment never reach a provider.

tests/conftest.py empties the server's keys and points every cloud base URL at
a local port where nothing listens, before the app is imported. The last test
runs the first two again in a fresh pytest with real-looking keys and the real
providers' URLs in its environment: they must still pass.
"""

from __future__ import annotations

import os
import subprocess
import sys
from urllib.parse import urlparse

import pytest

import config
from config import ROOT
from responders.base import ResponderError
from responders.registry import get_responder
from tests import conftest

CLOUD = {
    "openai/gpt-4o": "OPENAI_API_KEY",
    "anthropic/claude-sonnet-4-6": "ANTHROPIC_API_KEY",
    "gemini/gemini-2.5-pro": "GEMINI_API_KEY",
    "openai-compatible/default": "OPENAI_COMPATIBLE_API_KEY",
}
OUTER_ENV = {
    "OPENAI_API_KEY": "sk-outer-environment-key-0123456789",
    "ANTHROPIC_API_KEY": "sk-ant-outer-environment-key-0123456789",
    "GEMINI_API_KEY": "AIzaOuterEnvironmentKey0123456789abcdef",
    "OPENAI_COMPATIBLE_API_KEY": "outer compatible key",
    "OPENAI_BASE_URL": "https://api.openai.com/v1",
    "ANTHROPIC_BASE_URL": "https://api.anthropic.com",
    "GEMINI_BASE_URL": "https://generativelanguage.googleapis.com",
    "OPENAI_COMPATIBLE_BASE_URL": "https://api.together.xyz/v1",
}


def test_the_server_has_no_keys_and_every_cloud_url_is_local():
    holders = [m for m in sys.modules.values() if hasattr(m, "SETTINGS")]
    settings = [m.SETTINGS for m in holders if isinstance(m.SETTINGS, config.Settings)]
    assert len(settings) >= 5  # config, responders, flags, textinput, ...
    for s in settings:
        assert len(s.keys) == 0, s.keys
        for url in (
            s.openai_base_url,
            s.anthropic_base_url,
            s.gemini_base_url,
            s.openai_compatible_base_url,
        ):
            assert urlparse(url).hostname == "127.0.0.1", url
    assert all(os.environ[name] == "" for name in CLOUD.values())


@pytest.mark.parametrize("rid", list(CLOUD))
def test_a_cloud_call_with_a_typed_key_stays_on_this_machine(rid, monkeypatch):
    responder = get_responder(rid)
    if rid != "openai-compatible/default":
        assert "needs " + CLOUD[rid] in responder.unavailable_reason(config.SETTINGS.keys)
    monkeypatch.setattr(responder, "max_retries", 0)
    monkeypatch.setattr(responder, "timeout_s", 5.0)
    before, blocked = len(conftest.CONNECTIONS), len(conftest.BLOCKED)
    gen = responder.generate("hello", keys={CLOUD[rid]: "typed key for this call"})
    with pytest.raises(ResponderError, match="could not reach the server"):
        list(gen)
    tried = conftest.CONNECTIONS[before:]
    assert tried and {host for host, _ in tried} == {"127.0.0.1"}
    assert conftest.BLOCKED[blocked:] == []


def test_keys_and_urls_in_the_outer_environment_are_ignored():
    env = {**os.environ, **OUTER_ENV}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/app/test_no_network.py::test_the_server_has_no_keys_and_every_cloud_url_is_local",
            "tests/app/test_no_network.py::test_a_cloud_call_with_a_typed_key_stays_on_this_machine",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "5 passed" in result.stdout
