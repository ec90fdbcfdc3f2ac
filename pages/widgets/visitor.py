"""Who is visiting: a random id kept in the visitor's browser, so their work stays theirs.

On a public Space strangers share one server. Each browser gets an
unguessable id on its first visit, kept in its local storage (encrypted with
a secret only the server holds) so it survives a reload; a visitor's batch
runs live in a folder named from that id, which no other visitor can name,
read, resume or stop. A caller without a browser (the API) sends an id of its
own to continue a run; without one it gets a fresh id, so a fresh folder, per call.

>>> a, b = ensure_visitor(None), ensure_visitor(None)
>>> a != b and ensure_visitor(a) == a
True
>>> visitor_folder(Path("runs"), a, "my-batch") != visitor_folder(Path("runs"), b, "my-batch")
True
"""

from __future__ import annotations

import hashlib
import re
import secrets
from functools import cache
from pathlib import Path

import gradio as gr

from config import SETTINGS

#: Where the browser keeps the id.
STORAGE_KEY = "empathy-lab-visitor"
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{22,64}$")


@cache
def storage_secret() -> str:
    """The server's secret for the browser storage (made once, kept in the cache folder)."""
    path = SETTINGS.cache_dir / "visitor.secret"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


def visitor_state() -> gr.BrowserState:
    """The id in this browser's storage (fill it with :func:`ensure_visitor` on load)."""
    return gr.BrowserState(None, storage_key=STORAGE_KEY, secret=storage_secret())


def voter_state() -> gr.BrowserState:
    """A class-vote voter id kept in this browser's storage, so a reload is the same voter.

    Its own key, unrelated to the visitor id (a vote log shows voter ids, never a key to
    anyone's runs).
    """
    return gr.BrowserState("", storage_key="empathy-lab-voter", secret=storage_secret())


def ensure_visitor(current: str | None) -> str:
    """``current`` when it is a well-formed id, else a new random one."""
    if isinstance(current, str) and _TOKEN.match(current):
        return current
    return secrets.token_urlsafe(24)


def visitor_folder(root: Path, visitor: str | None, name: str) -> Path:
    """``root/visitors/<digest of the id>/<name>``: only this visitor can name it."""
    digest = hashlib.sha256(ensure_visitor(visitor).encode()).hexdigest()[:32]
    return root / "visitors" / digest / name


def on_load(page: gr.Blocks, state: gr.BrowserState) -> None:
    """Give the browser an id on its first visit (kept on later ones)."""
    page.load(ensure_visitor, state, state, api_name=False, show_progress="hidden")
