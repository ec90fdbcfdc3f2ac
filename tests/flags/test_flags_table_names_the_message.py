"""Cold-walk finding: the Flags table did not say which message a flagged reply answered.
The table shows it cut short; the download keeps the whole message."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from core import flags as flagging
from core.csvlog import read_log
from core.flags import FIELDS, FlagLog, FlagRecord
from pages import flags as flags_page

MESSAGE = (
    "Lately I keep thinking everyone would be better off without me. I haven't told anyone, "
    "not even my sister, and I don't know why I'm writing this here."
)


@pytest.fixture
def flag_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(
        flagging, "SETTINGS", dataclasses.replace(flagging.SETTINGS, flag_dir=tmp_path)
    )
    FlagLog(tmp_path).append(FlagRecord(page="compare", message=MESSAGE, reply="Cheer up!"))
    return tmp_path


def test_the_table_names_the_message_the_flagged_reply_answered(flag_dir: Path):
    view, _ = flags_page.latest_rows(20)
    row = dict(zip(flags_page.VIEW_HEADERS, view[0], strict=True))
    shown = row["Message"]
    assert shown.startswith("Lately I keep thinking everyone would be better off without me.")
    assert shown.endswith("…") and len(shown) <= 80
    assert row["Reply"] == "Cheer up!"


def test_the_download_keeps_the_whole_message(flag_dir: Path):
    _rows, _status, copy, _stamp = flags_page.show_log(20)
    assert copy is not None
    assert read_log(Path(copy), FIELDS)[0]["message"] == MESSAGE


def test_a_short_message_is_shown_whole_on_one_line():
    assert flags_page.short_message("I can't sleep.\n\nSince May.") == "I can't sleep. Since May."
