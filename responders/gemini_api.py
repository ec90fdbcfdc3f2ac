"""Google Gemini models through the official ``google-genai`` SDK.

Ids look like ``gemini/gemini-2.5-pro``. Gemini 2.5 models think before they
answer and count that thinking against the output limit, so a small thinking
budget is set and added to the limit: the visible reply still gets
``max_tokens``.

>>> GeminiResponder().id
'gemini/gemini-2.5-pro'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from config import SETTINGS, Keys
from responders.base import GenerationSettings, Responder, ResponderError, Usage
from responders.sdk_errors import classify_http_status, classify_other_error


def _thinking_budget(model: str) -> int | None:
    """Smallest thinking budget a 2.5 model accepts (Pro cannot turn it off)."""
    if "2.5" not in model:
        return None
    return 128 if "pro" in model else 0


class GeminiResponder(Responder):
    """``generate_content_stream`` with a system instruction."""

    provider: ClassVar[str] = "gemini"
    default_model: ClassVar[str] = "gemini-2.5-pro"
    label: ClassVar[str] = "Google Gemini"
    needs_key: ClassVar[bool] = True
    remote: ClassVar[bool] = True
    key_env_var: ClassVar[str | None] = "GEMINI_API_KEY"
    sdk: ClassVar[tuple[str, str] | None] = ("google.genai", "google-genai")

    def __init__(self, model: str | None = None, *, base_url: str | None = None, **kw: Any) -> None:
        super().__init__(model, **kw)
        self.base_url = base_url or SETTINGS.gemini_base_url

    def _stream(
        self, message: str, settings: GenerationSettings, keys: Keys
    ) -> Iterator[str | Usage]:
        from google import genai
        from google.genai import errors, types

        http = types.HttpOptions(
            base_url=self.base_url,
            timeout=int(self.timeout_s * 1000),
            retry_options=types.HttpRetryOptions(attempts=1),
        )
        client = genai.Client(api_key=self.api_key(keys), http_options=http)
        budget = _thinking_budget(self.model)
        schema = settings.schema()
        system, turns = self.chat(message, settings, assistant="model")
        contents = [
            types.Content(role=t["role"], parts=[types.Part(text=t["content"])]) for t in turns
        ]
        config = types.GenerateContentConfig(
            response_mime_type=None if schema is None else "application/json",
            response_json_schema=schema,
            system_instruction=system or None,
            max_output_tokens=settings.max_tokens + (budget or 0),
            temperature=settings.temperature,
            thinking_config=None
            if budget is None
            else types.ThinkingConfig(thinking_budget=budget),
        )
        usage: Usage | None = None
        try:
            stream = client.models.generate_content_stream(
                model=self.model, contents=contents, config=config
            )
            for chunk in stream:
                if chunk.text:
                    yield chunk.text
                meta = chunk.usage_metadata
                if meta is not None and meta.prompt_token_count is not None:
                    usage = Usage(meta.prompt_token_count, meta.candidates_token_count)
        except errors.APIError as exc:
            raise classify_http_status(exc.code or 0, exc.message or "") from exc
        except ResponderError:
            raise
        except Exception as exc:  # transport failures arrive as httpx errors
            raise classify_other_error(exc, self.timeout_s) from exc
        finally:
            client.close()
        if usage is not None:
            yield usage
