"""A batch's report: charts and one self-contained ``report.html`` (plots embedded, no network).

:func:`write_report` reads a run folder and writes ``report.html`` (plotly.js
inlined once, so it opens offline), ``summary.csv`` (mean and 95% interval
per arm and component) and ``tests.csv`` (paired tests, Holm-corrected).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go

from core.numbers import p_value, with_interval
from core.tables import write_table
from reports.batch_charts import (
    bars,
    distribution,
    radar,
    responder_name,
    scorer_name,
    strategy_name,
)
from studies.batch import summary as bs
from studies.batch.store import RunFolder


@dataclass(frozen=True)
class BatchReport:
    """What the report holds, for pages and the command line."""

    headline: pd.DataFrame
    summary: pd.DataFrame
    tests: pd.DataFrame
    failures: pd.DataFrame
    figures: list[go.Figure]
    path: Path


def readable_headline(table: pd.DataFrame) -> pd.DataFrame:
    """The headline with people's names for responders, strategies and scorers."""
    out = table.copy()
    out["responder"] = out["responder"].map(responder_name)
    out["strategy"] = out["strategy"].map(strategy_name)
    overall = {
        c: scorer_name(c.removesuffix(" overall")) + ": overall"
        for c in out.columns
        if c.endswith(" overall")
    }
    return out.rename(columns=overall)


#: Pixels Plotly's toolbar (the modebar) takes over a chart: a title starts below it, so
#: the toolbar never covers it, on a phone neither (there it spans the title's width).
TOOLBAR_PX = 32


def below_toolbar(fig: go.Figure) -> go.Figure:
    """``fig`` with its title and plot moved down by the toolbar's height, the plot's own
    height kept (the figure grows by as much).

    >>> fig = below_toolbar(go.Figure(layout={"height": 400, "margin": {"t": 90}}))
    >>> fig.layout.title.pad.t, fig.layout.margin.t, fig.layout.height
    (32, 122, 432)
    """
    fig.update_layout(
        title_pad_t=(fig.layout.title.pad.t or 0) + TOOLBAR_PX,
        margin_t=(fig.layout.margin.t or 0) + TOOLBAR_PX,
        height=(fig.layout.height or 450) + TOOLBAR_PX,
    )
    return fig


def build_report(folder: str | Path) -> BatchReport:
    """Read the run and compute everything the report shows (nothing is written)."""
    run = RunFolder(folder)
    df, columns = bs.load_results(folder)
    scorers = list(run.plan()[1].scorers)
    summary = bs.arm_summary(df, columns)
    figures: list[go.Figure] = []
    for scorer in scorers:
        figures += [radar(summary, scorer), bars(summary, scorer)]
        if f"{scorer}/overall" in df:
            figures.append(distribution(df, f"{scorer}/overall"))
    return BatchReport(
        bs.headline(df, summary),
        summary,
        bs.paired_tests(df, columns),
        bs.failures(df, scorers),
        [below_toolbar(fig) for fig in figures],
        Path(folder) / "report.html",
    )


def _arm_name(arm: str) -> str:
    """An arm ("responder · strategy" ids) in people's names."""
    responder, _, strategy = arm.partition(" · ")
    return f"{responder_name(responder)} · {strategy_name(strategy)}"


def _intervals(frame: pd.DataFrame, value: str, low: str, high: str) -> list[str]:
    """Each row's ``value`` with its interval, as ``2.10 [1.90, 2.30]``."""
    rows = zip(frame[value], frame[low], frame[high], strict=True)
    return [with_interval(*row) for row in rows]


