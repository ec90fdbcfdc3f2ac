"""Stop, then Run again at once, through the page's handler: refused while the stopped run
writes what it finished; afterwards every row is asked and stored exactly once."""

from __future__ import annotations

import re
import threading
import time
from collections import Counter

import pytest

from pages.widgets.visitor import ensure_visitor, visitor_folder
from responders import registry
from studies.batch.plan import row_key
from studies.batch.store import RunFolder
from tests.conftest import ScriptedResponder, one_at_a_time


@pytest.fixture
def slow(monkeypatch: pytest.MonkeyPatch, tmp_path):  # type: ignore[no-untyped-def]
    """A scripted responder offered as ``scripted/slow``: 0.4 s a reply, one at a time (like
    the local model); runs under tmp_path."""
    from pages import batch

    responder = ScriptedResponder("slow", ["I hear ", "you."], pause_s=0.2)
    monkeypatch.setitem(registry.RESPONDERS._factories, "scripted", lambda model: responder)
    monkeypatch.setitem(registry._CACHE, "scripted/slow", responder)
    monkeypatch.setattr(batch, "RUNS_DIR", tmp_path)
    one_at_a_time(monkeypatch, "scripted")
    return responder


#: The slow one blocks the plan's order while the therapists' answers finish at once: the rows
#: that finished behind it must still be written when Stop leaves a gap before them.
RESPONDERS = ["scripted/slow", "human/counselchat"]
#: The browser that presses the buttons (its id, as the page's storage holds it).
VISITOR = ensure_visitor(None)


def press_run(name: str = "twice") -> tuple:
    """The Run button: the handler as the page wires it (notice first, refusals kept there)."""
    from pages import batch
    from pages.widgets.notice import reports_problems

    return reports_problems(4)(batch.run_page)(
        4, 0, batch.BUNDLED, None, RESPONDERS, ["study"], [], 64, 1, name, VISITOR, "", "", "", ""
    )


def test_stop_then_run_at_once_on_the_page_never_asks_or_writes_a_row_twice(slow, tmp_path):
    from pages import batch

    first: list[tuple] = []
    worker = threading.Thread(target=lambda: first.append(press_run()))
    worker.start()
    deadline = time.monotonic() + 10
    while not slow.calls and time.monotonic() < deadline:
        time.sleep(0.02)
    assert slow.calls, "the first run never asked"
    refused = press_run()  # another tab presses Run while it runs: refused, and …
    assert refused[0].startswith("⚠️") and "still going" in refused[0]
    assert batch.stop_run("twice", VISITOR).startswith(
        "Stopping"
    )  # … Stop still reaches the first run
    again = press_run()  # Run again at once, as the Stopping line invites
    assert again[0].startswith("⚠️") and "still finishing" in again[0]
    worker.join(30)
    status, headline, *_ = first[0]
    assert status.startswith("**Stopped**") and "press Run to continue" in status
    kept = int(re.search(r"(\d+) of 8 replies kept", status).group(1))
    assert 2 <= headline["ok"].sum() == kept < 8  # the partial results stay on the page
    asked = len(slow.calls)
    stored = RunFolder(visitor_folder(tmp_path, VISITOR, "twice")).log().read()
    assert len(stored) == kept  # every finished reply was written, none lost on Stop
    assert sum(r["responder"] == "scripted/slow" for r in stored) == asked
    status, headline, *_ = press_run()
    assert f"**{8 - kept}** replies made" in status and f"**{kept}** already done" in status
    assert len(slow.calls) == 4  # nothing asked twice
    keys = [row_key(r) for r in RunFolder(visitor_folder(tmp_path, VISITOR, "twice")).log().read()]
    assert sorted(Counter(keys).values()) == [1] * 8  # nothing written twice
    assert "No run" in batch.stop_run("twice", VISITOR)


def test_a_folder_the_command_line_is_running_is_refused_on_the_page_and_the_cli(slow, tmp_path):
    """Another process holds the run folder (as ``cli.py batch`` does while it runs)."""
    import subprocess
    import sys

    import cli

    folder = visitor_folder(tmp_path, VISITOR, "twice")  # this visitor's run "twice"
    folder.mkdir(parents=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(folder / ".run.lock")], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        status, *_ = press_run()
        assert status.startswith("⚠️") and "The run twice is still going" in status
        args = ["batch", "--n", "2", "--responders", "human/counselchat", "--scorers", ""]
        assert cli.main([*args, "--output", str(folder)]) == 2
    finally:
        holder.kill()
        holder.wait()
    assert slow.calls == [] and not (folder / "results.csv").exists()
    assert press_run()[0].startswith("**")  # free again: it runs


HOLD = """
import sys, time
from filelock import FileLock
with FileLock(sys.argv[1]):
    print("held", flush=True)
    time.sleep(60)
"""
