"""The responder registry: readable ids to responder objects.

An id is ``provider/model``; any model name a provider accepts works
(``openai/gpt-4o-mini``). Adding a provider is one file and one line in
:data:`PROVIDERS`.

>>> get_responder("openai/gpt-4o-mini").model
'gpt-4o-mini'
>>> get_responder("local").id
'local/qwen2.5-coder-1.5b'
>>> get_responder("nope/x")
Traceback (most recent call last):
...
KeyError: "unknown responder 'nope/x'; providers: openai, anthropic, gemini, openai-compatible, local, human"
"""

from __future__ import annotations

from config import SETTINGS
from responders.anthropic_api import AnthropicResponder
from responders.base import Responder
from responders.gemini_api import GeminiResponder
from responders.human import HumanResponder
from responders.local_llama import LocalLlamaResponder
from responders.openai_api import OpenAIResponder
from responders.openai_compatible import OpenAICompatibleResponder

PROVIDERS: dict[str, type[Responder]] = {
    cls.provider: cls
    for cls in (
        OpenAIResponder,
        AnthropicResponder,
        GeminiResponder,
        OpenAICompatibleResponder,
        LocalLlamaResponder,
        HumanResponder,
    )
}

_CACHE: dict[str, Responder] = {}


def get_responder(responder_id: str) -> Responder:
    """The responder for ``responder_id`` (``provider`` alone means its default model)."""
    provider, _, model = responder_id.strip().partition("/")
    cls = PROVIDERS.get(provider)
    if cls is None:
        raise KeyError(f"unknown responder {responder_id!r}; providers: {', '.join(PROVIDERS)}")
    model = model or cls.default_model
    key = f"{provider}/{model}"
    if key not in _CACHE:
        _CACHE[key] = cls(model)
    return _CACHE[key]


def default_responder_ids() -> list[str]:
    """The ids offered on the compare page, local and keyless ones first."""
    compat = SETTINGS.openai_compatible_models or ("default",)
    return [
        "local/qwen2.5-coder-1.5b",
        "human/counselchat",
        "openai/gpt-4o",
        "anthropic/claude-sonnet-4-6",
        "gemini/gemini-2.5-pro",
        *(f"openai-compatible/{name}" for name in compat),
    ]
