"""The Trust page's verdicts in plain words: how far a scorer orders replies as its raters do,
what that allows, how that compares with the raters' agreement with each other where it is
known, and who those raters are (people, or LLM annotators: named for what they are).

>>> RATED_BY["rubric-labels"]
'the LLM annotators'
>>> band(0.12), band(0.2), band(0.4), band(0.6), band(-0.21)
('hardly at all', 'weakly', 'moderately', 'well', 'the opposite way')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.numbers import fmt

#: How well a scorer orders replies as its raters do, by its Spearman ρ with them (rounded to
#: the two decimals shown, then each band up to, not including, its top), and what that allows.
#: People agree with each other only moderately on empathy, so a scorer "agrees well" from 0.6.
#: Below -0.2 it orders replies the opposite way (a real, if rare, finding: it is said so).
OPPOSITE_BELOW = -0.2
AGREEMENT_BANDS = (
    (OPPOSITE_BELOW, "the opposite way", "its number points the wrong way: do not use it"),
    (0.2, "hardly at all", "do not use its number for a single reply, nor to rank a few"),
    (0.4, "weakly", "use it only for averages over many replies, not for one reply"),
    (0.6, "moderately", "use it to compare replies side by side, not to judge one alone"),
)
AGREES_WELL = (
    "well",
    "it orders replies much as they do; still read one reply's number with its note above",
)
#: Who made each bundled set's ratings, as the summary names them (an upload: unknown).
RATED_BY = {
    "welivita": "people",
    "epitome": "people",
    "ratings-here": "people",
    "rubric-labels": "the LLM annotators",
}
#: How far each set's raters agree with each other (Krippendorff's α, lowest and highest
#: over the parts), where the app knows it: the rubric labels' LLM annotators on 60 items
#: they all scored (assets/data/README.md). Ratings made here: measured when compared.
RATERS_AGREE: dict[str, tuple[float, float]] = {"rubric-labels": (0.87, 0.92)}
#: Why a set that keeps one rating per reply cannot show its raters' agreement.
ONE_RATING = {"welivita", "epitome"}


def band(rho: float) -> str:
    """The plain band of a Spearman ρ, read at the two decimals shown."""
    return _band(rho)[0]


def _band(rho: float) -> tuple[str, str]:
    shown = float(fmt(float(rho), 2))  # as printed (numpy's round(0.595, 2) gave 0.6)
    return next(((b, u) for top, b, u in AGREEMENT_BANDS if shown < top), AGREES_WELL)


def agreement_verdict(
    result: Mapping[str, Any] | None,
    who: str = "people",
    ceiling: tuple[float, float] | None = None,
    data: str = "",
) -> str:
    """The headline in plain words: how far the scorer orders replies as ``who`` do (from one
    part's :func:`scorers.agreement.compare` result; None: too few replies), what that allows,
    and beside the raters' own agreement (α, lowest–highest) where ``ceiling`` gives it.

    >>> agreement_verdict({"spearman_rho": 0.12})
    '**In plain words: it agrees with people hardly at all** (Spearman ρ 0.12): do not use its number for a single reply, nor to rank a few.'
    >>> agreement_verdict({"spearman_rho": 0.5}, "the LLM annotators").split("**")[1]
    'In plain words: it agrees with the LLM annotators moderately'
    >>> agreement_verdict(None)
    '**In plain words: no verdict yet**: too few scored replies to say whether it agrees with people.'
    """
    rho = None if result is None else result.get("spearman_rho")
    if result is None:
        return (
            "**In plain words: no verdict yet**: too few scored replies to say whether it "
            f"agrees with {who}."
        )
    if rho is None or rho != rho:  # NaN: no spread in its scores or in the ratings
        return (
            "**In plain words: no verdict**: its scores, or the ratings, are the same for every "
            "reply, so there is no order to compare."
        )
    said, use = _band(rho)
    head = (
        f"it orders replies the opposite way to {who}"
        if said == AGREEMENT_BANDS[0][1]
        else f"it agrees with {who} {said}"
    )
    return (
        f"**In plain words: {head}** (Spearman ρ {fmt(rho, 2)}{_unsure(result, said)}): {use}."
        + _beside_raters(result, who, ceiling, data)
        + (_NOT_PEOPLE if who == RATED_BY["rubric-labels"] else "")
    )


#: Fewer scored replies than this and the comparison shows no statistics, only the counts and
#: what is needed (two ratings gave a full table of α, κ, F1 and d that looked authoritative).
FEWEST_TO_READ = 10


def too_few_to_read(n_scored: int, data: str, who: str = "people") -> str:
    """No verdict, and what it takes: how many more scored replies ``data`` needs before the
    comparison is worth reading (below :data:`FEWEST_TO_READ`, no figure is shown).

    >>> print(too_few_to_read(2, "ratings-here"))
    **In plain words: no verdict yet**: 2 replies are too few to say whether it agrees with people: at least 10 scored replies are needed, so rate 8 more replies on the Compare page ("Your rating") and compare again. No statistics are shown until then: with so few they swing wildly.
    >>> too_few_to_read(9, "welivita").split(", so ")[1].split(" and")[0]
    'raise the sample size by at least 1'
    """
    more = FEWEST_TO_READ - n_scored
    if data == "ratings-here":
        todo = f"rate {more} more repl{'y' if more == 1 else 'ies'} on the Compare page"
        todo += ' ("Your rating")'
    elif data in RATED_BY:  # a bundled set: a sample of it
        todo = f"raise the sample size by at least {more}"
    else:
        todo = f"add {more} more rated repl{'y' if more == 1 else 'ies'} to your CSV"
    return (
        f"**In plain words: no verdict yet**: {n_scored} repl{'y is' if n_scored == 1 else 'ies are'}"
        f" too few to say whether it agrees with {who}: at least {FEWEST_TO_READ} scored replies "
        f"are needed, so {todo} and compare again. No statistics are shown until then: with so "
        "few they swing wildly."
    )


#: Said after a verdict against LLM annotators' labels (never "with people": they are not).
_NOT_PEOPLE = (
    " These labels were made by language models working as annotators, not by people: "
    "this says nothing yet about people's view."
)


def by_part(components: Mapping[str, Mapping[str, Any]]) -> str:
    """One line: each part's band and ρ, for a set rated on several parts ("" for one).

    >>> by_part({"cognitive": {"spearman_rho": 0.31}, "overall": {"spearman_rho": 0.12}})
    'By part: cognitive weakly (ρ 0.31), overall hardly at all (ρ 0.12).'
    """
    said = [
        f"{part} {band(r['spearman_rho'])} (ρ {fmt(r['spearman_rho'], 2)})"
        for part, r in components.items()
        if r.get("spearman_rho") == r.get("spearman_rho") and r.get("spearman_rho") is not None
    ]
    return f"By part: {', '.join(said)}." if len(said) > 1 else ""


def _unsure(result: Mapping[str, Any], said: str) -> str:
    """The bootstrap interval of ρ when it reaches into another band, else "".

    >>> _unsure({"ci": {"spearman_rho": (-0.05, 0.31)}}, "hardly at all")
    '; with this sample it could be anywhere from hardly at all to weakly'
    >>> _unsure({"ci": {"spearman_rho": (0.05, 0.19)}}, "hardly at all")
    ''
    """
    low_high = (result.get("ci") or {}).get("spearman_rho")
    if not low_high or any(v != v for v in low_high):
        return ""
    low, high = (band(v) for v in low_high)
    if low == high == said:
        return ""
    return f"; with this sample it could be anywhere from {low} to {high}"


#: Why the raters' agreement with each other cannot be shown for a set, where it cannot.
UNKNOWN_WHY = {
    "welivita": "this set keeps one rating per reply",
    "epitome": "this set keeps one rating per reply",
    "ratings-here": "no reply here has two raters yet",
}


def _beside_raters(
    result: Mapping[str, Any], who: str, ceiling: tuple[float, float] | None, data: str
) -> str:
    """The scorer's α as one more rater beside the raters' α with each other, or why that is
    unknown, or "" where nothing is known.

    >>> print(_beside_raters({"krippendorff_alpha": -0.05}, "people", (0.55, 0.55), ""))
     Counted as one more rater, its Krippendorff's α is -0.05: well below the α 0.55 that people reach with each other.
    >>> print(_beside_raters({}, "people", None, "welivita"))
     How far people agree with each other is not known here: this set keeps one rating per reply.
    """
    alpha = result.get("krippendorff_alpha")
    if ceiling is None:
        why = UNKNOWN_WHY.get(data)
        return f" How far {who} agree with each other is not known here: {why}." if why else ""
    if alpha is None or alpha != alpha:
        return ""
    low, high = ceiling
    theirs = fmt(low, 2) if round(low, 2) == round(high, 2) else f"{fmt(low, 2)}–{fmt(high, 2)}"
    gap = (
        "well below"
        if alpha < low - 0.05
        else "above"
        if alpha > high + 0.05
        else "about as high as"
    )
    return (
        f" Counted as one more rater, its Krippendorff's α is {fmt(alpha, 2)}: {gap} the α "
        f"{theirs} that {who} reach with each other."
    )
