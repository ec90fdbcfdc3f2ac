"""On a public server the shared logs (flags, votes, ratings) are the operator's: a visitor
reads and downloads their own rows only, the whole log needs the operator's token, and a
voter is whoever the server says, never a name the request gives.

A local, single-user run (no token, not public) keeps every download, as before.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import gradio as gr
import pytest

import config
from core.flags import FlagLog, FlagRecord
from core.ratings import RatingLog, RatingRecord, ratings_of
from core.visitors import ensure_visitor, owner_tag, reader_of, voter_id
from studies.votes.log import VoteLog
from studies.votes.rounds import Entry, create_round

TOKEN = "operator-token-4471"
#: What visitor A types: a name, a street address, a phone number and a disclosure.
A_MESSAGE = "I'm Jane Roe, 12 Elm Street, 555-0100. I feel hopeless and can't sleep."
A_NOTE = "a note only A wrote"


@pytest.fixture
def public(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A public server with an operator token (visitors' rows kept apart)."""
    settings = dataclasses.replace(config.SETTINGS, public=True, admin_token=TOKEN)
    monkeypatch.setattr(config, "SETTINGS", settings)
    yield


@pytest.fixture
def logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Empty flag, ratings and vote logs in a temporary folder."""
    from core import flags as flags_module
    from studies.votes import rounds as votes_module

    for module in (flags_module, votes_module):
        replaced = dataclasses.replace(module.SETTINGS, flag_dir=tmp_path, votes_dir=tmp_path)
        monkeypatch.setattr(module, "SETTINGS", replaced)
    return tmp_path


def a_flag(visitor: str) -> None:
    record = FlagRecord("compare", A_MESSAGE, "I'm here.", note=A_NOTE, visitor=owner_tag(visitor))
    FlagLog().append(record)


def test_a_visitor_sees_and_downloads_only_their_own_flags(public, logs):
    from pages import flags

    a, b = ensure_visitor(None), ensure_visitor(None)
    a_flag(a)
    view, status, copy, _ = flags.show_log(20, b)
    assert view == [] and copy is None and "0 flagged case(s) of yours" in status
    view, status, copy, _ = flags.show_log(20, a)
    assert len(view) == 1 and "Jane Roe" in view[0][5]
    text = Path(copy).read_text(encoding="utf-8")
    assert A_NOTE in text and Path(copy).name == "my-flags.csv"
    # No id, or one the server never issued: nobody's flags.
    for nobody in (None, "", "made-up-id-000000000000000000"):
        assert flags.show_log(20, nobody)[0] == []


def test_the_whole_flag_log_needs_the_operators_token(public, logs):
    from pages import flags

    a_flag(ensure_visitor(None))
    assert flags.operator_copy("") is None  # an empty box: nothing yet, no error
    with pytest.raises(gr.Error, match="not this server's operator token"):
        flags.operator_copy("a-guess")
    assert A_MESSAGE in Path(flags.operator_copy(TOKEN)).read_text(encoding="utf-8")


def test_a_local_run_of_ones_own_keeps_every_download(logs):
    from pages import flags

    assert not config.SETTINGS.admin_token and not config.SETTINGS.public
    a_flag(ensure_visitor(None))
    view, _status, copy, _ = flags.show_log(20, None)
    assert len(view) == 1 and A_NOTE in Path(copy).read_text(encoding="utf-8")


def test_a_voter_is_the_servers_never_a_name_the_request_gives(public, logs):
    from pages import vote

    rnd = create_round("m", [Entry("a/x", "one"), Entry("b/y", "two")], seed=1, folder=logs)
    for made_up in ("stuffer-0", "stuffer-1", None):
        with pytest.raises(gr.Error, match="no visitor id"):
            vote.vote(rnd.code, made_up, "A", "B", "")
    a = ensure_visitor(None)
    vote.vote(rnd.code, a, "A", "B", "kind")
    again = vote.vote(rnd.code, a, "B", "A", "")  # the same browser again: its first vote stands
    assert "first vote stands" in again
    rows = VoteLog(logs).read()
    assert len(rows) == 1 and rows[0]["voter"] == voter_id(a) and a not in rows[0]["voter"]


def test_a_visitor_downloads_their_own_votes_without_voter_ids(public, logs):
    from pages.widgets import vote_results

    rnd = create_round("m", [Entry("a/x", "one"), Entry("b/y", "two")], seed=1, folder=logs)
    a, b = ensure_visitor(None), ensure_visitor(None)
    from studies.votes.log import cast_vote

    cast_vote(rnd, voter_id(a), "A", "B", "A's private reason", folder=logs)
    cast_vote(rnd, voter_id(b), "B", "A", "B's reason", folder=logs)
    mine = Path(vote_results.votes_file(a)).read_text(encoding="utf-8")
    assert "A's private reason" in mine and "B's reason" not in mine
    assert "voter" not in mine.splitlines()[0] and voter_id(a) not in mine
    assert vote_results.votes_file(ensure_visitor(None)) is None  # a stranger: nothing
    with pytest.raises(gr.Error):
        vote_results.operator_votes("a-guess")
    every = Path(vote_results.operator_votes(TOKEN)).read_text(encoding="utf-8")
    assert "A's private reason" in every and "B's reason" in every


def test_ratings_made_here_are_each_visitors_own(public, logs):
    from studies.labelled import load_bundled

    a, b = ensure_visitor(None), ensure_visitor(None)
    for reply in ("one reply", "another reply"):
        RatingLog().append(RatingRecord("compare", "A", A_MESSAGE, reply, 2, 2, 2,
                                        visitor=owner_tag(a)))  # fmt: skip
    with ratings_of(reader_of(b)), pytest.raises(ValueError, match="No ratings made here"):
        load_bundled("ratings-here")
    with ratings_of(reader_of(a)):
        assert [i.message for i in load_bundled("ratings-here").items] == [A_MESSAGE] * 2
    with ratings_of(reader_of(b, TOKEN)):  # the operator reads every rating
        assert len(load_bundled("ratings-here").items) == 2


def test_a_log_an_earlier_version_wrote_gains_the_owner_column(tmp_path):
    """A flag log written before flags had owners is read, and widened on the next flag."""
    from core.flags import FIELDS

    old = tmp_path / "flags.csv"
    old.write_text(",".join(FIELDS[:-1]) + "\r\n" + ",".join(["x"] * (len(FIELDS) - 1)) + "\r\n")
    log = FlagLog(tmp_path)
    assert log.read()[0]["visitor"] == "" and log.read()[0]["note"] == "x"
    log.append(FlagRecord("compare", "m", "r", visitor="tag"))
    assert [r["visitor"] for r in log.read()] == ["", "tag"]
    assert old.read_text().splitlines()[0].endswith(",visitor")
