"""Each scorer's trust note: what people would likely give for one of its scores (a plain
band), and how that was measured, one click away. Read from the scorer cards that ship.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache

from config import CARDS_DIR
from core.numbers import fmt
from pages.widgets.names import scorer_name
from studies.experts_card import experts_between, read_card, scorer_lines
from studies.people_band import BAND_SHARE, PeopleBand, people_band


@cache
def _card(scorer_id: str) -> dict:
    """The scorer card that ships for ``scorer_id`` (empty when none does)."""
    for path in CARDS_DIR.glob("*.json"):
        card = json.loads(path.read_text(encoding="utf-8"))
        if card.get("scorer") == scorer_id:
            return card
    return {}


#: The middle share of a scorer's errors its band holds, as a note writes it ("80 %").
SHARE = f"{BAND_SHARE:.0%}".replace("%", " %")


def people_ranking(card: dict) -> dict | None:
    """A scorer card's ranking beside Welivita & Pu's ratings (people), if it has one.

    >>> people_ranking({"external_checks": {"welivita_overall_vs_rating": {"n": 150}}})
    {'n': 150}
    >>> people_ranking({}) is None
    True
    """
    return (card.get("external_checks") or {}).get("welivita_overall_vs_rating")


def trust_note(scorer_id: str) -> tuple[str, str]:
    """(what a visitor can act on, how it was measured) for one scorer: the band people's
    ratings fell in around one of its scores, from its stored errors against people
    (:func:`studies.people_band.people_band`), or plainly that it has none.

    >>> lead, how = trust_note("bert-head")
    >>> lead.split(": ", 1)[1][:98]
    'people would likely give between 0.5 below and 1.3 above its score; for a 1.9, between 1.4 and 3.0'
    >>> "not measured against people" in trust_note("judge/openai/gpt-4o")[0]
    True
    """
    card, band = _card(scorer_id), people_band(scorer_id)
    name = f"**{scorer_name(scorer_id)}**"
    ranked = people_ranking(card)
    if band:
        shown = round(band.typical, 1)
        low, high = band.around(shown)
        lean = "higher" if band.mean > 0 else "lower"
        lead = (
            f"{name}: people would likely give between {_offset(band.below)} and "
            f"{_offset(band.above)} its score; for a {fmt(shown, 1)}, between {fmt(low, 1)} and "
            f"{fmt(high, 1)} (the middle {SHARE} of its errors against "
            f"{band.people}, on {band.n} replies it never trained on; scale {fmt(band.low, 0)}–"
            f"{fmt(band.high, 0)}). On average people rated {fmt(abs(band.mean), 1)} {lean} "
            "than it." + _too_wide(band.above - band.below, band.high - band.low)
        )
    elif ranked:
        lead = (
            f"{name}: no band: its scores were set beside people's only as a ranking (Spearman "
            f"{fmt(ranked['spearman'], 2)} with Welivita & Pu's ratings, where 0 is unrelated), so "
            "this app cannot say what people would give for one of its scores."
        )
    else:
        lead = (
            f"{name}: not measured against people's ratings, so this app cannot say what people "
            "would give for one of its scores"
            + (": it was checked only against LLM annotators' labels." if card else ".")
        )
    return lead, _how_measured(band, card, scorer_id)


def _too_wide(width: float, scale: float) -> str:
    """A plain verdict when a band covers half the scale or more, else "".

    >>> "covers 1.8 of the scale's 2 points: too wide" in _too_wide(1.8, 2.0)
    True
    >>> _too_wide(0.4, 2.0)
    ''
    """
    if width < scale / 2:
        return ""
    return (
        f" That band covers {fmt(width, 1)} of the scale's {fmt(scale, 0)} points: too wide to "
        "read one reply's score on its own, and a few tenths between two replies mean little. "
        "How far its order of replies matches people's: the Trust page's verdict."
    )


def _offset(x: float) -> str:
    """How far from a score, in words.

    >>> _offset(-0.47), _offset(1.29), _offset(0.01)
    ('0.5 below', '1.3 above', 'at')
    """
    if round(x, 1) == 0:
        return "at"
    return f"{fmt(abs(x), 1)} {'below' if x < 0 else 'above'}"


def _how_measured(band: PeopleBand | None, card: dict, scorer_id: str = "") -> str:
    """The statistics behind a trust note: against people (errors, ranking, experts on real
    conversations), then the card's figures against the LLM annotators' labels."""
    people = []
    if band:
        people.append(
            f"People's rating minus this scorer's, reply by reply, on {band.n} replies with "
            f"{band.people} (stored with the app as calibration {band.calibration}): the middle "
            f"{SHARE} ran from {fmt(band.below, 2, signed=True)} to "
            f"{fmt(band.above, 2, signed=True)}, {fmt(band.mean, 2, signed=True)} on average; "
            f"root mean square error {fmt(band.rmse, 2)}."
        )
    ranked = people_ranking(card)
    if ranked:
        people.append(
            f"Ranking against Welivita & Pu's ratings ({ranked['n']:,} replies): Spearman "
            f"{fmt(ranked['spearman'], 2)} (1 = the same order as people, 0 = unrelated)."
        )
    card_of_experts = read_card() if scorer_id else {}
    experts = scorer_lines(card_of_experts, scorer_id)
    if experts:
        people.append(
            "Against experts, real conversations (Lend an Ear): "
            + "; ".join(experts)
            + f"; {experts_between(card_of_experts)}."
        )
    labels = [card[k] for k in ("band", "caution") if card.get(k)]
    parts = [
        *(["**Against people**", *people] if people else []),
        *(["**Against LLM annotators' labels (not people)**", *labels] if labels else []),
    ]
    return "\n\n".join(parts) or "No measurement of this scorer ships with the app."


def trust_notes(scorer_ids: Iterable[str] | None) -> str:
    """Each scorer's :func:`trust_note` as one Markdown text, the statistics one click away
    under "How this was measured" (for a page that shows the notes in one box)."""
    notes = []
    for sid in scorer_ids or []:
        lead, how = trust_note(sid)
        notes.append(
            f"{lead}\n\n<details><summary>How this was measured</summary>\n\n{how}\n\n</details>"
        )
    return "\n\n".join(notes)
