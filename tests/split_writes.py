"""Make the flag log's writes easy to tear, so its lock has something to prove.

The operating system keeps one ``write`` of a few kB whole, so concurrent
writers rarely tear a row even without a lock. :func:`install` replaces
:meth:`core.csvlog.CsvLog._write_text` (where every row is written) with a
version that writes each row in two pieces with a wait between them: within
one process a writer waits, between its halves, until another writer starts
(or ``wait_s`` passes); any writer also sleeps ``pause_s``. Without the lock
two writers always interleave their halves; with it they never overlap, and
every wait simply times out.

``python -c`` writer processes call :func:`install` themselves (see
tests/flags/test_flagging.py); ``locks=False`` also swaps both locks for no-ops, to
show that the tests then fail.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

from core.csvlog import CsvLog


class SplitWrites:
    """A ``_write_text`` replacement; counts writers that overlapped."""

    def __init__(self, wait_s: float = 0.01, pause_s: float = 0.0) -> None:
        self.wait_s = wait_s
        self.pause_s = pause_s
        self.inside = 0
        self.overlaps = 0
        self.writes = 0
        self._cv = threading.Condition()
        self._real = CsvLog._write_text

    def __call__(self, log: CsvLog, text: str) -> None:
        half = len(text) // 2
        self._real(log, text[:half])
        with self._cv:
            self.inside += 1
            self.writes += 1
            self._cv.notify_all()
            if self._cv.wait_for(lambda: self.inside > 1, timeout=self.wait_s):
                self.overlaps += 1
        if self.pause_s:
            time.sleep(self.pause_s)
        self._real(log, text[half:])
        with self._cv:
            self.inside -= 1


def _no_locks(init: Any) -> Any:
    def patched(self: CsvLog, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self._thread_lock = contextlib.nullcontext()  # type: ignore[assignment]
        self._file_lock = contextlib.nullcontext()  # type: ignore[assignment]

    return patched


def install(
    patch: Any = None, *, wait_s: float = 0.01, pause_s: float = 0.0, locks: bool = True
) -> SplitWrites:
    """Split every row written from now on; ``patch`` is a MonkeyPatch (None: for good)."""
    split = SplitWrites(wait_s, pause_s)
    setter = patch.setattr if patch is not None else setattr
    setter(CsvLog, "_write_text", lambda log, text: split(log, text))
    if not locks:
        setter(CsvLog, "__init__", _no_locks(CsvLog.__init__))
    return split


def at_once(work: Any, count: int) -> list[str]:
    """Run ``work(n)`` for n in range(count), each in its own thread, all at once; the errors
    the threads raised, as text ([] when none did)."""
    errors: list[str] = []

    def run(n: int) -> None:
        try:
            work(n)
        except Exception as exc:  # collected for the caller to assert
            errors.append(f"{type(exc).__name__}: {exc}")

    workers = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return errors
