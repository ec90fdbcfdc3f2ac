"""Cold-walk finding: the vote chart and the ranking table listed the replies in different
orders, and two tied replies were ranked 2 and 3."""

from __future__ import annotations

from reports.votes import ranking_rows, shares_chart
from studies.votes.tally import SourceResult


def _result(source: str, score: float, most: float, least: float) -> SourceResult:
    return SourceResult(source, score, -1.0, 1.0, most, least, 10, int(10 * most), int(10 * least))


#: The strengths and the shares disagree on the order (the chart sorted by shares).
RESULTS = [
    _result("teacher/alpha", 0.9, 0.1, 0.0),
    _result("teacher/beta", 0.2, 0.6, 0.1),
    _result("teacher/gamma", 0.2, 0.5, 0.3),
    _result("teacher/delta", -0.8, 0.3, 0.6),
]


def test_the_chart_lists_the_replies_top_to_bottom_as_the_table_does():
    table = [row[1] for row in ranking_rows(RESULTS)]
    fig = shares_chart(RESULTS)
    top_to_bottom = [t.replace("<br>", " ") for t in fig.layout.yaxis.ticktext][::-1]
    assert table == top_to_bottom
    assert table[0] == "Teacher's reply: alpha"  # best first, by strength


def test_the_table_is_best_first_whatever_order_it_is_given():
    table = [row[1] for row in ranking_rows(RESULTS[::-1])]
    assert table == [row[1] for row in ranking_rows(RESULTS)]


def test_a_tie_shares_its_rank():
    ranks = [row[0] for row in ranking_rows(RESULTS)]
    assert ranks == ["1", "2=", "2=", "4"]
