"""The Vote page's Results tab: the share chart, the ranking, the scorers' agreement, the CSVs.

The tab only reads the vote log, calls :func:`studies.votes.tally.tally` and shows
what :mod:`reports.votes` makes of it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from html import escape
from pathlib import Path

import gradio as gr

from core.csvlog import CsvLogError, write_copy
from core.visitors import may_read_all, own_rows, voter_id
from pages.widgets.notice import notice_box, reports_problems
from pages.widgets.operator_box import for_operator, operator_box
from reports.votes import (
    AGREEMENT_HEADERS,
    RANKING_HEADERS,
    agreement_rows,
    ranking_rows,
    shares_chart,
    write_results,
)
from studies.votes.log import FIELDS, VoteLog
from studies.votes.rounds import list_rounds
from studies.votes.tally import SourceResult, tally

#: How the votes are counted, in plain words (folded under the ranking; the full method, with a
#: check on simulated votes, is in docs/votes.md for people who run the code).
HOW_COUNTED = (
    "Each vote names the most and the least empathetic of the replies a voter was shown. "
    "It is read as a set of small contests: the *most* reply beats every other reply shown, "
    "and each of those beats the *least* reply. A standard model for such contests (the "
    "Bradley–Terry model) turns all of them into one **strength** per source: 0 is average, "
    "higher means picked as most empathetic more often. The **95% interval** comes from "
    "re-drawing the voters at random many times: with few voters it is wide, and while two "
    'sources\' intervals overlap, the votes cannot tell them apart yet. A rank marked "=" '
    "is shared by sources of the same strength (to two decimals).\n\n"
    "<small>For people who run the code: the full method, checked on simulated votes, is in "
    "docs/votes.md in the project's source.</small>"
)
#: The tables' own style. On a wide screen a plain table; on a phone each row is a block: its
#: name on the first line, then each figure with its column's name, wrapped (no sideways swipe).
FITTING_TABLE_CSS = """
table { width: 100%; border-collapse: collapse; font-size: var(--text-md);
        color: var(--body-text-color); }
th, td { text-align: left; vertical-align: top; padding: 6px 10px;
         border: 1px solid var(--border-color-primary); }
