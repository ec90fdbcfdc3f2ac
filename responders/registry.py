"""The responder registry: readable ids to responder objects.

An id is ``provider/model``; any model name a provider accepts works
(``openai/gpt-4o-mini``). Adding a provider is one file and one line below.

>>> get_responder("openai/gpt-4o-mini").model
'gpt-4o-mini'
>>> get_responder("local").id
'local/qwen2.5-coder-1.5b'
>>> get_responder("nope/x")
Traceback (most recent call last):
...
KeyError: "unknown responder 'nope/x'; known: openai, anthropic, gemini, openai-compatible, local, human"
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from config import SETTINGS
from core.registry import Registry
from responders.anthropic_api import AnthropicResponder
from responders.base import Responder
from responders.gemini_api import GeminiResponder
from responders.human import HumanResponder
from responders.local_llama import LocalLlamaResponder
from responders.openai_api import OpenAIResponder
from responders.openai_compatible import OpenAICompatibleResponder

RESPONDERS: Registry[Responder] = Registry("responder")
_CLASSES: dict[str, type[Responder]] = {}
for _cls in (
    OpenAIResponder,
    AnthropicResponder,
    GeminiResponder,
    OpenAICompatibleResponder,
    LocalLlamaResponder,
    HumanResponder,
):
    RESPONDERS.add(_cls.provider, lambda model, cls=_cls: cls(model or cls.default_model))
    _CLASSES[_cls.provider] = _cls


def responder_class(responder_id: str) -> type[Responder]:
    """The class of a responder id or provider, to read its capabilities without making one.

    >>> responder_class("local/qwen2.5-coder-1.5b").max_parallel, responder_class("openai").needs_key
    (1, True)
    """
    return _CLASSES[RESPONDERS.parse(responder_id)[0]]


def responder_classes() -> dict[str, type[Responder]]:
    """Every provider's responder class, by provider name."""
    return dict(_CLASSES)


_CACHE: dict[str, Responder] = {}
_CACHE_LOCK = threading.Lock()


def get_responder(responder_id: str) -> Responder:
    """The responder for ``responder_id`` (``provider`` alone means its default model)."""
    provider, model, _ = RESPONDERS.parse(responder_id)
    with _CACHE_LOCK:
        key = f"{provider}/{model}"
        if key not in _CACHE:
            responder = RESPONDERS.get(responder_id)
            _CACHE[key] = _CACHE.setdefault(responder.id, responder)
        return _CACHE[key]


#: The local model every keyless default uses (responders, the judge, the CLI's defaults).
LOCAL_DEFAULT = f"{LocalLlamaResponder.provider}/{LocalLlamaResponder.default_model}"
#: The therapist's reference answer (bundled questions only).
THERAPIST = f"{HumanResponder.provider}/{HumanResponder.default_model}"


def default_responder_ids() -> list[str]:
    """The ids offered on the pages, local and keyless ones first."""
    compat = SETTINGS.openai_compatible_models or ("default",)
    return [
        LOCAL_DEFAULT,
        THERAPIST,
        "openai/gpt-4o",
        "anthropic/claude-sonnet-4-6",
        "gemini/gemini-2.5-pro",
        *(f"openai-compatible/{name}" for name in compat),
    ]


def availability(keys: Mapping[str, str] | None = None) -> dict[str, str | None]:
    """``{responder id: None when ready, else what it needs}`` for the offered responders."""
    merged = SETTINGS.keys.merged(keys)
    out: dict[str, str | None] = {}
    for rid in default_responder_ids():
        responder = get_responder(rid)
        out[rid] = responder.unavailable_reason(merged)
    return out


def judge_responder_ids() -> list[str]:
    """Offered responders that can act as judges (whether or not they are ready now)."""
    return [rid for rid in default_responder_ids() if get_responder(rid).can_judge]
