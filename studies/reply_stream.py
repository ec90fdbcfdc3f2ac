"""Asking several responders at once and following their replies as they stream.

Each responder runs in its own thread, so a slow or failing provider never
holds up the others. :func:`stream_replies` yields a snapshot of every panel
whenever something changed; the last snapshot holds each finished
:class:`~responders.base.Reply`. Closing the iterator early (a visitor left
the page) tells the threads to stop reading.

>>> from responders.base import Responder
>>> class Twice(Responder):
...     provider, default_model, label = "twice", "v1", "Twice"
...     def _stream(self, message, settings, keys):
...         yield message + " " + message
>>> last = list(stream_replies("hi", [Twice()]))[-1]
>>> last["twice/v1"].status, last["twice/v1"].text
('done', 'hi hi')
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from config import DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, Keys
from core.conversation import Conversation
from core.textinput import InputError, clean_text
from responders.base import Reply, Responder, ResponderError, ResponderUnavailable
from responders.registry import get_responder

#: A snapshot is yielded at least this often (seconds), even when no responder sent anything.
HEARTBEAT_S = 1.0


@dataclass(frozen=True)
class Panel:
    """What one responder's panel shows at a moment."""

    responder_id: str
    status: str  # waiting | streaming | done | error | unavailable
    text: str = ""
    note: str = ""
    reply: Reply | None = None

    def summary(self) -> str:
        """One status line: latency and tokens when done, else the reason."""
        if self.status == "done" and self.reply is not None:
            return describe_reply(self.reply)
        if self.status == "streaming":
            return "streaming…"
        if self.status == "waiting":
            return "waiting…"
        return f"{self.status}: {self.note}"


def _is_person(responder_id: str) -> bool:
    try:
        return get_responder(responder_id).is_person
    except (KeyError, ValueError):
        return False


def describe_reply(reply: Reply) -> str:
    """``latency 2.3 s · first token 0.4 s · 120 tokens in / 85 out``.

    >>> from responders.base import GenerationSettings
    >>> r = Reply("a/b", "b", "m", GenerationSettings(), "t", 2.25, 0.5, 10, 5)
    >>> describe_reply(r)
    'latency 2.25 s · first token 0.50 s · tokens 10 in / 5 out'
    """
    if _is_person(reply.responder_id):
        return "a person's own answer: no model, so no latency or tokens"
    parts = []
    if reply.latency_s is not None:
        parts.append(f"latency {reply.latency_s:.2f} s")
    if reply.first_token_s is not None:
        parts.append(f"first token {reply.first_token_s:.2f} s")
    if reply.prompt_tokens is not None or reply.completion_tokens is not None:
        inn = "?" if reply.prompt_tokens is None else reply.prompt_tokens
        out = "?" if reply.completion_tokens is None else reply.completion_tokens
        parts.append(f"tokens {inn} in / {out} out")
    else:
        parts.append("tokens: not reported")
    if reply.attempts > 1:
        parts.append(f"{reply.attempts} attempts")
    if reply.cut_off:
        parts.append(f"✂ cut off at the {reply.settings.max_tokens}-token limit")
    return " · ".join(parts)


def _worker(
    responder: Responder,
    message: str | Conversation,
    options: dict[str, object],
    events: queue.Queue[tuple[str, str, object]],
    stop: threading.Event,
) -> None:
    rid = responder.id
    try:
        generation = responder.generate(message, **options)  # type: ignore[arg-type]
    except (ResponderUnavailable, InputError, ValueError) as exc:
        events.put((rid, "unavailable", str(exc)))
        return
    try:
        for chunk in generation:
            if stop.is_set():
                generation.reply.error = "stopped: the page was closed"
                break
            events.put((rid, "chunk", chunk))
        events.put((rid, "done", generation.reply))
    except ResponderError:
        events.put((rid, "error", generation.reply))
    except Exception as exc:  # a bug in an adapter must not take the page down
        generation.reply.error = f"internal error ({type(exc).__name__})"
        events.put((rid, "error", generation.reply))
    finally:
        generation.close()


def stream_replies(
    message: str | Conversation,
    responders: Sequence[Responder],
    *,
    system: str | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    temperature: float = DEFAULT_TEMPERATURE,
    keys: Keys | Mapping[str, str] | None = None,
    refresh_s: float = 0.1,
) -> Iterator[dict[str, Panel]]:
    """Yield ``{responder id: Panel}`` snapshots until every responder has finished.

    ``message`` may be a conversation ending on the seeker's turn: every responder then
    writes the next supporter turn. Raises :class:`textinput.InputError` at once for an
    unusable message.
    """
    if not isinstance(message, Conversation):
        message = clean_text(message)
    options = {"system": system, "max_tokens": max_tokens, "temperature": temperature, "keys": keys}
    panels = {r.id: Panel(r.id, "waiting") for r in responders}
    events: queue.Queue[tuple[str, str, object]] = queue.Queue()
    stop = threading.Event()
    threads = [
        threading.Thread(target=_worker, args=(r, message, options, events, stop), daemon=True)
        for r in responders
    ]
    for thread in threads:
        thread.start()
    finished = 0
    yield dict(panels)
    last = time.monotonic()
    try:
        while finished < len(threads):
            changed = _drain(events, panels, timeout=refresh_s)
            finished = sum(p.status in ("done", "error", "unavailable") for p in panels.values())
            # At least once a second even when nothing came: a page's clock moves while a
            # model loads or a server is silent, and a page's Stop (which waits for this
            # generator to hand control back) takes effect within a second.
            if changed or time.monotonic() - last >= HEARTBEAT_S:
                last = time.monotonic()
                yield dict(panels)
    finally:
        stop.set()


def _drain(
    events: queue.Queue[tuple[str, str, object]], panels: dict[str, Panel], timeout: float
) -> bool:
    """Apply every queued event to ``panels``; wait up to ``timeout`` for the first."""
    deadline = time.monotonic() + timeout
    changed = False
    while True:
        try:
            rid, kind, payload = events.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            return changed
        changed = True
        panel = panels[rid]
        if kind == "chunk":
            panels[rid] = replace(panel, status="streaming", text=panel.text + str(payload))
        elif kind == "unavailable":
            panels[rid] = replace(panel, status="unavailable", note=str(payload))
        else:
            reply = payload
            assert isinstance(reply, Reply)
            status = "done" if reply.ok else "error"
            panels[rid] = replace(
                panel, status=status, text=reply.text, note=reply.error or "", reply=reply
            )
