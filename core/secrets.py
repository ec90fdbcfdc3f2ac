"""Keeping secrets out of what the app shows, logs and writes.

Two tools: :func:`scrub_secrets` replaces known values (the server's keys,
keys a visitor typed in); :func:`redact_keys` does that and also removes
anything shaped like an API key, for text that is about to be written to a
file others may read.

>>> scrub_secrets("bad key sk-12345", ["sk-12345"])
'bad key [redacted]'
>>> redact_keys("mine is sk-abcdefghijklmnopqrstu ok")
'mine is [redacted] ok'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

REDACTED = "[redacted]"
_KEY_SHAPES = re.compile(
    r"\b(sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{16,}|AIza[0-9A-Za-z_\-]{30,}|gsk_[A-Za-z0-9]{20,})"
)


def scrub_secrets(text: str, secrets: Iterable[str]) -> str:
    """Replace every secret value found in ``text`` with ``[redacted]``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    return text


def redact_keys(text: str, secrets: Iterable[str] = ()) -> str:
    """Remove known secrets and anything shaped like an API key."""
    return _KEY_SHAPES.sub(REDACTED, scrub_secrets(text, secrets))
