"""HTML and charts for the Adversarial lab: the study-style table and the change chart.

>>> print(diff_html("I hear you, truly", "I h3ar you, truly"))
I <del style='color:#b00'>hear</del><mark>h3ar</mark> you, truly
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable

import plotly.graph_objects as go

from core.numbers import fmt
from reports.colors import color_for
from reports.lab_diff import diff_html
from reports.layout import legend_below, lines_of, wrap
from scorers.base import Score
from studies import robustness as rb

Names = Callable[[str], str]


#: A change's scores and its text, below them, read as one block: no line between the two.
TABLE_CSS = (
    ".lab-table { width: 100%; }"
    " .lab-table tr.lab-change td { border-bottom: none !important; }"
    " .lab-table tr.lab-text td { border-top: none !important; padding-top: 0;"
    " overflow-wrap: anywhere; }"
)
#: Scorer columns a phone (390 px) shows without a sideways swipe; with more, a cue says so.
PHONE_SCORERS = 2


def lab_table(originals: dict, rows: list[rb.VariantScores], names: Names = str) -> str:
    """The study-style table as HTML: each change made with its scores, and under that row,
    across the whole table, the changed text (a phone reads it without a sideways swipe).

    >>> from perturbations.registry import get_perturbation
    >>> s = Score.from_components("s", 2, 2, 2)
    >>> v = get_perturbation("leetspeak")("I hear you <b>now</b>.", seed=0)
    >>> table = lab_table({"s": s}, [rb.VariantScores(v, {"s": rb.Change(0, "leetspeak", "s", s, s)})])
    >>> "<td colspan='2'" in table and "<b>now</b>" not in table
    True
    """
    scorer_ids = list(originals)
    head = "".join(
        f"<th title='{html.escape(s)}'>{html.escape(names(s))}<br>"
        "<small>Cognitive / Emotional / Behavioral / Overall (change in overall)</small></th>"
        for s in scorer_ids
    )
    original_cells = "".join(
        f"<td>{' / '.join(fmt(v, 2) for v in originals[s].components().values())}</td>"
        for s in scorer_ids
    )
    body = [f"<tr><td><b>original</b></td>{original_cells}</tr>"]
    body += [_variant_rows(row, scorer_ids) for row in rows]
    cue = (
        "<small class='scroll-cue'>Wider than the screen? Swipe the table sideways to see "
        "every scorer →</small>"
        if len(scorer_ids) > PHONE_SCORERS
        else ""
    )
    return (
        f"<style>{TABLE_CSS}</style><div style='overflow-x:auto'><table class='lab-table'>"
        f"<tr><th>change made</th>{head}</tr>{''.join(body)}</table></div>{cue}"
    )


def _variant_rows(row: rb.VariantScores, scorer_ids: list[str]) -> str:
    """One change's two table rows: its name, how it was made and its scores; then, under
    them and across the table, its changed text (scores first: a phone shows them at once)."""
    cells = []
    for s in scorer_ids:
        change = row.changes[s]
        if not change.ok:
            reason = change.after.reason or change.before.reason or "unscored"
            if row.variant.source.strip() and not row.variant.text.strip():
                reason = "this change left nothing of the reply to score"  # not "paste…"
            cells.append(f"<td>unscored: {html.escape(reason)}</td>")
            continue
        values = " / ".join(fmt(v, 2) for v in change.after.components().values())
        delta = change.delta("overall")
        colour = "#b00" if delta < -0.25 else "#070" if delta > 0.25 else "inherit"
        cells.append(
            f"<td>{values} <b style='color:{colour}'>({fmt(delta, 2, signed=True)})</b></td>"
        )
    variant = row.variant
    text = (
        diff_html(variant.source, variant.text)
        if variant.text.strip()
        else "<i>nothing: this change removed every sentence</i>"
    )
    # A control that leaves the reply as it is (another message) says so, not "Changed text".
    said = "Changed text:" if variant.text != variant.source else "The reply, unchanged:"
    return (
        f"<tr class='lab-change'><td><b>{html.escape(variant.perturbation_id)}</b><br>"
        f"<small>{html.escape(how_made(variant.method))}</small></td>{''.join(cells)}</tr>"
        f"<tr class='lab-text'><td colspan='{1 + len(scorer_ids)}'>"
        f"<small>{said}</small> {text}</td></tr>"
    )


#: The most characters of a judge's reason quoted beside a flat result.
REASON_CHARS = 400


def _quoted(reason: str) -> str:
    """A judge's own words as an escaped Markdown quote on one line, cut to a readable length."""
    text = " ".join(reason.split())
    if len(text) > REASON_CHARS:
        text = text[: REASON_CHARS - 1].rstrip() + "…"
    return "> " + html.escape(text, quote=False)


#: How near an end of the 1–3 scale a score must be to count as at that end.
EDGE = 0.005


