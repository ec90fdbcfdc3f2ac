"""The responder base class, the reply record and the errors responders raise.

A responder turns a person's message into a streamed reply. Subclasses
implement one hook, :meth:`Responder._stream`, which yields text chunks and,
optionally, one :class:`Usage`. The public :meth:`Responder.generate` checks
the input and the responder's key and SDK, retries transient failures with
backoff (only before the first chunk, so no text is ever repeated), times the
call and records everything in a :class:`Reply`.

>>> class Parrot(Responder):
...     provider, default_model, label = "parrot", "v1", "Parrot"
...     def _stream(self, message, settings, keys):
...         yield from message.partition(" ")
...         yield Usage(prompt_tokens=3, completion_tokens=3)
>>> gen = Parrot().generate("I feel alone")
>>> "".join(gen)
'I feel alone'
>>> gen.reply.completion_tokens, gen.reply.responder_id
(3, 'parrot/v1')
"""

from __future__ import annotations

import importlib.util
import json
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from config import DEFAULT_MAX_TOKENS, DEFAULT_SYSTEM_PROMPT, DEFAULT_TEMPERATURE, SETTINGS, Keys
from core.conversation import SEEKER, Conversation, Turn
from core.secrets import scrub_secrets
from core.textinput import clean_text
from responders.reply import (
    GenerationSettings,
    Reply,
    ResponderError,
    ResponderUnavailable,
    TransientError,
    Usage,
)

__all__ = [
    "Generation",
    "GenerationSettings",
    "Reply",
    "Responder",
    "ResponderError",
    "ResponderUnavailable",
    "TransientError",
    "Usage",
]


class Generation(Iterator[str]):
    """A reply being streamed: iterate for text chunks, then read ``.reply``.

    Iteration raises :class:`ResponderError` when the call fails for good;
    ``.reply`` then holds the partial text and the error.
    """

    def __init__(self, responder: Responder, reply: Reply, keys: Keys) -> None:
        self.reply = reply
        self._responder = responder
        self._keys = keys
        self._chunks = self._run()

    def __next__(self) -> str:
        return next(self._chunks)

    def close(self) -> None:
        """Stop early; the adapter's clean-up (closing a connection, a lock) runs."""
        self._chunks.close()

    def _run(self) -> Iterator[str]:
        responder, reply = self._responder, self.reply
        self._t0 = time.perf_counter()
        attempts_allowed = responder.max_retries + 1
        while True:
            reply.attempts += 1
            yielded = False
            try:
                for item in responder._stream(reply.message, reply.settings, self._keys):
                    if isinstance(item, Usage):
                        reply.prompt_tokens = item.prompt_tokens
                        reply.completion_tokens = item.completion_tokens
                        continue
                    if not item:
                        continue
                    if reply.first_token_s is None:
                        reply.first_token_s = time.perf_counter() - self._t0
                    yielded = True
                    reply.text += item
                    yield item
                break
            except TransientError as exc:
                if yielded or reply.attempts >= attempts_allowed:
                    self._fail(exc, mid_reply=yielded)
                time.sleep(responder.backoff(reply.attempts))
            except ResponderError as exc:
                self._fail(exc, mid_reply=yielded)
        reply.latency_s = time.perf_counter() - self._t0
        if not reply.text.strip():
            self._fail(ResponderError("the model returned an empty reply"), mid_reply=False)

    def _fail(self, exc: ResponderError, *, mid_reply: bool) -> None:
        reply = self.reply
        reply.latency_s = time.perf_counter() - self._t0
        text = scrub_secrets(str(exc), self._keys.secrets())
        if isinstance(exc, TransientError) and reply.attempts > 1:
            text += f" (gave up after {reply.attempts} attempts)"
        if mid_reply:
            text = "the reply was cut off: " + text
        reply.error = text
        raise ResponderError(text) from None


