"""What a responder call produces and how it fails: the settings of one call, the
:class:`Reply` record (text, timings, tokens, error), token :class:`Usage`, and the errors.

>>> Reply("parrot/v1", "v1", "I feel alone", GenerationSettings()).ok
True
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from config import DEFAULT_MAX_TOKENS, DEFAULT_SYSTEM_PROMPT, DEFAULT_TEMPERATURE
from core.conversation import SEEKER, Conversation, Turn, transcript


class ResponderUnavailable(Exception):
    """The responder cannot run here; the message names the fix."""


class ResponderError(Exception):
    """A call failed for good; the message is short and safe to show."""


class TransientError(ResponderError):
    """A failure worth retrying: rate limit, server error, timeout, dropped link."""


@dataclass(frozen=True)
class GenerationSettings:
    """What a reply was asked for with; recorded with every reply."""

    system: str = DEFAULT_SYSTEM_PROMPT
    max_tokens: int = DEFAULT_MAX_TOKENS
    temperature: float = DEFAULT_TEMPERATURE
    #: A JSON schema (as JSON text) the reply must follow, for judges; None for prose.
    json_schema: str | None = None
    #: The conversation before the message (earlier turns), sent in the provider's chat
    #: format; empty for a single message.
    history: tuple[Turn, ...] = ()

    def schema(self) -> dict[str, Any] | None:
        """The JSON schema as a dict, or None."""
        return None if self.json_schema is None else json.loads(self.json_schema)


@dataclass(frozen=True)
class Usage:
    """Token counts reported by the provider (or counted locally)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@dataclass
class Reply:
    """One responder's answer to one message, or the error that stopped it."""

    responder_id: str
    model: str
    message: str
    settings: GenerationSettings
    text: str = ""
    latency_s: float | None = None
    first_token_s: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    attempts: int = 0
    error: str | None = None
    attribution: str | None = None
    #: Written by a person (a therapist's answer): no prompt or sampling settings shaped it.
    by_person: bool = False

    @property
    def ok(self) -> bool:
        """True when the reply finished without error."""
        return self.error is None

    @property
    def cut_off(self) -> bool:
        """True when the reply used its whole token limit (it was probably cut short)."""
        tokens = self.completion_tokens
        return tokens is not None and tokens >= self.settings.max_tokens

    @property
    def conversation(self) -> Conversation:
        """The conversation this reply answers (its history, then the message)."""
        return Conversation((*self.settings.history, Turn(SEEKER, self.message)))

    def to_dict(self) -> dict[str, object]:
        """A flat, JSON-ready view (settings inlined; earlier turns as a transcript)."""
        data = asdict(self)
        data.update(data.pop("settings"))
        data["history"] = transcript(self.settings.history)
        if self.by_person:  # a flag log read "system prompt, 640 tokens, 0.7" for a therapist
            data.update(system="", max_tokens=None, temperature=None)
        return data
