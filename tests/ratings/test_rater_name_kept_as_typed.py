"""Rater names stored as typed ("What people type stays theirs").

The rater's name is remembered in the browser from what saving a rating returns. That was the
row as written, escaped for spreadsheets: a name starting with ``=``, ``+``, ``-`` or ``@`` got
a leading ``'``, so "=Dr" came back as "'=Dr", then "''=Dr": one person, counted as a second
rater on the Trust page. The name is remembered as typed; only the cell on disk is escaped.
"""

from __future__ import annotations

import dataclasses

import pytest

from core.ratings import RATINGS_FILE_NAME, RatingLog
from pages.widgets.rating import save_rating
from studies.ratings import per_reply, ratings_note

RID = "human/x"
SHOWN = {
    "replies": {RID: {"text": "That sounds so hard. I'm here.", "message": "I feel alone."}},
    "scores": {RID: [{"scorer_id": "bert-head", "overall": 2.0}]},
}


@pytest.fixture
def log_dir(tmp_path, monkeypatch):
    from core import flags as log_folder  # the ratings log lives in the flag folder

    monkeypatch.setattr(
        log_folder, "SETTINGS", dataclasses.replace(log_folder.SETTINGS, flag_dir=tmp_path)
    )
    return tmp_path


def rate(name: str, levels: tuple[int, int, int] = (2, 3, 2)) -> tuple[str, str]:
    return save_rating(SHOWN, RID, name, *levels, "yes", "", "", False)


@pytest.mark.parametrize("typed", ["=Dr", "+AB", "-cd", "@ef"])
def test_a_name_a_spreadsheet_would_run_is_remembered_and_read_back_as_typed(log_dir, typed):
    status, remembered = rate(typed)
    assert remembered == typed, "the browser keeps the name as typed"
    assert status.startswith(f"Saved: {typed} rated it"), status
    # The page's next save sends the remembered name: still the same person.
    status, again = rate(remembered, (1, 1, 1))
    assert again == typed, again
    table = RatingLog().table()
    assert table.rater.tolist() == [typed, typed]
    raw = (log_dir / RATINGS_FILE_NAME).read_text(encoding="utf-8")
    assert f",'{typed}," in raw and f"''{typed}" not in raw  # escaped once, on disk only


def test_two_saves_by_the_same_name_are_one_rater_on_the_trust_page(log_dir):
    remembered = "=Dr"
    for levels in ((2, 3, 2), (3, 3, 3)):
        _, remembered = rate(remembered, levels)
    table = RatingLog().table()
    assert table.rater.nunique() == 1
    assert "1 rater," in ratings_note(table), ratings_note(table)
    assert per_reply(table).n_raters.tolist() == [1]  # one person rated it twice: latest counts
    assert per_reply(table).cognitive.tolist() == [3]
