"""The vote log: one row per vote, in an append-only :class:`core.csvlog.CsvLog`.

A row holds the round code, a random voter id for the browser session (never
an IP address), the time, the sources in the order shown (joined by ``|``),
the sources picked as most and least empathetic, the voter's reason and the
app version. A session votes once per round: the check and the append happen
under one lock, across threads and processes.

>>> import tempfile, pathlib
>>> from studies.votes.rounds import Entry, create_round, ballot
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> rnd = create_round("m", [Entry("a/x", "one"), Entry("b/y", "two")], seed=1, folder=folder)
>>> letters = dict(ballot(rnd, "s1"))
>>> row = cast_vote(rnd, "s1", "A", "B", "=kind", folder=folder)
>>> row["most"] == letters["A"], row["reason"]
(True, '=kind')
>>> cast_vote(rnd, "s1", "B", "A", folder=folder)
Traceback (most recent call last):
...
studies.votes.log.AlreadyVoted: This browser session has already voted in this round.
"""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

from filelock import FileLock

from config import APP_VERSION
from core.cells import unsanitize_cell
from core.csvlog import CsvLog, CsvLogError, read_log
from core.textinput import InputError, clean_text
from studies.votes.rounds import VoteRound, ballot, votes_dir

VOTE_FILE_NAME = "votes.csv"
FIELDS: tuple[str, ...] = (
    "round",
    "voter",
    "timestamp",
    "shown",
    "most",
    "least",
    "reason",
    "app_version",
)
#: The columns any vote file needs for a summary (a paper survey's too).
SUMMARY_FIELDS: tuple[str, ...] = ("round", "voter", "shown", "most", "least")
MAX_REASON_CHARS = 2000
_GUARDS: dict[Path, threading.Lock] = {}
_GUARDS_LOCK = threading.Lock()


class AlreadyVoted(InputError):
    """This session has voted in this round before."""


class VoteLog(CsvLog):
    """The vote log in ``folder`` (default: ``EMPATHY_LAB_VOTES_DIR``)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = votes_dir(folder)
        super().__init__(
            self.folder / VOTE_FILE_NAME, FIELDS, what="vote log", nothing="no votes yet"
        )
        # Guards "has this session voted?" + append; separate from the log's own lock.
        self._guard_file = FileLock(str(self.path) + ".vote.lock", timeout=60)
        with _GUARDS_LOCK:
            self._guard_thread = _GUARDS.setdefault(self.path.resolve(), threading.Lock())

    def add_once(self, row: dict[str, str]) -> dict[str, str]:
        """Append ``row`` unless its voter has voted in its round; raises AlreadyVoted.

        Returns the row as stored (keys redacted), as :meth:`read` will give it back.
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._guard_thread, self._guard_file:
            if any(r["round"] == row["round"] and r["voter"] == row["voter"] for r in self.read()):
                raise AlreadyVoted("This browser session has already voted in this round.")
            written = self.append(row)
        return {k: unsanitize_cell(v) for k, v in written.items()}

    def has_voted(self, code: str, voter: str) -> bool:
        """Whether ``voter`` has voted in round ``code``."""
        return self.vote_of(code, voter) is not None

    def vote_of(self, code: str, voter: str) -> dict[str, str] | None:
        """``voter``'s vote in round ``code`` as it was cast, or None."""
        for r in self.read():
            if r["round"] == code and r["voter"] == voter:
                return {k: unsanitize_cell(v) for k, v in r.items()}
        return None


def _clean_reason(reason: str | None) -> str:
    if not reason or not reason.strip():
        return ""
    try:
        return clean_text(reason, limit=MAX_REASON_CHARS, what="reason")
    except InputError:
        raise InputError(
            f"The reason is longer than {MAX_REASON_CHARS:,} characters: one or two sentences will do."
        ) from None


def cast_vote(
    rnd: VoteRound,
    voter: str,
    most: str,
    least: str,
    reason: str = "",
    *,
    folder: Path | None = None,
) -> dict[str, str]:
    """Record ``voter``'s most and least empathetic reply, given as the letters they saw.

    Raises :class:`InputError` for a missing or identical pick and
    :class:`AlreadyVoted` for a second vote; returns the row as written.
    """
    letters = dict(ballot(rnd, voter))
    if not voter:
        raise InputError("No voter session: reload the page.")
    if most not in letters or least not in letters:
        raise InputError(f"Pick the most and the least empathetic reply ({', '.join(letters)}).")
    if most == least:
        raise InputError("The most and the least empathetic reply must be different.")
    row = {
        "round": rnd.code,
        "voter": voter,
        "timestamp": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "shown": "|".join(letters.values()),
        "most": letters[most],
        "least": letters[least],
        "reason": _clean_reason(reason),
        "app_version": APP_VERSION,
    }
    return VoteLog(folder).add_once(row)


def read_votes(path: Path | None = None) -> list[dict[str, str]]:
    """Votes from the app's log (default) or any CSV with :data:`SUMMARY_FIELDS`.

    A damaged line raises :class:`core.csvlog.CsvLogError` naming it.
    """
    if path is None:
        return VoteLog().read()
    if not Path(path).is_file():
        raise CsvLogError(f"no such vote file: {path}")
    rows = [{k.lstrip("\ufeff").strip(): v for k, v in r.items()} for r in read_log(Path(path))]
    missing = [f for f in SUMMARY_FIELDS if rows and f not in rows[0]]
    if missing:
        raise CsvLogError(f"{path} lacks the column(s) {', '.join(missing)}")
    return rows
