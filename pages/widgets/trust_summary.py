"""The Trust page's summary of an agreement report, one paragraph a clinician can read: the
verdict in plain words first (beside the raters' own agreement where known), then who rated
what, how many replies were scored, and the figures.

The words of each verdict are :mod:`pages.widgets.trust_words`; the page is :mod:`pages.trust`.
"""

from __future__ import annotations

from core.numbers import fmt
from pages.widgets.names import scorer_name
from pages.widgets.trust_words import (
    FEWEST_TO_READ,
    RATED_BY,
    RATERS_AGREE,
    agreement_verdict,
    by_part,
    too_few_to_read,
)


def summary_markdown(report: dict) -> str:
    """One paragraph a clinician can read: the verdict in plain words first, then who, on
    what, how many, and the figures; the raters named for what they are. Below
    :data:`FEWEST_TO_READ` scored replies: the counts and what is needed, no figures."""
    overall = report["components"].get("overall") or next(iter(report["components"].values()))
    who = RATED_BY.get(report["data"], "the uploaded ratings")
    skipped = "; ".join(f"{n} unscored ({why})" for why, n in report["unscored"].items())
    counts = (
        f"**{scorer_name(report['scorer'])}** on **{report['data']}** ({report['note']}): "
        f"{report['n_scored']} of {report['n_rows']} replies scored{'; ' + skipped if skipped else ''}."
    )
    if report["n_scored"] < FEWEST_TO_READ:
        return too_few_to_read(report["n_scored"], report["data"], who) + "\n\n" + counts
    d = overall["cohens_d"]
    level = "people's level" if who == "people" else f"the level of {who}"
    lean = (
        f"cannot yet be set beside {level} (too few ratings for Cohen's d)"
        if d is None or d != d  # NaN: one rating, or no spread
        else f"rates higher than {who}"
        if d > 0.2
        else f"rates lower than {who}"
        if d < -0.2
        else f"is about as high as {who}"
    )
    return (
        verdicts(report, who)
        + "\n\n"
        + counts
        + f" Overall it {lean} (Cohen's d {fmt(d, 2)}); Krippendorff's α with {who} "
        f"{fmt(overall['krippendorff_alpha'], 2)}; Spearman ρ {fmt(overall['spearman_rho'], 2)}. "
        "Intervals in brackets are 95 % bootstrap intervals."
    )


def verdicts(report: dict, who: str) -> str:
    """The plain verdict on the overall rating (else one per part), beside the raters' own
    agreement where known; then, for a set rated on several parts, each part's band."""
    parts = report["components"]
    shown = ["overall"] if "overall" in parts else list(parts)
    lines = [
        ("" if part == "overall" else f"*{part}:* ")
        + agreement_verdict(parts[part], who, _ceiling(report, part), report["data"])
        for part in shown
    ]
    if "overall" in parts and by_part(parts):
        lines.append(by_part(parts))
    return "\n\n".join(lines)


def _ceiling(report: dict, part: str) -> tuple[float, float] | None:
    """How far the raters agree with each other (α, lowest–highest) on ``part``: measured for
    ratings made here (overall: over the parts), known for the rubric labels, else None."""
    measured = report.get("raters_alpha")
    if measured is None:
        return RATERS_AGREE.get(report["data"])
    alphas = [a for p, a in measured.items() if a is not None and part in (p, "overall")]
    return (min(alphas), max(alphas)) if alphas else None
