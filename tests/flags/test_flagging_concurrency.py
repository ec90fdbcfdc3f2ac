"""The flag log under load: threads and processes appending at once, rows never torn.

Each row is written in two pieces with a wait between them (tests/split_writes.py),
so a log without its locks tears rows; the same writers are also run without
the locks to show that these checks can fail.
"""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from config import ROOT
from core.flags import FIELDS, FlagLog, FlagLogError
from tests.flags.test_flagging import record
from tests.split_writes import install


def torn_rows(folder, expected: dict[str, str]) -> list[str]:
    """What is wrong with the log in ``folder``, given {note: reply} ([] when every row is intact)."""
    try:
        rows = FlagLog(folder).read()
    except FlagLogError as exc:
        return [f"unreadable: {exc}"]
    problems = [f"{len(rows)} rows, expected {len(expected)}"] if len(rows) != len(expected) else []
    seen = {r["note"]: r["reply"] for r in rows}
    problems += [
        f"row {note!r} missing or damaged" for note in expected if seen.get(note) != expected[note]
    ]
    return problems


def run_threads(folder, threads: int = 8, rows: int = 25) -> tuple[dict[str, str], list[str]]:
    """``threads`` threads append ``rows`` rows each at once; ({note: reply}, writer errors)."""
    errors: list[Exception] = []

    def work(t: int) -> None:
        try:
            for i in range(rows):
                FlagLog(folder).append(record(t * 100 + i, "x" * 3000))
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    expected = {
        f"note {t * 100 + i}": "x" * 3000 + f" {t * 100 + i}"
        for t in range(threads)
        for i in range(rows)
    }
    return expected, [str(e) for e in errors]


def test_many_threads_flag_at_once(tmp_path, monkeypatch):
    split = install(monkeypatch)  # each row in two writes, waiting for a rival in between
    expected, errors = run_threads(tmp_path)
    assert errors == [] and torn_rows(tmp_path, expected) == []
    assert split.writes == 201 and split.overlaps == 0  # header + 200 rows, one at a time


def test_without_the_locks_the_same_threads_tear_rows(tmp_path, monkeypatch):
    """The check above can fail: with both locks made no-ops, rows are torn every time."""
    (tmp_path / "flags.csv").write_text(",".join(FIELDS) + "\r\n")  # no header race: rows only
    split = install(monkeypatch, locks=False)
    expected, errors = run_threads(tmp_path, threads=4, rows=5)
    assert errors == [] and split.overlaps > 0 and torn_rows(tmp_path, expected) != []


WRITER = """
import sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.split_writes import install
from core.flags import FlagLog, FlagRecord
install(wait_s=0, pause_s=0.005, locks={locks!r})
folder, me, count = Path({folder!r}), sys.argv[1], {count}
(folder / f"ready-{{me}}").touch()
deadline = time.monotonic() + 120
while len(list(folder.glob("ready-*"))) < count and time.monotonic() < deadline:
    time.sleep(0.01)  # start together
log = FlagLog(folder)
for i in range(40):
    log.append(FlagRecord(page="cli", message="m", reply="y" * 5000 + " " + me, note=f"{{me}}-{{i}}"))
"""


@pytest.mark.parametrize("locks", [True, False], ids=["locked", "no-locks"])
def test_several_processes_flag_at_once(tmp_path, locks):
    script = WRITER.format(root=str(ROOT), folder=str(tmp_path), locks=locks, count=4)
    if not locks:  # no header race: only rows can tear
        (tmp_path / "flags.csv").write_text(",".join(FIELDS) + "\r\n")
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(p)], stderr=subprocess.PIPE)
        for p in range(4)
    ]
    failed = [p.communicate(timeout=180)[1][-300:] for p in procs if p.wait(timeout=180) != 0]
    expected = {f"{p}-{i}": "y" * 5000 + f" {p}" for p in range(4) for i in range(40)}
    problems = failed + torn_rows(tmp_path, expected)
    if locks:
        assert problems == []
    else:  # the same writers without the locks: rows are torn, so the check above can fail
        assert failed == [] and problems != []
