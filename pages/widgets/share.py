"""Sharing a page: its full address as the visitor reached it, and a QR code of it.

>>> page_link(None, "/vote?round=K7Q2")
'/vote?round=K7Q2'
>>> qr_data_uri("http://x/vote?round=K7Q2").startswith("data:image/png;base64,")
True
>>> hand_off(None, "/vote?round=K7Q2")[0]
'/vote?round=K7Q2'
"""

from __future__ import annotations

import gradio as gr


def page_link(request: gr.Request | None, path: str) -> str:
    """The full address of ``path`` on this server as the visitor reached it (proxies too)."""
    headers = getattr(request, "headers", None) or {}
    host = headers.get("x-forwarded-host") or headers.get("host")
    if not host:
        return path
    scheme = headers.get("x-forwarded-proto") or getattr(
        getattr(request, "url", None), "scheme", "http"
    )
    return f"{scheme}://{host}{path}"


def qr_data_uri(text: str) -> str:
    """A QR code of ``text`` as a PNG data address (shown in the page, nothing stored)."""
    import segno

    return str(segno.make(text, error="m").png_data_uri(scale=5, border=2))


def hand_off(request: gr.Request | None, path: str) -> tuple[str, str]:
    """The full address of ``path`` (for a box with a copy button) and its QR code (Markdown)."""
    link = page_link(request, path)
    return link, f"![QR code of the link]({qr_data_uri(link)})"
