"""What a voter sees after voting: who wrote each reply, their pick, the scores, the screen.

>>> reveal_headers(["bert-head"])[:3]
['reply', 'written by', 'your vote']
"""

from __future__ import annotations

from collections.abc import Sequence

from reports.votes import source_label
from scorers.registry import scorer_label
from studies.votes.rounds import VoteRound, ballot

#: Shown above the reveal table on a narrow screen only (the ``scroll-cue`` style rule).
REVEAL_CUE = (
    '<p class="scroll-cue">The table is wider than this screen: swipe it sideways to see '
    "every column →</p>"
)


def reveal_headers(scorers: Sequence[str]) -> list[str]:
    """The reveal table's headers: short words, so a phone never breaks one inside a word;
    who wrote each reply and this voter's pick first, seen on a phone without swiping.

    Each scorer's column is "score 1", "score 2" … (just "score" when there is one); the
    note under the table names them (:func:`score_key`).

    >>> reveal_headers(["bert-head", "judge/x"])
    ['reply', 'written by', 'your vote', 'score 1', 'score 2', 'safety screen']
    """
    numbered = [f"score {i}" for i in range(1, len(scorers) + 1)]
    scores = ["score"] if len(scorers) == 1 else numbered
    return ["reply", "written by", "your vote", *scores, "safety screen"]


def score_key(scorers: Sequence[str]) -> str:
    """What the score columns hold, in the headers' order: each scorer's full name."""
    if not scorers:
        return ""
    if len(scorers) == 1:
        names = f"Score: {scorer_label(scorers[0])}"
    else:
        names = "; ".join(f"score {i}: {scorer_label(s)}" for i, s in enumerate(scorers, 1))
        names = names[0].upper() + names[1:]
    return (
        f"{names}. Each is the overall rubric score, 1 (low) to 3 (high), computed when the "
        "round was made; a few tenths between two replies mean little (the Trust page says "
        "how far each scorer agrees with people). "
    )


def reveal_markdown(rnd: VoteRound, voter: str, row: dict[str, str]) -> str:
    """Who wrote each reply, the saved scores, and this voter's choice."""
    from core.conversation import parse_conversation
    from scorers.safety import check

    said = parse_conversation(rnd.message)  # a round on a conversation: every seeker turn
    scorers = list(rnd.scores)
    texts = {e.source: e.text for e in rnd.entries}
    cells = reveal_headers(scorers)
    lines = ["| " + " | ".join(cells) + " |", "|" + "---|" * len(cells)]
    for letter, source in ballot(rnd, voter):
        values = []
        for scorer in scorers:
            score = rnd.scores[scorer].get(source, {})
            overall = score.get("overall")
            values.append(f"{overall:.2f}" if overall is not None else "unscored")
        pick = {row["most"]: "**most** empathetic", row["least"]: "least empathetic"}.get(
            source, ""
        )
        screen = check(said.message, texts.get(source, ""), said.history).badge()
        cells = [letter, source_label(source), pick, *values, screen]
        lines.append("| " + " | ".join(cells) + " |")
    note = (
        f"\n\n{score_key(scorers)}Safety screen: would a clinician hesitate to send this reply "
        "(a missed risk, a diagnosis or dose, harmful advice, dismissiveness)? A screen that "
        "can miss things."
    )
    return (
        f"### Thank you, your vote is in.\n\n{REVEAL_CUE}\n\n"
        + "\n".join(lines)
        + note
        + "".join(f"\n\n<small>{c}</small>" for c in reveal_credits(rnd, voter))
    )


def reveal_credits(rnd: VoteRound, voter: str) -> list[str]:
    """Each credit once (a model that wrote three replies is credited once, not three times),
    naming the replies it covers, in this voter's letters.

    >>> from studies.votes.rounds import Entry
    >>> rnd = VoteRound("K7Q2", "m", (Entry("a", "x", attribution="Model M"), Entry("b", "y",
    ...     attribution="Model M"), Entry("c", "z", attribution="Dr T")), seed=1)
    >>> [c.split(": ")[1] for c in reveal_credits(rnd, "v")]
    ['Model M', 'Dr T']
    >>> reveal_credits(rnd, "v")[0].startswith("Replies ")
    True
    """
    letters: dict[str, list[str]] = {}
    for letter, source in ballot(rnd, voter):
        said = rnd.entry(source).attribution
        if said:
            letters.setdefault(said, []).append(letter)
    order = sorted(letters, key=lambda said: min(letters[said]))
    return [
        f"{'Replies' if len(letters[c]) > 1 else 'Reply'} {', '.join(sorted(letters[c]))}: {c}"
        for c in order
    ]
