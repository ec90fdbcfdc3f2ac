"""Cold walk (Vote page, points 1-3): the Results tab's round code follows the round opened by
a link (``?round=CODE``) or just made; how the votes are counted is told in the page, in plain
words (no bare repository path); the ranking and agreement tables are HTML tables that a phone
shows one row a block (each figure named), so nothing needs a sideways swipe. The browser
checks are in ``tests/vote/test_vote_results_round_code_and_tables_browser.py``.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from studies.votes.log import cast_vote
from studies.votes.rounds import Entry, VoteRound, create_round

RESULTS_LABEL = "Round code (blank = every round)"


def a_round(vote_folder: Path) -> VoteRound:
    entries = [
        Entry("human/counselchat", "Grief often shows up at night."),
        Entry("teacher/a <b>$bold</b> one", "Melatonin."),
    ]
    return create_round("I can't sleep since my dad died.", entries, folder=vote_folder)


def component_id(page: object, label: str) -> int:
    (found,) = [c["id"] for c in page.config["components"] if c["props"].get("label") == label]
    return found


def test_the_round_in_the_address_becomes_the_open_round(vote_folder):
    from pages import vote

    rnd = a_round(vote_folder)
    request = SimpleNamespace(query_params={"round": rnd.code.lower()})
    code_box, _voter, current, *_ = vote.on_load("", request)
    assert code_box == rnd.code and current == rnd.code


def test_the_open_round_fills_the_results_box():
    """Opening (link or Open button) and making a round set the open round; its change fills
    the Results tab's box."""
    from pages import vote

    page = vote.build()
    results_box = component_id(page, RESULTS_LABEL)
    deps = page.config["dependencies"]
    filling = [d for d in deps if results_box in d["outputs"]]
    assert [t[1] for d in filling for t in d["targets"]] == ["change"], filling
    (state,) = {t[0] for d in filling for t in d["targets"]}
    setters = {t[1] for d in deps if state in d["outputs"] for t in d["targets"]}
    assert {"load", "click"} <= setters  # the link on load, the Open and Make buttons


def test_how_the_votes_are_counted_is_told_in_the_page():
    from pages import vote
    from pages.widgets.vote_results import HOW_COUNTED

    page = vote.build()
    components = page.config["components"]
    texts = [str(c["props"].get("value") or "") for c in components]
    assert not any("Details: docs/votes.md" in t for t in texts)
    (fold,) = [c for c in components if c["props"].get("label") == "How the votes are counted"]
    assert fold["type"] == "accordion" and HOW_COUNTED in texts
    words, note = HOW_COUNTED.split("<small>")
    assert "docs/" not in words  # the repository path only in the note for people who run it
    assert "For people who run the code" in note and "docs/votes.md" in note
    sentences = [s for s in words.replace("\n", " ").split(". ") if s.strip()]
    assert 3 <= len(sentences) <= 6, sentences
    for said in ("most", "least", "strength", "0 is average", "95% interval", "overlap"):
        assert said in words, said


def test_the_results_tables_name_each_figure_for_a_phone(vote_folder):
    from pages.widgets.vote_results import results

    rnd = a_round(vote_folder)
    cast_vote(rnd, "voter-1", "A", "B", folder=vote_folder)
    _chart, ranking, agreement, status, _path = results(rnd.code)
    assert "2 sources" in status
    assert ranking.startswith("<table>") and agreement == ""  # no scorer saved: no rows
    for header in ("strength", "95% interval", "most", "least", "shown"):
        assert f'<td class="figure" data-label="{header}">' in ranking, header
    assert '<td class="lead">1</td><td class="lead lead-end">' in ranking  # rank, then name
    assert "&lt;b&gt;&#36;bold&lt;/b&gt;" in ranking  # a teacher's label stays text
    assert "<b>" not in ranking


def test_no_votes_show_empty_tables(vote_folder):
    from pages.widgets.vote_results import results

    _chart, ranking, agreement, status, path = results("ZZZZ")
    assert (ranking, agreement, path) == ("", "", None) and status == "No votes yet for round ZZZZ."


def test_a_teachers_label_is_shown_as_typed_on_the_chart_not_read_as_markup():
    """Helper's note: Plotly drew a teacher's reply label "<b>warm</b>" in bold (it reads
    tags, links among them); the chart's names are escaped."""
    from reports.votes import shares_chart
    from studies.votes.tally import SourceResult

    fields = SourceResult.__dataclass_fields__
    values = {name: 0 for name in fields} | {"source": "teacher/<b>warm</b> <a href='x'>one</a>"}
    fig = shares_chart([SourceResult(**values)])
    shown = " ".join(str(t) for t in fig.layout.yaxis.ticktext)
    assert "<b>" not in shown and "<a " not in shown and "&lt;b&gt;warm" in shown
