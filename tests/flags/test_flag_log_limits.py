"""The flag log on a shared server (issue 29, issue 30 point 1).

Every open Flags tab asks for the log every 5 s: an unchanged log is read
(parsed) once, and a tick sends nothing. The log grows to at most the
operator's ``EMPATHY_LAB_MAX_FLAG_LOG_MB``: a flag that would pass it is
refused with a clear message and nothing is written. The download is a copy
of the log made with the table, so it holds every flag the table shows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import gradio as gr
import pytest

import config
from core import csvlog
from core import flags as flagging
from core.flags import FIELDS, FlagLog, FlagLogError, FlagRecord


def record(note: str) -> FlagRecord:
    return FlagRecord(page="compare", message="I feel alone.", reply="I'm here.", note=note)


@pytest.fixture
def flag_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(
        flagging, "SETTINGS", dataclasses.replace(flagging.SETTINGS, flag_dir=tmp_path)
    )
    return tmp_path


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """Every time a log file is parsed."""
    seen: list[Path] = []
    real = csvlog.read_log

    def counting(path, fields=None):  # type: ignore[no-untyped-def]
        seen.append(path)
        return real(path, fields)

    monkeypatch.setattr(csvlog, "read_log", counting)
    yield seen


def test_an_unchanged_log_is_read_once(flag_dir, reads):
    from pages import flags as page

    FlagLog().append(record("first"))
    table, status, _copy, shown = page.show_log(20)
    assert "1 flagged case(s)" in status and len(reads) == 1
    assert page.on_tick(20, shown) == (gr.skip(),) * 4  # two ticks, no change: nothing sent
    assert page.on_tick(20, shown) == (gr.skip(),) * 4
    page.latest_rows(20)  # another tab, or Refresh: the kept rows
    assert len(reads) == 1
    FlagLog().append(record("second"))
    table, status, _copy, newer = page.on_tick(20, shown)
    assert newer != shown and "2 flagged case(s)" in status and len(reads) == 2
    assert [row[4] for row in table] == ["second", "first"]
    rows = FlagLog().read()
    rows[0]["note"] = "changed by a caller"  # a caller's change never reaches the kept rows
    assert FlagLog().read()[0]["note"] == "first"


def test_an_append_past_the_cap_is_refused_and_nothing_is_written(flag_dir):
    log = FlagLog()
    log.append(record("fits"))
    size = log.path.stat().st_size
    full = FlagLog(max_bytes=size + 150)
    with pytest.raises(FlagLogError) as caught:
        full.append(record("x" * 200))
    message = str(caught.value)
    assert message.startswith("the flag log is full") and "nothing was written" in message
    assert str(flag_dir) not in message
    assert log.path.stat().st_size == size and [r["note"] for r in log.read()] == ["fits"]
    full.append(record("y"))  # a short one still fits


def test_the_cap_is_the_operators_setting(flag_dir, monkeypatch):
    assert config.Settings.from_env({}).max_flag_log_bytes == 50 * 2**20
    assert config.Settings.from_env({"EMPATHY_LAB_MAX_FLAG_LOG_MB": "3"}).max_flag_log_bytes == (
        3 * 2**20
    )
    assert FlagLog().max_bytes == config.SETTINGS.max_flag_log_bytes
    from pages.widgets.flag_reply import flag_shown_reply

    tiny = dataclasses.replace(flagging.SETTINGS, max_flag_log_bytes=500)
    monkeypatch.setattr(flagging, "SETTINGS", tiny)
    state = {"replies": {"human/counselchat": {"text": "I hear you.", "message": "m"}}}
    with pytest.raises(gr.Error, match="the flag log is full"):  # what the Compare page says
        flag_shown_reply("human/counselchat", state, "a note " * 100)
    assert not (flag_dir / "flags.csv").exists()


def test_the_download_holds_the_log_as_the_table_shows_it(flag_dir):
    from pages import flags as page

    assert page.show_log(20)[2] is None  # no log yet: nothing to download
    FlagLog().append(record("first"))
    _table, _status, copy, shown = page.show_log(20)
    assert [r["note"] for r in csvlog.read_log(Path(copy), FIELDS)] == ["first"]
    FlagLog().append(record("second"))
    _table, _status, newer, _ = page.on_tick(20, shown)
    assert [r["note"] for r in csvlog.read_log(Path(newer), FIELDS)] == ["first", "second"]
    assert [r["note"] for r in csvlog.read_log(Path(copy), FIELDS)] == ["first"]  # kept as given
    assert Path(newer).name == "flags.csv"
