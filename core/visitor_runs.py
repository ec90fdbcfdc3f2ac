"""How much of the server's disk visitors' batch runs may take, and for how long.

A visitor's runs live under ``runs/visitors/<their folder>/<run name>/``
(:mod:`core.visitors`). The operator caps each visitor's runs by count and
size, all visitors' runs together by size, and how many days a run is kept
after its last change (:mod:`config`); :func:`prune` removes what is past
its days and then the oldest runs until the whole fits, and :func:`check_room`
refuses a new run, with a plain message, to a visitor who has no room left.

>>> import tempfile
>>> root = Path(tempfile.mkdtemp())
>>> (root / "visitors" / "abc" / "old").mkdir(parents=True)
>>> check_room(root / "visitors" / "abc", "new", max_runs=1, max_bytes=10)
Traceback (most recent call last):
...
core.textinput.InputError: You have 1 batch runs kept here, the most this server keeps for one visitor: continue one of them (same run name), or wait until the oldest is removed (after 7 days).
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import config
from core.textinput import InputError


@dataclass(frozen=True)
class RunSpace:
    """One visitor's run folder: where it is, its bytes and its last change (epoch seconds)."""

    path: Path
    size: int
    changed: float


def _measure(run: Path) -> RunSpace:
    size, changed = 0, run.stat().st_mtime
    for item in run.rglob("*"):
        try:
            st = item.stat()
        except OSError:  # removed while counted
            continue
        size += st.st_size if item.is_file() else 0
        changed = max(changed, st.st_mtime)
    return RunSpace(run, size, changed)


def visitor_runs(visitors_root: Path) -> list[RunSpace]:
    """Every run under ``visitors_root`` (``runs/visitors``), oldest change first."""
    if not visitors_root.is_dir():
        return []
    runs = [run for owner in visitors_root.iterdir() if owner.is_dir() for run in owner.iterdir()]
    return sorted((_measure(r) for r in runs if r.is_dir()), key=lambda r: r.changed)


def prune(
    visitors_root: Path,
    *,
    keep_days: float | None = None,
    max_bytes: int | None = None,
    busy: frozenset[Path] = frozenset(),
    now: float | None = None,
) -> list[Path]:
    """Remove runs unchanged for ``keep_days``, then the oldest until all fit in ``max_bytes``
    (defaults: the operator's); never a run in ``busy``. Returns the runs removed.

    >>> import tempfile, os
    >>> root = Path(tempfile.mkdtemp())
    >>> run = root / "abc" / "r1"; run.mkdir(parents=True)
    >>> os.utime(run, (0, 0)); prune(root) == [run]
    True
    """
    settings = config.SETTINGS
    days = settings.keep_days if keep_days is None else keep_days
    cap = settings.visitors_max_bytes if max_bytes is None else max_bytes
    now = time.time() if now is None else now
    every = visitor_runs(visitors_root)
    runs = [r for r in every if r.path not in busy]
    removed = [r for r in runs if now - r.changed > days * 86400]
    total = sum(r.size for r in every if r not in removed)  # a busy run takes room too
    for run in runs:
        if total <= cap:
            break
        if run not in removed:
            removed.append(run)
            total -= run.size
    for run in removed:
        shutil.rmtree(run.path, ignore_errors=True)
    for owner in {r.path.parent for r in removed}:
        if owner.is_dir() and not any(owner.iterdir()):
            owner.rmdir()
    return [r.path for r in removed]


def check_room(
    owner: Path, name: str, *, max_runs: int | None = None, max_bytes: int | None = None
) -> None:
    """Refuse (:class:`InputError`) a run called ``name`` in ``owner`` (one visitor's folder)
    when the visitor has no room: as many runs as allowed (a run continued is not a new one) or
    as many bytes."""
    settings = config.SETTINGS
    most = settings.visitor_max_runs if max_runs is None else max_runs
    cap = settings.visitor_max_bytes if max_bytes is None else max_bytes
    runs = [r for r in visitor_runs(owner.parent) if r.path.parent == owner]
    later = f"wait until the oldest is removed (after {settings.keep_days:g} days)"
    if not any(r.path.name == name for r in runs) and len(runs) >= most:
        raise InputError(
            f"You have {len(runs)} batch runs kept here, the most this server keeps for one "
            f"visitor: continue one of them (same run name), or {later}."
        )
    used = sum(r.size for r in runs)
    if used >= cap:
        raise InputError(
            f"Your batch runs take {used / 2**20:.1f} MB here, the most this server keeps for "
            f"one visitor ({cap / 2**20:g} MB): download what you need and {later}."
        )
