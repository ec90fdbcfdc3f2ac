"""Plain-language help beside scores: the rubric's levels, readable names, judge cautions."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache

from config import CARDS_DIR
from responders.registry import LOCAL_DEFAULT, RESPONDERS, get_responder, responder_class
from scorers.registry import is_judge, offered_scorer_ids, scorer_label
from scorers.rubric import load_rubric


def _rubric_help() -> str:
    rubric = load_rubric("counselling")
    levels = ", ".join(f"**{k}** = {v}" for k, v in rubric.levels.items())
    parts = {
        "cognitive": "does the reply show it understood *this* person's situation and feelings?",
        "emotional": "does it convey warmth, compassion and validation?",
        "behavioral": "does it offer fitting next steps, resources or an inviting question?",
    }
    lines = [f"- **{rubric.label(c)}**: {parts[c]}" for c in rubric.components]
    return (
        f"Each component is scored {rubric.low}–{rubric.high} ({levels}); "
        "**Overall** is their mean.\n" + "\n".join(lines)
    )


SCORES_HELP = _rubric_help()


@cache
def _cards() -> dict[str, dict]:
    cards = {}
    for path in CARDS_DIR.glob("*.json"):
        card = json.loads(path.read_text(encoding="utf-8"))
        if "scorer" in card:
            cards[card["scorer"]] = card
    return cards


#: A judge is ticked by default only when its measured overall Spearman with held-out
#: LLM-annotated rubric labels (from its card) reaches this; below it, it stays one click away.
DEFAULT_BAR = 0.55


def ticked_by_default(scorer_ids: Iterable[str]) -> tuple[list[str], str]:
    """The scorers ticked for a keyless visitor, and why any was left unticked.

    >>> ticked, why = ticked_by_default(["bert-head", "judge-weighted/local/qwen2.5-coder-1.5b"])
    >>> ticked == ["bert-head"] and "0.55" in why
    True
    """
    ticked, notes = [], []
    for sid in scorer_ids:
        measured = _cards().get(sid, {}).get("measured", {})
        rho = measured.get("spearman_overall")
        if is_judge(sid) and (rho is None or rho < DEFAULT_BAR):
            shown = "not measured" if rho is None else f"Spearman {rho:.2f}"
            notes.append(
                f"**{scorer_label(sid)}** is not ticked: on held-out LLM-annotated rubric labels its overall "
                f"agreement ({shown}) is under the {DEFAULT_BAR:.2f} this app asks of a default "
                "judge, and it adds seconds per reply. Tick it to see its scores and reasons."
                + _against_people(sid)
            )
        else:
            ticked.append(sid)
    return ticked, "\n\n".join(notes)


def _against_people(scorer_id: str) -> str:
    """How the scorer ranked replies beside people's ratings, where its card says (else "").

    >>> "Welivita & Pu" in _against_people("judge-weighted/local/qwen2.5-coder-1.5b")
    True
    >>> _against_people("judge/openai/gpt-4o")
    ''
    """
    from pages.widgets.trust_notes import people_ranking

    ranked = people_ranking(_cards().get(scorer_id, {}))
    if not ranked:
        return ""
    head = ranked.get("head_same_replies")
    beside = f" (the empathy head, on the same replies: {head:.2f})" if head is not None else ""
    return (
        f" Beside people's ratings of {ranked['n']} everyday replies (Welivita & Pu) it ranked "
        f"them at Spearman {ranked['spearman']:.2f}{beside}: see its trust note."
    )


def judge_cautions(scorer_ids: Iterable[str] | None) -> str:
    """How far each chosen scorer can be trusted: what people would likely give around one of
    its scores first (or plainly that it was never measured against people), the statistics
    one click away (:func:`pages.widgets.trust.trust_notes`).

    >>> "people would likely give between" in judge_cautions(["bert-head"])
    True
    >>> judge_cautions([])
    ''
    """
    from pages.widgets.trust_notes import trust_notes

    return trust_notes(scorer_ids)


def scores_note(scorer_ids: Iterable[str] | None, asked: tuple | None = None) -> str:
    """The trust notes above the scores table; when the replies on screen answer the last
    message of a conversation, first how far a conversation's scores held up against experts
    on real conversations (:func:`studies.experts_card.trust_line`), not the figure on
    conversations LLMs wrote.

    >>> scores_note(["bert-head"], ("I feel alone", 2, 0.0)).startswith("**Against experts")
    True
    >>> scores_note(["bert-head"], ("I feel alone", 0, 0.0)).startswith("**Against experts")
    False
    """
    from studies.experts_card import read_card, trust_line

    notes = judge_cautions(scorer_ids)
    line = trust_line(read_card()) if asked and asked[1] else ""
    if not line:
        return notes
    head, _, rest = line.partition(": ")
    return f"**{head}:** {rest}" + (f"\n\n{notes}" if notes else "")


def local_judges(scorer_ids: Iterable[str] | None) -> list[str]:
    """The judges among ``scorer_ids`` that run the local model, on this server's CPU.

    >>> local_judges(["bert-head", "judge/local/qwen2.5-coder-1.5b", "judge/openai/gpt-4o"])
    ['judge/local/qwen2.5-coder-1.5b']
    """
    here = responder_class(LOCAL_DEFAULT)
    return [
        sid
        for sid in scorer_ids or []
        if is_judge(sid) and responder_class(sid.split("/", 1)[1].split("+")[0]) is here
    ]


#: How the local judges differ, beside their boxes (only worth saying when there are two).
LOCAL_JUDGES_DIFFER = (
    "<small>The two local judges are the same small model on this server's CPU, read two "
    "ways: the **probability-weighted** one turns its odds of 1, 2 and 3 into graded scores "
    "(such as 2.4); the other writes whole numbers 1–3 with a short reason. Each adds "
    "seconds to every reply.</small>"
)
BOTH_LOCAL_TICKED = (
    "**Both local judges are ticked.** They take turns on the same CPU, so every reply waits "
    "for both: scores come about twice as slowly as with one. Untick one unless you want to "
    "compare them."
)


def judge_hint(scorer_ids: Iterable[str] | None) -> str:
    """A plain note beside the scorer boxes: how the local judges differ, and a warning
    when both are ticked (they share one CPU, so each reply takes about twice as long).

    >>> both = local_judges(offered_scorer_ids())
    >>> "twice as slowly" in judge_hint(both), "twice as slowly" in judge_hint(both[:1])
    (True, False)
    """
    if len(local_judges(offered_scorer_ids())) < 2:
        return ""
    ticked = len(local_judges(scorer_ids))
    return LOCAL_JUDGES_DIFFER + ("\n\n" + BOTH_LOCAL_TICKED if ticked >= 2 else "")


def names(item_id: str) -> str:
    """A readable name for a responder or scorer id (the id when unknown)."""
    if item_id.split("/")[0] in RESPONDERS:
        try:
            return get_responder(item_id).display_name
        except KeyError:
            return item_id
    return scorer_label(item_id)