th { font-weight: 600; background: var(--table-even-background-fill); }
@media (max-width: 640px) {
  thead { display: none; }
  tr { display: block; padding: 8px 0; border-bottom: 1px solid var(--border-color-primary); }
  td { display: inline; padding: 0; border: 0; }
  td.lead { font-weight: 600; }
  td.lead:not(.lead-end) { margin-right: 6px; }
  td.lead-end::after { content: ""; display: block; margin-bottom: 4px; }
  td.figure { display: inline-block; margin-right: 14px; }
  td.figure::before { content: attr(data-label) ": "; color: var(--body-text-color-subdued); }
}
"""


def fitting_table(headers: Sequence[str], rows: Sequence[Sequence[object]], lead: int = 1) -> str:
    """An HTML table for :data:`FITTING_TABLE_CSS`: the first ``lead`` columns name the row (its
    first line on a phone), each other cell carries its column's name for a phone to show.

    >>> html = fitting_table(["rank", "source", "strength"], [[1, "<b>A</b>", "+0.5"]], lead=2)
    >>> '<td class="lead lead-end">&lt;b&gt;A&lt;/b&gt;</td>' in html
    True
    >>> '<td class="figure" data-label="strength">+0.5</td>' in html
    True
    >>> fitting_table(["rank"], [])
    ''
    """
    if not rows:
        return ""

    def cell(text: object) -> str:  # "$" stays text in Gradio's HTML template
        return escape(str(text)).replace("$", "&#36;")

    head = "".join(f"<th>{cell(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = [
            f'<td class="lead{" lead-end" if i == lead - 1 else ""}">{cell(v)}</td>'
            if i < lead
            else f'<td class="figure" data-label="{cell(headers[i])}">{cell(v)}</td>'
            for i, v in enumerate(row)
        ]
        body.append(f"<tr>{''.join(cells)}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def results(code: str) -> list[object]:
    """Chart, ranking, agreement, a status line and the results CSV for one round or all."""
    code = (code or "").strip().upper() or None
    try:
        rows = VoteLog().read()
        found, agreement = tally(rows, {r.code: r for r in list_rounds()}, code, resamples=300)
    except (CsvLogError, ValueError) as exc:
        raise gr.Error(f"The votes could not be read: {exc}") from None
    if not found:
        return [
            shares_chart([]),
            "",
            "",
            f"No votes yet{' for round ' + code if code else ''}.",
            None,
        ]
    path = Path(tempfile.mkdtemp(prefix="vote-results-")) / "results.csv"
    write_results(found, path)
    status = (
        f"{len(found)} sources, each shown in {shown_in(found)}. Strength: higher = picked as "
        "most empathetic more often (0 = average). When two intervals overlap, the class "
        "cannot tell those two apart yet."
    )
    return [
        shares_chart(found),
        fitting_table(RANKING_HEADERS, ranking_rows(found), lead=2),
        fitting_table(AGREEMENT_HEADERS, agreement_rows(agreement)),
        status,
        str(path),
    ]


def shown_in(found: Sequence[SourceResult]) -> str:
    """In how many votes the sources were shown, in words: "1 vote", "4 votes", "2 to 5 votes".

    >>> from studies.votes.tally import SourceResult as S
    >>> [shown_in([S("a", 0, 0, 0, 0, 0, n, 0, 0) for n in ns]) for ns in ([1], [4, 4], [2, 5])]
    ['1 vote', '4 votes', '2 to 5 votes']
    """
    low, high = min(r.n for r in found), max(r.n for r in found)
    counted = f"{low} to {high}" if low != high else str(high)
    return f"{counted} {'vote' if high == 1 else 'votes'}"


#: The columns of a visitor's own votes: no voter id, not even their own.
OWN_FIELDS = tuple(f for f in FIELDS if f != "voter")


def votes_file(visitor: str | None = None) -> str | None:
    """The votes this browser may download (None when there are none): on a local run of one's
    own the whole log; on a public server only this visitor's own votes, with no voter id."""
    if may_read_all():
        return whole_vote_log()
    mine = own_rows(VoteLog().read(), voter_id(visitor), column="voter")
    if not mine:
        return None
    path = Path(tempfile.mkdtemp(prefix="my-votes-")) / "my-votes.csv"
    write_copy(path, OWN_FIELDS, mine)
    return str(path)


def whole_vote_log() -> str | None:
    """The vote log's path (None before the first vote)."""
    path = VoteLog().path
    return str(path) if path.exists() else None


def operator_votes(token: str) -> str | None:
    """The whole vote log for the operator's token (an empty box: nothing yet)."""
    return for_operator(token, whole_vote_log)


def table_box(elem_id: str) -> gr.HTML:
    """A box for a :func:`fitting_table` (empty until results are shown)."""
    return gr.HTML(
        "",
        elem_id=elem_id,
        css_template=FITTING_TABLE_CSS,
        js_on_load=None,
        apply_default_css=False,
    )


def results_tab(visitor: gr.BrowserState) -> gr.Textbox:
    """The Results tab and its events (``visitor``: this browser's id, whose own votes it
    downloads); returns its round-code box (the open round fills it)."""
    with gr.Tab("Results"):
        with gr.Row():
            results_code = gr.Textbox(label="Round code (blank = every round)", scale=3)
            refresh = gr.Button("Show results", scale=1)
        status = notice_box()
        chart = gr.Plot(label="Most and least empathetic, share of votes")
        ranking = table_box("vote-ranking")
        with gr.Accordion("How the votes are counted", open=False):
            gr.Markdown(HOW_COUNTED)
        gr.Markdown("How often each scorer's top (bottom) reply was the voter's most (least):")
        agreement = table_box("vote-agreement")
        with gr.Row():
            results_download = gr.DownloadButton("Download results (CSV)", value=None)
            votes_download = gr.DownloadButton("Download votes (CSV)")
        operator_box("Every vote (the operator)", "vote", whole_vote_log)
    refresh.click(
        reports_problems(4, at=3)(results),
        results_code,
        [chart, ranking, agreement, status, results_download],
        api_name="results",
    )
    refresh.click(votes_file, visitor, votes_download, api_name=False)
    return results_code
