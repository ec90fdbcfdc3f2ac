"""Any server that speaks the OpenAI chat API: Ollama, vLLM, LM Studio, llama.cpp.

Ids look like ``openai-compatible/<model name on that server>``. The server is
found at ``OPENAI_COMPATIBLE_BASE_URL`` (for Ollama,
``http://localhost:11434/v1``); a key is optional
(``OPENAI_COMPATIBLE_API_KEY``).

>>> OpenAICompatibleResponder("llama3", base_url="http://127.0.0.1:8080/v1").id
'openai-compatible/llama3'
"""

from __future__ import annotations

from typing import ClassVar

from config import SETTINGS, Keys
from responders.openai_api import OpenAIResponder


class OpenAICompatibleResponder(OpenAIResponder):
    """The OpenAI adapter pointed at a self-hosted server; the key is optional."""

    provider: ClassVar[str] = "openai-compatible"
    default_model: ClassVar[str] = "default"
    label: ClassVar[str] = "OpenAI-compatible server"
    needs_key: ClassVar[bool] = False
    key_env_var: ClassVar[str | None] = "OPENAI_COMPATIBLE_API_KEY"
    # Servers such as llama.cpp and older vLLM only know the classic name.
    max_tokens_param: ClassVar[str] = "max_tokens"

    def _default_base_url(self) -> str | None:
        return SETTINGS.openai_compatible_base_url

    def api_key(self, keys: Keys) -> str:
        # The SDK insists on some key; self-hosted servers ignore it.
        return super().api_key(keys) or "not-needed"

    def _extra_unavailable_reason(self, keys: Keys) -> str | None:
        if not self.base_url:
            return (
                "needs OPENAI_COMPATIBLE_BASE_URL: the server's address, "
                "e.g. http://localhost:11434/v1 for Ollama"
            )
        return None
