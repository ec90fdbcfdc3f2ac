"""Who is visiting: an id the server issues and signs, kept in the visitor's browser, so their
work stays theirs (:mod:`core.visitors` says what is derived from it).

On a public Space strangers share one server. Each browser gets an
unguessable id on its first visit, kept in its local storage so it survives
a reload; a visitor's batch runs live in a folder named from that id, which
no other visitor can name, read, resume or stop, and their flags, ratings
and votes are tagged with a digest of it, so each visitor can download their
own. An id the server did not issue is replaced (:func:`ensure_visitor`), so
a caller of the API cannot pass as another visitor.

>>> a, b = ensure_visitor(None), ensure_visitor(None)
>>> a != b and ensure_visitor(a) == a
True
>>> visitor_folder(Path("runs"), a, "my-batch") != visitor_folder(Path("runs"), b, "my-batch")
True
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import gradio as gr

from core.visitors import checked_visitor, ensure_visitor, folder_name

__all__ = ["checked_visitor", "ensure_visitor", "on_load", "visitor_folder", "visitor_state"]

#: Where the browser keeps the id.
STORAGE_KEY = "empathy-lab-visitor"
#: What a request without an id this server issued is told.
NO_VISITOR = (
    "This browser has no visitor id yet: reload the page and try again. (Scripts: the "
    "command line, `python cli.py`, does the same work on your own machine.)"
)


@cache
def storage_secret() -> str:
    """The key Gradio scrambles this app's browser storage with (it reaches the browser, so it
    guards nothing on its own: what matters is signed by :func:`config.server_secret`)."""
    import hashlib
    import hmac

    from config import server_secret

    return hmac.new(server_secret(), b"browser-storage", hashlib.sha256).hexdigest()[:32]


def visitor_state() -> gr.BrowserState:
    """The id in this browser's storage (fill it with :func:`on_load`)."""
    return gr.BrowserState(None, storage_key=STORAGE_KEY, secret=storage_secret())


def visitor_folder(root: Path, visitor: str | None, name: str) -> Path:
    """``root/visitors/<digest of the id>/<name>``: only this visitor can name it.

    Raises :class:`gradio.Error` for an id this server did not issue.
    """
    digest = folder_name(visitor)
    if not digest:
        raise gr.Error(NO_VISITOR)
    return root / "visitors" / digest / name


def visitor_of(current: str | None, request: gr.Request | None) -> str:
    """This browser's id: the one it keeps, else a new one, the same for every page of the tab
    (each page keeps its own copy, filled at once on a first visit)."""
    return ensure_visitor(current, getattr(request, "session_hash", None) or "")


def keys_and_visitor(values: tuple) -> tuple[tuple, str | None]:
    """A handler's trailing inputs split: the key boxes (:data:`config.KEY_ENV_VARS` order),
    then this browser's visitor id when the page sends one (a caller of the API may not).

    >>> keys_and_visitor(("k1", "", "", "", "id")), keys_and_visitor(("k1",))
    ((('k1', '', '', ''), 'id'), (('k1',), None))
    """
    from config import KEY_ENV_VARS

    count = len(KEY_ENV_VARS)
    return values[:count], (values[count:] or (None,))[0]


def on_load(page: gr.Blocks, state: gr.BrowserState) -> None:
    """Give the browser an id on its first visit (kept on later ones)."""
    page.load(visitor_of, state, state, api_name=False, show_progress="hidden")
