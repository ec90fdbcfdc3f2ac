"""Turning SDK exceptions into short errors that say whether a retry may help.

The ``openai`` and ``anthropic`` SDKs share one family of exception names
(``RateLimitError``, ``APITimeoutError`` …), so one function serves both.
Messages never include request headers, so they never include a key.
"""

from __future__ import annotations

import json
from types import ModuleType

from responders.base import ResponderError, TransientError


def _detail(body: object) -> str:
    """The provider's own one-line reason from an error body, if any."""
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            return str(error.get("message", ""))[:200]
    return ""


def classify_http_status(status: int, detail: str = "") -> ResponderError:
    """Map an HTTP status to an error; 408, 429 and 5xx are worth a retry.

    >>> type(classify_http_status(429)).__name__
    'TransientError'
    >>> str(classify_http_status(400, "bad model"))
    'request refused (HTTP 400): bad model'
    """
    if status == 401:
        return ResponderError("the API key was rejected (HTTP 401)")
    if status == 429:
        return TransientError("rate limited by the provider (HTTP 429)")
    if status == 408 or status >= 500:
        return TransientError(f"server error (HTTP {status})")
    return ResponderError(f"request refused (HTTP {status}): {detail}".rstrip(": ")[:300])


def classify_sdk_error(exc: Exception, sdk: ModuleType, timeout_s: float) -> ResponderError:
    """Map an ``openai``/``anthropic`` SDK exception to a retry-aware error."""
    if isinstance(exc, sdk.APITimeoutError):
        return TransientError(f"timed out after {timeout_s:g} s")
    if isinstance(exc, sdk.APIConnectionError):
        return TransientError("could not reach the server")
    if isinstance(exc, sdk.APIStatusError):
        return classify_http_status(exc.status_code, _detail(exc.body) or exc.message)
    if isinstance(exc, (sdk.APIResponseValidationError, json.JSONDecodeError)):
        return ResponderError("the server sent a malformed response")
    return classify_other_error(exc, timeout_s)


def classify_other_error(exc: Exception, timeout_s: float) -> ResponderError:
    """Transport failures (httpx timeouts, resets) by name; anything else is unreadable.

    >>> str(classify_other_error(TimeoutError(), 3))
    'timed out after 3 s'
    """
    name = type(exc).__name__
    if "Timeout" in name:
        return TransientError(f"timed out after {timeout_s:g} s")
    if any(word in name for word in ("Connect", "Network", "Protocol", "Read")):
        return TransientError("could not reach the server")
    return ResponderError(f"the SDK could not read the server's response ({name})")
