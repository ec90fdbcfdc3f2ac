"""Anthropic Claude models through the official ``anthropic`` SDK.

Ids look like ``anthropic/claude-sonnet-4-6``.

>>> AnthropicResponder().id
'anthropic/claude-sonnet-4-6'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from config import SETTINGS, Keys
from responders.base import GenerationSettings, Responder, ResponderError, Usage
from responders.sdk_errors import classify_sdk_error


class AnthropicResponder(Responder):
    """The Messages API, streamed; the system prompt goes in ``system``.

    The current SDK no longer accepts a sampling temperature (recent Claude
    models fix it server-side), so the temperature setting is not sent.
    """

    provider: ClassVar[str] = "anthropic"
    default_model: ClassVar[str] = "claude-sonnet-4-6"
    label: ClassVar[str] = "Anthropic"
    needs_key: ClassVar[bool] = True
    remote: ClassVar[bool] = True
    key_env_var: ClassVar[str | None] = "ANTHROPIC_API_KEY"
    sdk: ClassVar[tuple[str, str] | None] = ("anthropic", "anthropic")

    def __init__(self, model: str | None = None, *, base_url: str | None = None, **kw: Any) -> None:
        super().__init__(model, **kw)
        self.base_url = base_url or SETTINGS.anthropic_base_url

    def _stream(
        self, message: str, settings: GenerationSettings, keys: Keys
    ) -> Iterator[str | Usage]:
        import anthropic

        client = anthropic.Anthropic(
            api_key=self.api_key(keys),
            base_url=self.base_url,
            timeout=self.timeout_s,
            max_retries=0,
        )
        system, messages = self.chat(message, settings)
        extra: dict[str, Any] = {"system": system} if system else {}
        schema = settings.schema()
        if schema is not None:
            extra["output_config"] = {"format": {"type": "json_schema", "schema": schema}}
        try:
            with client.messages.stream(
                model=self.model,
                max_tokens=settings.max_tokens,
                messages=messages,
                **extra,
            ) as stream:
                yield from stream.text_stream
                final = stream.get_final_message()
            yield Usage(final.usage.input_tokens, final.usage.output_tokens)
        except ResponderError:
            raise
        except Exception as exc:  # every SDK failure becomes a short message
            raise classify_sdk_error(exc, anthropic, self.timeout_s) from exc
        finally:
            client.close()
