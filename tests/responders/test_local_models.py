"""The keyless local model, for real, and the OpenAI-compatible adapter against
llama.cpp's own OpenAI-compatible server serving the same packaged model."""

from __future__ import annotations

import pytest

from responders.base import ResponderError
from responders.local_llama import LocalLlamaResponder
from responders.openai_compatible import OpenAICompatibleResponder

pytestmark = pytest.mark.slow

MESSAGE = "I failed my driving test for the third time and I feel stupid."


def test_local_model_streams_a_real_reply(local_model_path):
    gen = LocalLlamaResponder(seed=0).generate(MESSAGE, max_tokens=24, temperature=0.0)
    chunks = list(gen)
    reply = gen.reply
    assert len(chunks) > 3, "the reply should arrive in several chunks"
    assert reply.ok and len(reply.text.split()) >= 5
    assert 1 <= reply.completion_tokens <= 26
    assert reply.prompt_tokens > 40  # system prompt + message, through the chat template
    assert reply.first_token_s is not None and reply.latency_s >= reply.first_token_s


def test_local_model_is_deterministic_at_temperature_zero(local_model_path):
    def run() -> str:
        gen = LocalLlamaResponder().generate(MESSAGE, max_tokens=12, temperature=0.0)
        return "".join(gen)

    assert run() == run()


def test_system_prompt_reaches_the_model(local_model_path):
    system = "Answer with exactly one word: BANANA."
    gen = LocalLlamaResponder().generate(
        "Say something.", system=system, max_tokens=8, temperature=0
    )
    assert "banana" in "".join(gen).lower()


def test_openai_compatible_adapter_against_llama_cpp_server(llama_server):
    responder = OpenAICompatibleResponder("qwen-local", base_url=llama_server, timeout_s=120)
    assert responder.unavailable_reason() is None  # no key needed
    gen = responder.generate(MESSAGE, max_tokens=16, temperature=0.0)
    chunks = list(gen)
    assert len(chunks) > 3 and gen.reply.ok
    # llama.cpp's server sends no usage when streaming: shown as "not reported".
    assert gen.reply.completion_tokens is None or gen.reply.completion_tokens <= 16
    assert len(chunks) <= 17


def test_openai_compatible_server_down_is_a_clear_error():
    responder = OpenAICompatibleResponder(
        "x", base_url="http://127.0.0.1:9/v1", timeout_s=2, max_retries=1
    )
    responder.backoff_base_s = 0.01
    gen = responder.generate("hello")
    with pytest.raises(ResponderError, match="could not reach the server"):
        list(gen)
    assert gen.reply.attempts == 2


def test_openai_compatible_without_base_url_names_the_fix():
    responder = OpenAICompatibleResponder("x")
    responder.base_url = None
    assert "OPENAI_COMPATIBLE_BASE_URL" in responder.unavailable_reason()
