"""A cap on the size of every request, checked before any of it is read into a page.

Gradio caps uploads (``max_file_size``) but not the body of a call: a 100 MB
message was taken in whole and cleaned before the page refused it. This
middleware answers 413 to a body over the operator's
``EMPATHY_LAB_MAX_REQUEST_MB`` (uploads: the upload cap and a little room for
the form around the file), from its ``Content-Length`` at once, and while a
body without one streams in.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
#: Room for the multipart form around an uploaded file.
FORM_ROOM = 64 * 1024


class TooLarge(Exception):
    """The body passed its cap while it streamed in."""


class BodyCap:
    """ASGI middleware refusing bodies over ``max_bytes`` (``upload_bytes`` on upload routes)."""

    def __init__(self, app: Any, max_bytes: int, upload_bytes: int) -> None:
        self.app, self.max_bytes, self.upload_bytes = app, max_bytes, upload_bytes

    def cap_for(self, path: str) -> int:
        """The largest body this path takes.

        >>> cap = BodyCap(None, 10, 100)
        >>> cap.cap_for("/gradio_api/queue/join"), cap.cap_for("/gradio_api/upload")
        (10, 65636)
        """
        if path.rstrip("/").endswith("/upload"):
            return self.upload_bytes + FORM_ROOM
        return self.max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = self.cap_for(str(scope.get("path", "")))
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length", b"").decode() or "0"
        if length.isdigit() and int(length) > cap:
            await refuse(send, int(length), cap)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > cap:
                raise TooLarge
            return message

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, sending)
        except TooLarge:
            if not started:
                await refuse(send, seen, cap)


async def refuse(send: Send, size: int, cap: int) -> None:
    """Answer 413 with a plain message."""
    detail = (
        f"The request is {size / 2**20:.1f} MB or more; this server takes at most "
        f"{cap / 2**20:.2g} MB in one request (the operator's EMPATHY_LAB_MAX_REQUEST_MB). "
        "Send a shorter text."
    )
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
