"""Progress reporting shared by studies, pages and commands.

A study takes a :data:`Progress` callback, ``progress(done, total, what)``,
and knows nothing of who listens: a page passes :func:`pages.widgets.progress.gradio_progress`,
a command :func:`terminal_progress` (a tqdm bar on stderr).

>>> seen = []
>>> report = lambda done, total, what: seen.append((done, total, what))
>>> report(1, 2, "scoring")
>>> seen
[(1, 2, 'scoring')]
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

#: ``progress(done, total, what)``: ``done`` of ``total`` steps, now doing ``what``.
Progress = Callable[[int, int, str], None]


def silent(done: int, total: int, what: str) -> None:
    """A progress callback that reports nothing."""


@contextlib.contextmanager
def terminal_progress(desc: str = "") -> Iterator[Progress]:
    """A tqdm bar on stderr, fed by a :data:`Progress` callback; closed on exit."""
    from tqdm import tqdm

    bar = tqdm(total=0, desc=desc, file=sys.stderr, dynamic_ncols=True, leave=True)

    def report(done: int, total: int, what: str) -> None:
        if bar.total != total:
            bar.reset(total=total)
        bar.n = done
        bar.set_postfix_str(what[:60], refresh=False)
        bar.refresh()

    try:
        yield report
    finally:
        bar.close()