def readable_tests(tests: pd.DataFrame) -> pd.DataFrame:
    """The differences between arms as the report shows them: readable column names and
    plain values ("yes"/"no", p-values as "< 0.001"); ``tests.csv`` keeps the raw ones."""
    if tests.empty:
        return tests
    table = pd.DataFrame(
        {
            "scorer": tests["scorer"].map(scorer_name),
            "component": tests["component"],
            "arm A": tests["arm_a"].map(_arm_name),
            "arm B": tests["arm_b"].map(_arm_name),
            "questions": tests["n_questions"],
            "A − B, mean [95% interval]": _intervals(
                tests, "mean_difference", "diff_low", "diff_high"
            ),
            "Cohen's d": tests["cohens_d"].round(2),
            "Wasserstein": tests["wasserstein"].round(2),
            "p": tests["p"].map(p_value),
            "p, Holm-corrected": tests["p_holm"].map(p_value),
            "differ (Holm p < 0.05)": tests["significant"].map(lambda s: "yes" if s else "no"),
            "note": tests["note"],
        }
    )
    noted = table["note"].fillna("").astype(str).str.strip().ne("").any()
    return table if noted else table.drop(columns="note")


def readable_summary(summary: pd.DataFrame) -> pd.DataFrame:
    """The mean per arm and component in readable names ("mean [95% interval]")."""
    if summary.empty:
        return summary
    return pd.DataFrame(
        {
            "responder": summary["responder"].map(responder_name),
            "strategy": summary["strategy"].map(strategy_name),
            "scorer": summary["scorer"].map(scorer_name),
            "component": summary["component"],
            "replies scored": summary["n"],
            "mean [95% interval]": _intervals(summary, "mean", "ci_low", "ci_high"),
        }
    )


def readable_failures(failures: pd.DataFrame) -> pd.DataFrame:
    """Failed replies and unscored ones, per arm, in readable names."""
    if failures.empty:
        return failures
    stage = failures["stage"].map(
        lambda s: "the reply" if s == "reply" else f"scoring ({scorer_name(s)})"
    )
    return pd.DataFrame(
        {
            "responder": failures["responder"].map(responder_name),
            "strategy": failures["strategy"].map(strategy_name),
            "what failed": stage,
            "reason": failures["reason"],
            "replies": failures["rows"],
        }
    )


def _table(df: pd.DataFrame, empty: str) -> str:
    """A table that scrolls sideways in its own box, under a cue the page shows whenever
    the table is wider than the box (:data:`SHOW_CUES`); a header may break after "_"."""
    if df.empty:
        return f"<p>{html.escape(empty)}</p>"
    table = df.to_html(index=False, float_format=lambda v: f"{v:.3g}", na_rep="–", escape=True)
    table = re.sub(r"<th>([^<]*)</th>", lambda m: f"<th>{m[1].replace('_', '_<wbr>')}</th>", table)
    cue = "<p class='cue'>Wider than this screen: swipe the table sideways →</p>"
    return f"{cue}<div class='wide'>{table}</div>"


def _settings_html(run: RunFolder) -> str:
    questions, s = run.plan()
    items = {
        "questions": len(questions),
        "responders": ", ".join(s.responders),
        "strategies": ", ".join(s.strategies),
        "scorers": ", ".join(s.scorers) or "none",
        "samples per question": s.samples,
        "max tokens": s.max_tokens,
        "temperature": s.temperature,
    }
    rows = "".join(f"<li>{k}: {html.escape(str(v))}</li>" for k, v in items.items())
    return f"<ul>{rows}</ul>"


STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
    "table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ccc;padding:.3em .5em}"
    "th{text-align:left;vertical-align:bottom}"
    ".wide{overflow-x:auto}.cue{display:none;color:#555;font-size:.9em}.cue.shown{display:block}"
)
#: Shows a table's "swipe sideways" cue whenever the table is wider than its box, at any
#: screen width (a wide table at 1280 px hid its last columns with no word about it).
SHOW_CUES = (
    "<script>function showCues(){document.querySelectorAll('.wide').forEach(function(w){"
    "w.previousElementSibling.classList.toggle('shown',w.scrollWidth>w.clientWidth+1)})}"
    "addEventListener('load',showCues);addEventListener('resize',showCues)</script>"
)
READING = (
    "Each **arm** is one responder with one prompt strategy. Scores are on the counselling "
    "rubric (1 = low, 3 = high). Automatic scorers are imperfect: see each scorer's card."
)
#: The numbers the report shows, in plain words (the page shows the same list).
TERMS: tuple[tuple[str, str], ...] = (
    (
        "mean [95% interval]",
        "An arm's average score, and the range its true average most likely lies in "
        "(a Student-t interval). Few questions give a wide range; arms whose ranges "
        "overlap may not really differ.",
    ),
    (
        "A − B, mean [95% interval]",
        "How many scale points arm A scored above arm B on the same questions (negative: "
        "below). The range is a 95% bootstrap interval: the questions are drawn again at "
        "random 2,000 times and the difference worked out each time; the middle 95% of "
        "those results is the range. If it holds 0, the data cannot tell which arm is higher.",
    ),
    (
        "Cohen's d",
        "The same difference measured against how much it changes from question to "
        "question (paired Cohen's d). Roughly: 0.2 small, 0.5 medium, 0.8 or more large. "
        "It says how big a difference is, not whether it is real.",
    ),
    (
        "Wasserstein",
        "How far apart the two arms' spreads of scores are, in scale points: the least "
        "score that would have to move to turn one set into the other. 0 means the same "
        "spread; unlike the mean it also notices when one arm is more uneven (the "
        "Wasserstein or earth mover's distance).",
    ),
    (
        "p, p Holm-corrected, differ",
        "p is how surprising a difference this large would be if both arms were truly "
        "equal (Wilcoxon signed-rank test on the questions both answered); below 0.05 is "
        "called surprising. With many comparisons some look surprising by luck, so the "
        "Holm-corrected p corrects for the number of tests, and 'differ' says yes when it is "
        "below 0.05. A small p says nothing about how big the difference is: read it with d.",
    ),
)


def terms_markdown() -> str:
    """The reading guide as Markdown, for the page."""
    items = "\n".join(f"- **{term}**: {text}" for term, text in TERMS)
    return f"{READING}\n\n{items}"


def _reading_html() -> str:
    bold = html.escape(READING).replace("**arm**", "<b>arm</b>")
    items = "".join(
        f"<li><b>{html.escape(term)}</b>: {html.escape(text)}</li>" for term, text in TERMS
    )
    return f"<p>{bold}</p><ul>{items}</ul>"


def write_report(folder: str | Path) -> BatchReport:
    """Write ``report.html``, ``summary.csv`` and ``tests.csv`` into the run folder."""
    report = build_report(folder)
    run = RunFolder(folder)
    plots = [
        fig.to_html(full_html=False, include_plotlyjs="inline" if i == 0 else False)
        for i, fig in enumerate(report.figures)
    ]
    body = [
        f"<h1>Batch report: {html.escape(Path(folder).name)}</h1>",
        "<h2>How to read this report</h2>",
        _reading_html(),
        "<h2>Settings</h2>",
        _settings_html(run),
        "<h2>Headline</h2>",
        _table(readable_headline(report.headline), "no rows yet"),
        "<h2>Charts</h2>",
        *plots,
        "<h2>Differences between arms</h2>",
        _table(readable_tests(report.tests), "fewer than two arms: nothing to compare"),
        "<h2>Failures and unscored replies</h2>",
        _table(readable_failures(report.failures), "none: every reply came back and was scored"),
        "<h2>Mean and 95% interval per component</h2>",
        _table(readable_summary(report.summary), "no scores"),
    ]
    page = (
        "<!doctype html><html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width,initial-scale=1'><title>Batch report</title>"
        f"<style>{STYLE}</style></head><body>{''.join(body)}{SHOW_CUES}</body></html>"
    )
    report.path.write_text(page, encoding="utf-8")
    for name, frame in (("summary.csv", report.summary), ("tests.csv", report.tests)):
        write_table(Path(folder) / name, frame.to_dict("records"), list(frame.columns))
    return report
