"""Plain-language help beside scores: the rubric's levels, readable names, judge cautions."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache

from config import CARDS_DIR
from responders.registry import RESPONDERS, get_responder
from scorers.registry import is_judge, scorer_label
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
            )
        else:
            ticked.append(sid)
    return ticked, "\n\n".join(notes)


def judge_cautions(scorer_ids: Iterable[str] | None) -> str:
    """How far each chosen scorer can be trusted, from its card: a plain band first (how far
    one score may sit from the labels), the statistics after it.

    >>> judge_cautions(["judge-weighted/local/qwen2.5-coder-1.5b"]).count("±0.6")
    1
    >>> judge_cautions([])
    ''
    """
    notes = []
    for sid in scorer_ids or []:
        card = _cards().get(sid, {})
        if card.get("caution"):
            band = f"{card['band']} " if card.get("band") else ""
            notes.append(f"**{scorer_label(sid)}**: {band}<small>{card['caution']}</small>")
    return "\n\n".join(notes)


def names(item_id: str) -> str:
    """A readable name for a responder or scorer id (the id when unknown)."""
    if item_id.split("/")[0] in RESPONDERS:
        try:
            return get_responder(item_id).display_name
        except KeyError:
            return item_id
    return scorer_label(item_id)