def same_score_note(
    originals: dict[str, Score], rows: list[rb.VariantScores], names: Names = str
) -> str:
    """Plain words for each scorer that gave every version the same score (its +0.00s are no
    sign of robustness), with its own reasons for the original and one perturbed version
    (*judge-injection* when it has one) where it gave reasons.

    >>> from perturbations.registry import get_perturbation
    >>> top = Score.from_components("j", 3, 3, 3, rationale="Warm and specific.")
    >>> v = get_perturbation("leetspeak")("I hear you.", seed=0)
    >>> row = rb.VariantScores(v, {"j": rb.Change(0, "leetspeak", "j", top, top)})
    >>> print(same_score_note({"j": top}, [row]).strip())
    **j** gave every version the same score (3.00), the top of the scale, so a change that would push it further cannot show a movement: a +0.00 here does not mean it resisted the change.
    <BLANKLINE>
    Its reasons for the original:
    <BLANKLINE>
    > Warm and specific.
    <BLANKLINE>
    And for *leetspeak*:
    <BLANKLINE>
    > Warm and specific.
    >>> mid = Score.from_components("j", 2, 1, 1)
    >>> same_score_note({"j": mid}, [rb.VariantScores(v, {"j": rb.Change(0, "leetspeak", "j", mid, mid)})])
    ''
    """
    lines = []
    for sid, value in rb.same_everywhere(originals, rows).items():
        # Only at an end of the 1–3 scale is a +0.00 no sign: in between the score could have
        # moved, and staying put is the result (a cold walk read "cannot show a movement"
        # under a judge that held 1.24 against the judge-injection change).
        edge = "top" if value >= 3 - EDGE else "bottom" if value <= 1 + EDGE else ""
        if not edge:
            continue
        lines.append(
            f"**{names(sid)}** gave every version the same score ({fmt(value, 2)}), the {edge} "
            "of the scale, so a change that would push it further cannot show a movement: a "
            "+0.00 here does not mean it resisted the change."
        )
        reasoned = [r for r in rows if r.changes[sid].ok and r.changes[sid].after.rationale]
        reasoned.sort(key=lambda r: r.variant.perturbation_id != "judge-injection")
        if originals[sid].rationale and reasoned:
            lines += [
                "Its reasons for the original:",
                _quoted(originals[sid].rationale),
                f"And for *{reasoned[0].variant.perturbation_id}*:",
                _quoted(reasoned[0].changes[sid].after.rationale or ""),
            ]
    return "".join(f"\n\n{line}" for line in lines)


def how_made(method: str) -> str:
    """A variant's method in plain words.

    >>> how_made("llm:local/qwen2.5-coder-1.5b"), how_made("rule (no LLM rewriter)")
    ('rewritten by local/qwen2.5-coder-1.5b', 'by a fixed rule (no LLM rewriter)')
    """
    if method.startswith("llm:"):
        return "rewritten by " + method[4:]
    return "by a fixed rule" + method[4:]


#: The change chart's axis covers at least this much either side of 0: on a 1–3 scale a
#: change of 0.06 is small, and an autoscaled axis (±0.15) drew it as a large bar.
MIN_CHANGE_RANGE = 0.5


def change_range(deltas: list[float | None]) -> list[float]:
    """A symmetric axis range around 0: at least ±0.5, wider (in steps of 0.25, with half
    the change again as room for the value printed beside its bar, also on a phone) when a
    change is larger. The scale is 1–3, so at most ±3.

    >>> change_range([0.06, -0.02, None]), change_range([]), change_range([-0.68])
    ([-0.5, 0.5], [-0.5, 0.5], [-1.25, 1.25])
    """
    largest = max((abs(d) for d in deltas if d is not None), default=0.0)
    bound = max(MIN_CHANGE_RANGE, math.ceil(round(largest * 1.5 / 0.25, 9)) * 0.25)
    return [-bound, bound]


def change_chart(rows: list[rb.VariantScores], names: Names = str) -> go.Figure:
    """Δ overall per perturbation, one bar per scorer (a zero change drawn as a visible tick),
    on a fixed symmetric axis (:func:`change_range`), so a small change looks small."""
    fig = go.Figure()
    scorer_ids = list(rows[0].changes) if rows else []
    every: list[float | None] = []
    for sid in scorer_ids:
        deltas = [r.changes[sid].delta("overall") if r.changes[sid].ok else None for r in rows]
        every += deltas
        fig.add_bar(
            name=wrap(names(sid)),
            marker_color=color_for(sid),
            orientation="h",
            y=[r.variant.perturbation_id for r in rows],
            x=deltas,
            text=["not scored" if d is None else fmt(d, 2, signed=True) for d in deltas],
            textposition="outside",
            cliponaxis=False,
        )
    fig.update_layout(
        barmode="group",
        title={
            "text": "Change in overall score<br>per perturbation "
            "<sub>(0 = the scorer held still)</sub>",
            "font": {"size": 15},
        },
        xaxis={
            "title": "change in overall,<br>after − before (1–3 scale)",
            "range": change_range(every),
            "zeroline": False,
        },
        yaxis={"autorange": "reversed", "automargin": True},
    )
    legend_below(
        fig,
        lines_of([wrap(names(s)) for s in scorer_ids]) if len(scorer_ids) > 1 else 0,
        plot_px=max(120, 30 * len(rows) * max(1, len(scorer_ids))),
        top_px=80,
        below_plot_px=75,
        side_px=10,
    )
    fig.add_vline(x=0, line_width=1, line_color="#555")
    return fig
