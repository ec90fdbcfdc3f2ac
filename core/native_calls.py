"""A gate on calls into native libraries (llama.cpp, ONNX Runtime, torch) for a clean exit.

A web worker is a daemon thread. When the process exits while such a thread is
inside a native library, Python 3.11 ends the thread as it comes back for the
interpreter (``pthread_exit``), unwinding through C++ frames that cannot be
unwound: the process aborts ("terminate called without an active exception",
or a segmentation fault) after everything else went well. So every call into
such a library is marked with :func:`native_call`; at exit the gate closes, no
new call starts (:class:`ShuttingDown` is raised instead, an ordinary Python
exception), and the exit waits for the calls under way, which take at most a
few seconds (one token, one batch of texts).

>>> with native_call():
...     pass
>>> closing()
False
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: How long the exit waits for native calls under way.
EXIT_WAIT_SECONDS = 30.0

_CLOSED = threading.Event()
_STATE = threading.Condition()
_running = 0


class ShuttingDown(RuntimeError):
    """The process is exiting: no more work goes into a native library."""


def closing() -> bool:
    """Whether the process has begun to exit (the gate is closed)."""
    return _CLOSED.is_set()


@contextmanager
def native_call() -> Iterator[None]:
    """Mark a stretch of calls into a native library, so the exit can wait for it to end.

    Raises :class:`ShuttingDown` once the process has begun to exit. Hold it
    only while calling in, never across a ``yield`` to a caller: a stream a
    caller stopped pumping would keep the exit waiting.
    """
    global _running
    with _STATE:
        if _CLOSED.is_set():
            raise ShuttingDown("the server is shutting down")
        _running += 1
    try:
        yield
    finally:
        with _STATE:
            _running -= 1
            _STATE.notify_all()


def close(wait_seconds: float | None = None) -> bool:
    """Close the gate and wait (up to ``wait_seconds``, default ``EXIT_WAIT_SECONDS``) for
    the calls under way; True when none is left running. Runs at exit; safe to call twice."""
    _CLOSED.set()
    wait = EXIT_WAIT_SECONDS if wait_seconds is None else wait_seconds
    with _STATE:
        return _STATE.wait_for(lambda: _running == 0, timeout=wait)


atexit.register(close)
