"""Who a request comes from, as far as the server can tell, and what they may read.

Strangers share a public server, and what they type is theirs. Every browser
gets a visitor id the server issues and signs (:func:`ensure_visitor`); an id
a request makes up is not taken, so a caller cannot speak as another visitor
or mint voters at will. From the id the server derives, with its own secret
(:func:`config.server_secret`, never sent to a browser):

- the name of the visitor's run folder (:func:`folder_name`),
- the owner tag written beside their flags and ratings (:func:`owner_tag`),
- their voter id in class votes (:func:`voter_id`).

None of them leads back to the id, so the operator's logs hold no key to a
visitor's runs, and a vote log names no browser.

Who may read the shared logs whole (:func:`may_read_all`): the operator, with
``EMPATHY_LAB_ADMIN_TOKEN``; and anyone on a local, single-user run (no token
set, the server bound to this machine only, not marked public). Everyone else
reads their own rows.

>>> a = ensure_visitor(None)
>>> ensure_visitor(a) == a, ensure_visitor("made-up-id-0123456789abcdef") == "made-up-id-0123456789abcdef"
(True, False)
>>> owner_tag(a) == owner_tag(a) != owner_tag(ensure_visitor(None))
True
>>> owner_tag("forged.0000"), voter_id("forged.0000")
('', '')
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

import config

#: Hosts that mean "every network interface" (a server strangers can reach).
EVERY_INTERFACE = ("0.0.0.0", "::", "[::]")
_ID = re.compile(r"^([A-Za-z0-9_-]{22,64})\.([0-9a-f]{32})$")
#: Set by :func:`served_on` when the app starts listening.
_LISTENS_WIDELY = [False]


def _mac(purpose: str, text: str, size: int = 32) -> str:
    key = config.server_secret()
    return hmac.new(key, f"{purpose}:{text}".encode(), hashlib.sha256).hexdigest()[:size]


def new_visitor(session: str = "") -> str:
    """A fresh visitor id: a token and the server's signature of it. The token is random, or,
    given the browser tab's ``session`` (Gradio's session hash), the server's digest of it, so
    that every page of one tab, each filling its own copy of the id at once, gets the same id.

    >>> new_visitor("tab-1") == new_visitor("tab-1") != new_visitor("tab-2")
    True
    """
    token = _mac("session", session) if session else secrets.token_urlsafe(24)
    return f"{token}.{_mac('visitor', token)}"


def checked_visitor(value: object) -> str | None:
    """``value`` when it is an id this server issued, else None.

    >>> checked_visitor(None), checked_visitor("x" * 30)
    (None, None)
    """
    found = _ID.match(value) if isinstance(value, str) else None
    if not found or not hmac.compare_digest(found[2], _mac("visitor", found[1])):
        return None
    return value  # type: ignore[return-value]


def ensure_visitor(current: object, session: str = "") -> str:
    """``current`` when this server issued it, else a new id (:func:`new_visitor`)."""
    return checked_visitor(current) or new_visitor(session)


def folder_name(visitor: object) -> str:
    """The folder of this visitor's runs (unguessable without the id; ``""`` for no id)."""
    return _mac("folder", visitor) if checked_visitor(visitor) else ""  # type: ignore[arg-type]


def owner_tag(visitor: object) -> str:
    """The tag written beside this visitor's flags and ratings (``""`` for no id)."""
    return _mac("owner", visitor, 16) if checked_visitor(visitor) else ""  # type: ignore[arg-type]


def voter_id(visitor: object) -> str:
    """This visitor's voter id in every round (``""`` for no id): one browser, one vote."""
    return _mac("voter", visitor, 16) if checked_visitor(visitor) else ""  # type: ignore[arg-type]


def served_on(host: str) -> None:
    """Note where the app listens: every interface makes it a server strangers may share."""
    _LISTENS_WIDELY[0] = host in EVERY_INTERFACE


def is_public() -> bool:
    """Whether strangers may share this server (the operator said so, a Space, or it listens
    on every interface)."""
    return config.SETTINGS.public or _LISTENS_WIDELY[0]


def is_operator(token: object) -> bool:
    """Whether ``token`` is the operator's (never true when no token is set).

    >>> is_operator(""), is_operator(None)
    (False, False)
    """
    wanted = config.SETTINGS.admin_token
    given = token.strip() if isinstance(token, str) else ""
    return bool(wanted) and hmac.compare_digest(given.encode(), wanted.encode())


def may_read_all(token: object = "") -> bool:
    """Whether this request may read the shared logs whole: the operator's token, or a local,
    single-user run (no token set, not public)."""
    if is_operator(token):
        return True
    return not config.SETTINGS.admin_token and not is_public()


def reader_of(visitor: object, token: object = "") -> str | None:
    """Whose rows of a shared log this request reads: None for every row (:func:`may_read_all`),
    else the visitor's owner tag (``""``, matching no row, for an id this server did not issue).

    >>> reader_of(None, "") in (None, "")
    True
    """
    return None if may_read_all(token) else owner_tag(visitor)


def own_rows(rows: list[dict[str, str]], reader: str | None, column: str = "visitor") -> list:
    """The rows ``reader`` may read (:func:`reader_of`): all for None, else those it owns.

    >>> own_rows([{"visitor": "a"}, {"visitor": ""}], "a"), own_rows([{"visitor": ""}], "")
    ([{'visitor': 'a'}], [])
    """
    if reader is None:
        return rows
    return [r for r in rows if reader and r.get(column) == reader]