class Responder(ABC):
    """Base class for every responder; subclasses implement :meth:`_stream`."""

    #: Provider prefix of the id, e.g. ``openai`` in ``openai/gpt-4o``.
    provider: ClassVar[str]
    #: Model used when the id names only the provider.
    default_model: ClassVar[str]
    #: A short human name for panels and tables.
    label: ClassVar[str]
    #: True when ``label`` already says which model it is (else the model is added).
    names_model: ClassVar[bool] = False
    needs_key: ClassVar[bool] = False
    key_env_var: ClassVar[str | None] = None
    #: Whether it is a model on another server (a cloud API or an OpenAI-compatible server):
    #: a judge run on it datamarks what it quotes (:mod:`scorers.judge.absolute`).
    remote: ClassVar[bool] = False
    #: What it answers, when that is narrower than any message (shown beside "ready").
    scope: ClassVar[str | None] = None
    #: Whether it can act as a judge (its replies can be constrained to a JSON schema).
    can_judge: ClassVar[bool] = True
    #: Whether it follows a system prompt (a batch asks it once per prompt strategy).
    follows_prompt: ClassVar[bool] = True
    #: Whether its replies are a person's own words (no model: no latency or tokens to show).
    is_person: ClassVar[bool] = False
    #: At most this many of its replies at once in one process (None: any number).
    max_parallel: ClassVar[int | None] = None
    #: Seconds ``(low, high)`` one reply (asked and scored) typically takes, before a
    #: batch has measured its own: a cloud model's few seconds, up to ~20 s when long
    #: (:meth:`reply_seconds` reads it; a model whose time follows its length overrides that).
    typical_seconds: ClassVar[tuple[float, float]] = (2.0, 20.0)
    #: Whether its next-token probabilities can be read (a probability-weighted judge).
    gives_probabilities: ClassVar[bool] = False
    #: ``(import name, pip requirement)`` of an optional SDK, or None.
    sdk: ClassVar[tuple[str, str] | None] = None
    #: Seconds of the first backoff; doubled on each retry, with jitter.
    backoff_base_s: ClassVar[float] = 0.5

    def __init__(
        self,
        model: str | None = None,
        *,
        timeout_s: float | None = None,
        max_retries: int | None = None,
    ) -> None:
        self.model = model or self.default_model
        self.timeout_s = SETTINGS.request_timeout_s if timeout_s is None else timeout_s
        self.max_retries = SETTINGS.max_retries if max_retries is None else max_retries

    @classmethod
    def reply_seconds(cls, max_tokens: int) -> tuple[float, float]:
        """Seconds ``(low, high)`` one reply of at most ``max_tokens`` tokens (asked and
        scored) typically takes, before a batch has measured its own: ``typical_seconds``."""
        return cls.typical_seconds

    @property
    def id(self) -> str:
        """The readable registry id, ``provider/model``."""
        return f"{self.provider}/{self.model}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.id!r})"

    @property
    def display_name(self) -> str:
        """A readable name for people: ``OpenAI: gpt-4o``, ``Local model (…, CPU)``."""
        return self.label if self.names_model else f"{self.label}: {self.model}"

    def unavailable_reason(self, keys: Keys | None = None) -> str | None:
        """Why this responder cannot run now, with the fix; None when it can."""
        keys = SETTINGS.keys if keys is None else keys
        if self.sdk and importlib.util.find_spec(self.sdk[0]) is None:
            return f"needs the {self.sdk[1]} package: pip install {self.sdk[1]}"
        if self.needs_key and self.key_env_var and not keys.get(self.key_env_var):
            return f"needs {self.key_env_var}: set it in the environment or .env, or type a key in"
        return self._extra_unavailable_reason(keys)

    def api_key(self, keys: Keys) -> str:
        """This adapter's key, read through its one declared variable ('' when it has none)."""
        return keys.get(self.key_env_var, "") if self.key_env_var else ""

    def _extra_unavailable_reason(self, keys: Keys) -> str | None:
        """Hook for adapter-specific checks (a base URL, a model file)."""
        return None

    def backoff(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        return self.backoff_base_s * (2 ** (attempt - 1)) * (1 + random.random() / 4)

    def generate(
        self,
        message: str | Conversation,
        *,
        system: str | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        temperature: float = DEFAULT_TEMPERATURE,
        keys: Keys | Mapping[str, str] | None = None,
        json_schema: Mapping[str, Any] | None = None,
    ) -> Generation:
        """Start a streamed reply to ``message`` (a text, or a conversation ending on the
        seeker's turn: the reply is its next supporter turn).

        With ``json_schema`` the reply is constrained to that schema, using
        the provider's structured-output feature (judges use this).

        Raises :class:`textinput.InputError` for unusable input and
        :class:`ResponderUnavailable` when a key or SDK is missing.
        """
        history: tuple[Turn, ...] = ()
        if isinstance(message, Conversation):
            history, message = message.history, message.message
        message = clean_text(message)
        system = DEFAULT_SYSTEM_PROMPT if system is None else system
        system = clean_text(system, what="system prompt") if system.strip() else ""
        if not 1 <= int(max_tokens) <= 8192:
            raise ValueError("max_tokens must be between 1 and 8192")
        if not 0.0 <= float(temperature) <= 2.0:
            raise ValueError("temperature must be between 0 and 2")
        keys = keys if isinstance(keys, Keys) else SETTINGS.keys.merged(keys)
        reason = self.unavailable_reason(keys)
        if reason:
            raise ResponderUnavailable(reason)
        if json_schema is not None and not self.can_judge:
            raise ResponderUnavailable(f"{self.id} cannot produce structured output")
        schema_text = None if json_schema is None else json.dumps(json_schema)  # keep key order
        settings = GenerationSettings(
            system, int(max_tokens), float(temperature), schema_text, history
        )
        credit = self.attribution(message) if not history else self.history_attribution()
        reply = Reply(
            self.id, self.model, message, settings, attribution=credit, by_person=self.is_person
        )
        return Generation(self, reply, keys)

    def history_attribution(self) -> str | None:
        """Credit for a reply to a conversation (default: the same as for a message)."""
        return self.attribution("")

    def attribution(self, message: str) -> str | None:
        """Credit to show beside the reply (a human author, a model licence)."""
        return None

    @staticmethod
    def chat(
        message: str, settings: GenerationSettings, assistant: str = "assistant"
    ) -> tuple[str, list[dict[str, str]]]:
        """(system prompt, chat turns ending on ``message``) in the user/assistant form
        every chat API reads; the supporter's role is named ``assistant`` (Gemini: "model").

        A conversation the supporter opened has that first turn told in the system prompt,
        since some APIs want the user's turn first.

        >>> s = GenerationSettings("Be kind.", history=(Turn("supporter", "Hi, I'm here."),
        ...                        Turn("seeker", "I'm sad."), Turn("supporter", "Why?")))
        >>> system, turns = Responder.chat("My cat died.", s)
        >>> [t["role"] for t in turns], system.splitlines()[-1]
        (['user', 'assistant', 'user'], "(You opened this conversation with: Hi, I'm here.)")
        """
        history = list(settings.history)
        system = settings.system
        if history and history[0].role != SEEKER:
            opener = f"(You opened this conversation with: {history.pop(0).text})"
            system = f"{system}\n\n{opener}" if system else opener
        roles = {SEEKER: "user"}
        turns = [{"role": roles.get(t.role, assistant), "content": t.text} for t in history]
        return system, [*turns, {"role": "user", "content": message}]

    @abstractmethod
    def _stream(
        self, message: str, settings: GenerationSettings, keys: Keys
    ) -> Iterator[str | Usage]:
        """Yield the reply's text chunks and optionally one :class:`Usage`.

        Raise :class:`TransientError` for failures worth retrying and
        :class:`ResponderError` for the rest, with short, key-free messages.
        """
