"""Sharing a page: its full address as the visitor reached it, and a QR code of it.

>>> page_link(None, "/vote?round=K7Q2")
'/vote?round=K7Q2'
>>> qr_data_uri("http://x/vote?round=K7Q2").startswith("data:image/png;base64,")
True
>>> hand_off(None, "/vote?round=K7Q2")[0]
'/vote?round=K7Q2'
>>> "only on this computer" in local_only_note("http://127.0.0.1:7860/vote?round=K7Q2")
True
>>> local_only_note("https://example.org/vote?round=K7Q2")
''
"""

from __future__ import annotations

from urllib.parse import urlsplit

import gradio as gr

#: Host names that only reach the computer they are typed on.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


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


def local_only_note(link: str) -> str:
    """A warning when ``link`` names this computer itself (students' devices cannot open it),
    else ""."""
    host = urlsplit(link).hostname or ""
    if host not in LOCAL_HOSTS and not host.startswith("127."):
        return ""
    return (
        f"This link works only on this computer ({host}): students on their own devices need "
        "the address of the computer or Space that runs the app. Open the app by that address "
        "(a server started with `python app.py --host 0.0.0.0` answers on its network name) "
        "and the link and QR code here will use it."
    )


def hand_off(request: gr.Request | None, path: str) -> tuple[str, str]:
    """The full address of ``path`` (for a box with a copy button) and its QR code (Markdown),
    with a warning under it when the address reaches only this computer."""
    link = page_link(request, path)
    note = local_only_note(link)
    return link, f"![QR code of the link]({qr_data_uri(link)})" + (f"\n\n{note}" if note else "")
