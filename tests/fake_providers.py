"""Local fake servers that speak the OpenAI, Anthropic and Gemini wire formats.

Each :class:`FakeProvider` listens on 127.0.0.1 on a free port and answers
requests from a script of steps, so the real SDK code runs against it:
streaming (server-sent events), error statuses, slow answers, malformed
bodies and connections dropped mid-stream. Every request is recorded.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Stream:
    """A successful streamed reply made of ``chunks``."""

    chunks: list[str]
    prompt_tokens: int = 11
    completion_tokens: int = 7
    delay_s: float = 0.0  # before the first byte
    pause_s: float = 0.0  # between events (a slow, steadily streaming model)
    drop_after: int | None = None  # close the connection after this many chunks
    stall_after: int | None = None  # go silent for ``stall_s`` after this many events
    stall_s: float = 0.0


@dataclass
class Status:
    """An HTTP error with the provider's error body."""

    code: int
    message: str = "fake error"


@dataclass
class Malformed:
    """A 200 response whose event stream is not valid JSON."""


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] = field(default_factory=dict)
    #: When the request arrived (time.monotonic()).
    at: float = field(default_factory=time.monotonic)


def _sse(data: dict[str, Any], event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return (head + "data: " + json.dumps(data) + "\n\n").encode()


class _Wire:
    """How one provider frames chunks and errors."""

    def events(self, step: Stream, model: str) -> list[bytes]:
        raise NotImplementedError

    def error_body(self, step: Status) -> dict[str, Any]:
        raise NotImplementedError

    def trailer(self) -> bytes:
        return b""


class OpenAIWire(_Wire):
    def events(self, step: Stream, model: str) -> list[bytes]:
        base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": model}
        out = [
            _sse(
                {**base, "choices": [{"index": 0, "delta": {"content": c}, "finish_reason": None}]}
            )
            for c in step.chunks
        ]
        out.append(_sse({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
        usage = {
            "prompt_tokens": step.prompt_tokens,
            "completion_tokens": step.completion_tokens,
            "total_tokens": step.prompt_tokens + step.completion_tokens,
        }
        out.append(_sse({**base, "choices": [], "usage": usage}))
        return out

    def trailer(self) -> bytes:
        return b"data: [DONE]\n\n"

    def error_body(self, step: Status) -> dict[str, Any]:
        return {"error": {"message": step.message, "type": "fake", "code": str(step.code)}}


class AnthropicWire(_Wire):
    def events(self, step: Stream, model: str) -> list[bytes]:
        start = {
            "type": "message_start",
            "message": {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "content": [],
                "model": model,
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": step.prompt_tokens, "output_tokens": 1},
            },
        }
        out = [
            _sse(start, "message_start"),
            _sse(
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "text", "text": ""},
                },
                "content_block_start",
            ),
        ]
        out += [
            _sse(
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": c},
                },
                "content_block_delta",
            )
            for c in step.chunks
        ]
        out += [
            _sse({"type": "content_block_stop", "index": 0}, "content_block_stop"),
            _sse(
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                    "usage": {"output_tokens": step.completion_tokens},
                },
                "message_delta",
            ),
            _sse({"type": "message_stop"}, "message_stop"),
        ]
        return out

    def error_body(self, step: Status) -> dict[str, Any]:
        kind = {429: "rate_limit_error", 401: "authentication_error"}.get(step.code, "api_error")
        return {"type": "error", "error": {"type": kind, "message": step.message}}


class GeminiWire(_Wire):
    def events(self, step: Stream, model: str) -> list[bytes]:
        out = []
        for i, c in enumerate(step.chunks):
            data: dict[str, Any] = {
                "candidates": [{"content": {"parts": [{"text": c}], "role": "model"}, "index": 0}],
                "modelVersion": model,
            }
            if i == len(step.chunks) - 1:
                data["candidates"][0]["finishReason"] = "STOP"
                data["usageMetadata"] = {
                    "promptTokenCount": step.prompt_tokens,
                    "candidatesTokenCount": step.completion_tokens,
                    "totalTokenCount": step.prompt_tokens + step.completion_tokens,
                }
            out.append(_sse(data))
        return out

    def error_body(self, step: Status) -> dict[str, Any]:
        status = {429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 401: "UNAUTHENTICATED"}
        return {
            "error": {
                "code": step.code,
                "message": step.message,
                "status": status.get(step.code, "INVALID_ARGUMENT"),
            }
        }


WIRES: dict[str, _Wire] = {
    "openai": OpenAIWire(),
    "anthropic": AnthropicWire(),
    "gemini": GeminiWire(),
}


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        """Clients that hang up early (timeouts, dropped streams) are part of the tests."""


class FakeProvider:
    """A scripted fake provider; use as a context manager.

    >>> with FakeProvider("openai") as fake:
    ...     fake.script(Stream(["Hi"]))
    ...     fake.url.startswith("http://127.0.0.1:")
    True
    """

    def __init__(self, wire: str) -> None:
        self.wire = WIRES[wire]
        self.steps: deque[Stream | Status | Malformed] = deque()
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._server = _QuietServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def script(self, *steps: Stream | Status | Malformed) -> None:
        """Queue the answers to the next requests, in order."""
        self.steps.extend(steps)

    def __enter__(self) -> FakeProvider:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next_step(self, record: Recorded) -> Stream | Status | Malformed:
        with self._lock:
            self.requests.append(record)
            return self.steps.popleft() if self.steps else Status(500, "script exhausted")

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b"{}"
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"_raw": raw.decode(errors="replace")}
                record = Recorded(
                    "POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body
                )
                step = fake._next_step(record)
                model = str(body.get("model", self.path.split("/models/")[-1].split(":")[0]))
                if isinstance(step, Status):
                    self._send_json(step.code, fake.wire.error_body(step))
                elif isinstance(step, Malformed):
                    self._send_stream(
                        [b'data: {"choices": [ {"delta": \n\n', b"data: not json at all\n\n"]
                    )
                else:
                    if step.delay_s:
                        time.sleep(step.delay_s)
                    events = fake.wire.events(step, model)
                    if step.drop_after is not None:
                        self._send_stream(events[: step.drop_after], drop=True)
                    else:
                        stall = {step.stall_after: step.stall_s} if step.stall_after else {}
                        self._send_stream(
                            [*events, fake.wire.trailer()], stall=stall, pause_s=step.pause_s
                        )

            def _send_json(self, code: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _send_stream(
                self,
                parts: list[bytes],
                drop: bool = False,
                stall: dict[int, float] | None = None,
                pause_s: float = 0.0,
            ) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for index, part in enumerate(parts):
                    if stall and index in stall:
                        time.sleep(stall[index])  # silent mid-stream: the client times out
                    if part:
                        self.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
                        self.wfile.flush()
                        time.sleep(pause_s)
                if drop:
                    self.close_connection = True
                    return
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

        return Handler
