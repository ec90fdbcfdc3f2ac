"""What the app says of a conversation's scores, from the experts' card: how each reading of
real conversations agreed with three experts (``cli.py experts --card``), as a table for the
Trust page and one line beside the scores of a pasted conversation.

>>> print(trust_line(read_card()).split(":")[0])
Against experts, real conversations
"""

from __future__ import annotations

import json
from pathlib import Path

from scorers.bert_head.context import EXPERTS_CARD
from studies.experts_report import ALONE, MODEL


def read_card(path: Path = EXPERTS_CARD) -> dict:
    """The card ``cli.py experts --card`` wrote ({} when there is none)."""
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _rho(a: dict) -> str:
    """A correlation with its interval, as a person reads it.

    >>> _rho({"rho": 0.393, "low": 0.126, "high": 0.614})
    '0.39 (0.13 to 0.61)'
    """
    return f"{a['rho']:.2f} ({a['low']:.2f} to {a['high']:.2f})".replace("-", "−")


def _shipped(name: str, card: dict) -> str:
    """Whether the app scores conversations this way."""
    if name in (MODEL, ALONE):
        return "yes" if (name == MODEL) == bool(card.get("model_ships")) else "no"
    return "as a judge you tick"


def shown_name(name: str, card: dict) -> str:
    """A reading's name as a page shows it: the scorer's label, how it read the turns.

    >>> shown_name("bert-head, each turn alone", {})
    'Empathy head (MiniLM + trained head), each turn alone'
    >>> shown_name("judge-weighted/local/qwen2.5-coder-1.5b, with the conversation",
    ...            {"command": "… --last-turn"})[-47:]
    'with the conversation (its last supporter turn)'
    """
    from scorers.registry import scorer_label

    scorer, sep, how = name.partition(", " if ", " in name else " ")
    last = " (its last supporter turn)" if "--last-turn" in card.get("command", "") else ""
    return f"{scorer_label(scorer)}{sep}{how}{last if scorer != 'bert-head' else ''}"


def markdown(card: dict) -> str:
    """The card as the Trust page shows it: each reading of the conversations and the
    people and models it can be set beside, with who rated."""
    if not card:
        return (
            "No measurement against experts ships with this copy (`python cli.py experts --card`)."
        )
    rows = [
        f"| {shown_name(name, card)} | {_rho(row['composite'])} | {_shipped(name, card)} |"
        for name, row in card["rows"].items()
    ]
    refs = [f"| {name} | {_rho(ref)} | reference |" for name, ref in card["references"].items()]
    gain = card.get("model_gain")
    return "\n".join(
        [
            f"**Against experts, real conversations.** {card['conversations']} real support "
            f"conversations ({card['source']}), each supporter rated by {card['who_rated']}. "
            f"{card['what']}; the experts' score is {card['composite']}. A scorer reads every "
            "supporter turn and its turns are averaged.",
            "",
            f"In plain words: the experts agree with each other at {_expert_range(card)}; "
            "the app's readings of a conversation follow them far less (a Spearman of 1 is the "
            "experts' order exactly, 0 no relation), so read a conversation's scores as a rough "
            "guide, not a verdict.",
            "",
            "| reading | Spearman with the experts | how this app scores conversations |",
            "|---|---|---|",
            *rows,
            *refs,
            "",
            (
                f"The conversation model's gain over reading each turn alone: {_rho(gain)}; it "
                f"{'ships' if card.get('model_ships') else 'does not ship'}: a conversation "
                "scorer ships only when the whole interval of its gain is above zero."
                if gain
                else ""
            ),
            f"Measured {card['date']} with `{card['command']}`.",
        ]
    )


def experts_between(card: dict) -> str:
    """How far the experts agreed with each other: the ceiling a scorer is read against.

    >>> experts_between(read_card())[:38]
    'one expert against the other two: 0.74'
    """
    found = _expert_range(card)
    return f"one expert against the other two: {found}" if found else ""


def _expert_range(card: dict) -> str:
    """The lowest and highest agreement of one expert with the other two ("" without)."""
    refs = [r["rho"] for name, r in card.get("references", {}).items() if "expert" in name]
    return f"{min(refs):.2f}–{max(refs):.2f}" if refs else ""


def trust_line(card: dict) -> str:
    """One line beside a conversation's scores: how the shipped reading agreed with experts.

    >>> trust_line({})
    ''
    """
    if not card:
        return ""
    shipped = MODEL if card.get("model_ships") else ALONE
    between = f"; {experts_between(card)}" if experts_between(card) else ""
    return (
        "Against experts, real conversations: on "
        f"{card['conversations']} real support conversations rated by three experts, the "
        f"empathy head ({'reading the conversation' if card.get('model_ships') else 'reading each turn as a reply to the message before it'}) "
        f"ranked supporters at Spearman {_rho(card['rows'][shipped]['composite'])}{between}. "
        "Read a conversation's scores as a rough guide, not a verdict (Trust page, "
        "Conversations tab)."
    )


def scorer_lines(card: dict, scorer_id: str) -> list[str]:
    """How each reading by ``scorer_id`` agreed with the experts, a line each ([] when the
    card has none), for the scorer's trust note.

    >>> scorer_lines(read_card(), "bert-head")[0].startswith("Empathy head (MiniLM + trained head), each")
    True
    >>> scorer_lines(read_card(), "judge/openai/gpt-4o")
    []
    """
    return [
        f"{shown_name(name, card)}{' (how this app scores them)' if _shipped(name, card) == 'yes' else ''}: "
        f"Spearman {_rho(row['composite'])} with the experts' mean on {card['conversations']} "
        "real conversations"
        for name, row in sorted(
            card.get("rows", {}).items(), key=lambda kv: _shipped(kv[0], card) != "yes"
        )
        if name.startswith(scorer_id + " ") or name.startswith(scorer_id + ",")
    ]
