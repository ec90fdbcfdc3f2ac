"""The Vote page's Results tab: the share chart, the ranking, the scorers' agreement, the CSVs.

The tab only reads the vote log, calls :func:`studies.votes.tally.tally` and shows
what :mod:`reports.votes` makes of it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import gradio as gr

from core.csvlog import CsvLogError
from pages.widgets.notice import notice_box, reports_problems, scroll_cue
from reports.votes import (
    AGREEMENT_HEADERS,
    RANKING_HEADERS,
    agreement_rows,
    ranking_rows,
    shares_chart,
    write_results,
)
from studies.votes.log import VoteLog
from studies.votes.rounds import list_rounds
from studies.votes.tally import SourceResult, tally

#: The ranking's technical name, in small print under the table (one look away, not in the way).
HOW_RANKED = (
    "<small>How the strength is computed: a Bradley–Terry model fitted to every most/least "
    "choice (the most empathetic pick beats every other reply shown, and each of those beats "
    "the least empathetic pick); the strength is its log-strength, centred on 0. The 95% interval "
    "is a bootstrap over voters: with few voters it is wide, and two replies whose intervals "
    "overlap are not told apart. (The full method is in the project's source, docs/votes.md.)"
    "</small>"
)


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
            [],
            [],
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
    return [shares_chart(found), ranking_rows(found), agreement_rows(agreement), status, str(path)]


def shown_in(found: Sequence[SourceResult]) -> str:
    """In how many votes the sources were shown, in words: "1 vote", "4 votes", "2 to 5 votes".

    >>> from studies.votes.tally import SourceResult as S
    >>> [shown_in([S("a", 0, 0, 0, 0, 0, n, 0, 0) for n in ns]) for ns in ([1], [4, 4], [2, 5])]
    ['1 vote', '4 votes', '2 to 5 votes']
    """
    low, high = min(r.n for r in found), max(r.n for r in found)
    counted = f"{low} to {high}" if low != high else str(high)
    return f"{counted} {'vote' if high == 1 else 'votes'}"


def votes_file() -> str | None:
    """The vote log for the download button (None before the first vote)."""
    path = VoteLog().path
    return str(path) if path.exists() else None


def results_tab() -> gr.Textbox:
    """The Results tab and its events; returns its round-code box (the open round fills it)."""
    with gr.Tab("Results"):
        with gr.Row():
            results_code = gr.Textbox(label="Round code (blank = every round)", scale=3)
            refresh = gr.Button("Show results", scale=1)
        status = notice_box()
        chart = gr.Plot(label="Most and least empathetic, share of votes")
        scroll_cue()
        ranking = gr.Dataframe(headers=RANKING_HEADERS, interactive=False, wrap=True)
        gr.Markdown(HOW_RANKED)
        gr.Markdown("How often each scorer's top (bottom) reply was the voter's most (least):")
        agreement = gr.Dataframe(headers=AGREEMENT_HEADERS, interactive=False)
        with gr.Row():
            results_download = gr.DownloadButton("Download results (CSV)", value=None)
            votes_download = gr.DownloadButton("Download votes (CSV)", value=votes_file)
    refresh.click(
        reports_problems(4, at=3)(results),
        results_code,
        [chart, ranking, agreement, status, results_download],
        api_name="results",
    )
    refresh.click(votes_file, None, votes_download, api_name=False)
    return results_code
