"""OpenAI chat models through the official ``openai`` SDK.

Ids look like ``openai/gpt-4o``. The SDK's own retries are turned off: the
base class retries, so every provider backs off the same way.

>>> OpenAIResponder().id
'openai/gpt-4o'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from config import SETTINGS, Keys
from responders.base import GenerationSettings, Responder, ResponderError, Usage
from responders.sdk_errors import classify_sdk_error


class OpenAIResponder(Responder):
    """Chat Completions with streaming and token usage."""

    provider: ClassVar[str] = "openai"
    default_model: ClassVar[str] = "gpt-4o"
    label: ClassVar[str] = "OpenAI"
    needs_key: ClassVar[bool] = True
    remote: ClassVar[bool] = True
    key_env_var: ClassVar[str | None] = "OPENAI_API_KEY"
    sdk: ClassVar[tuple[str, str] | None] = ("openai", "openai")
    #: Name of the token-limit parameter this API expects.
    max_tokens_param: ClassVar[str] = "max_completion_tokens"

    def __init__(self, model: str | None = None, *, base_url: str | None = None, **kw: Any) -> None:
        super().__init__(model, **kw)
        self.base_url = base_url or self._default_base_url()

    def _default_base_url(self) -> str | None:
        return SETTINGS.openai_base_url

    def _response_format(self, schema: dict[str, Any]) -> dict[str, Any]:
        """Structured outputs: the reply must match ``schema``."""
        return {
            "type": "json_schema",
            "json_schema": {"name": "structured_reply", "schema": schema, "strict": True},
        }

    def _stream(
        self, message: str, settings: GenerationSettings, keys: Keys
    ) -> Iterator[str | Usage]:
        import openai

        client = openai.OpenAI(
            api_key=self.api_key(keys),
            base_url=self.base_url,
            timeout=self.timeout_s,
            max_retries=0,
        )
        system, messages = self.chat(message, settings)
        if system:
            messages.insert(0, {"role": "system", "content": system})
        extra: dict[str, Any] = {}
        schema = settings.schema()
        if schema is not None:
            extra["response_format"] = self._response_format(schema)
        try:
            stream = client.chat.completions.create(
                model=self.model,
                messages=messages,
                temperature=settings.temperature,
                stream=True,
                stream_options={"include_usage": True},
                **{self.max_tokens_param: settings.max_tokens},
                **extra,
            )
            for chunk in stream:
                if chunk.choices:
                    delta = chunk.choices[0].delta
                    if delta is not None and delta.content:
                        yield delta.content
                if chunk.usage is not None:
                    yield Usage(chunk.usage.prompt_tokens, chunk.usage.completion_tokens)
        except ResponderError:
            raise
        except Exception as exc:  # every SDK failure becomes a short message
            raise classify_sdk_error(exc, openai, self.timeout_s) from exc
        finally:
            client.close()
