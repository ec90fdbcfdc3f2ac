"""The Trust page's verdicts in plain words: how far a scorer orders replies as its raters do,
and who those raters are (people, or LLM annotators: never called people).

>>> RATED_BY["rubric-labels"]
'the LLM annotators'
"""

from __future__ import annotations

from core.numbers import fmt

#: How well a scorer orders replies as its raters do, by its Spearman ρ with them (upper
#: bounds), and what that allows. People agree with each other only moderately on empathy,
#: so a scorer "agrees well" from 0.6 (about what one rater reaches against the others).
AGREEMENT_BANDS = (
    (0.2, "hardly at all", "do not use its number for a single reply, nor to rank a few"),
    (0.4, "weakly", "use it only for averages over many replies, not for one reply"),
    (0.6, "moderately", "use it to compare replies side by side, not to judge one alone"),
)
AGREES_WELL = (
    "well",
    "it orders replies much as they do; one reply's number still has the band above",
)
#: Who made each bundled set's ratings, as the summary names them (an upload: unknown).
RATED_BY = {
    "welivita": "people",
    "epitome": "people",
    "ratings-here": "people",
    "rubric-labels": "the LLM annotators",
}


def agreement_verdict(rho: float | None, who: str = "people") -> str:
    """The headline in plain words: how far the scorer orders replies as ``who`` do.

    >>> agreement_verdict(0.12)
    '**In plain words: it agrees with people hardly at all** (Spearman ρ 0.12): do not use its number for a single reply, nor to rank a few.'
    >>> [agreement_verdict(r).split("**")[1].split()[-1] for r in (0.2, 0.4, 0.65)]
    ['weakly', 'moderately', 'well']
    >>> agreement_verdict(0.5, "the LLM annotators").split("**")[1]
    'In plain words: it agrees with the LLM annotators moderately'
    >>> agreement_verdict(float("nan"))
    '**In plain words: no verdict yet**: too few scored replies to say whether it agrees with people.'
    """
    if rho is None or rho != rho:
        return (
            "**In plain words: no verdict yet**: too few scored replies to say whether it "
            f"agrees with {who}."
        )
    band, use = next(((b, u) for top, b, u in AGREEMENT_BANDS if rho < top), AGREES_WELL)
    return f"**In plain words: it agrees with {who} {band}** (Spearman ρ {fmt(rho, 2)}): {use}."
