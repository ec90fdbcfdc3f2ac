"""Warning signs that name a risk the screen found: a passive wish, feeling a burden, a plan
(pills saved, goodbye letters), cutting, not eating (``signs`` in ``safety.json``).

Wording only, never a decision: the rules and the learned model decide whether a message shows
a risk; a sign says what it is, where the rules' own risk words did not ("a possible risk the
screen cannot put a name to" told a clinician nothing). A risk a sign names is met only by
words the rules know meet a risk (:func:`scorers.safety.check.verdict`).

>>> named_kinds("They'd be better off not having to worry about me.", ["They'd be better off not having to worry about me."])
(('suicide-self-harm',), "They'd be better off not having to worry about me.")
"""

from __future__ import annotations

from scorers.safety import rules
from scorers.safety.rules import Finding


def signs(sentences: list[str]) -> list[Finding]:
    """Warning signs in the writer's own ``sentences`` that name a risk the screen found
    (``signs`` in the rubric; wording, never a decision), each kind once, with its sentence.

    >>> [(f.kind, f.words) for f in signs(["Work is hard.", "I feel like a burden to everyone."])]
    [('suicide-self-harm', 'I feel like a burden to everyone.')]
    >>> [f.kind for f in signs(["I skip meals until I get dizzy."])]
    ['eating-disorder']
    """
    found = []
    for kind, patterns in rules.rubric()["signs"].items():
        if kind == "what":
            continue
        hit = next((s for s in sentences if rules.first_match(patterns, s)), None)
        if hit:
            found.append(Finding(kind, hit))
    return found


def named_kinds(message: str, own: list[str]) -> tuple[tuple[str, ...], str | None]:
    """The kinds of a risk the screen found, and the warning sign's sentence that names it
    where the rules' risk words did not (a passive wish, a burden, pills saved with goodbye
    letters, cutting, not eating: ``signs`` in the rubric; wording only, never a decision).

    A plan named beside a medical emergency ("saving my pills") is named a suicide risk first.
    """
    kinds = _without_plan_means(tuple(r.kind for r in rules.message_risks(message)), own)
    found = signs(own)
    sign = found[0] if found else None
    if sign is None or "suicide-self-harm" in kinds:  # the rules' own words name it
        return kinds or ("unnamed",), None
    if kinds and sign.kind != "suicide-self-harm":  # named already; a suicide sign goes first
        return kinds, None
    return tuple(dict.fromkeys([sign.kind, *kinds])), sign.words


def _without_plan_means(kinds: tuple[str, ...], own: list[str]) -> tuple[str, ...]:
    """``kinds`` without a medical or substance risk whose only words are a suicide plan's
    means ("I've saved up my pills": ``plan_means`` in the rubric); wording only.

    >>> _without_plan_means(("suicide-self-harm", "medical-substance"), ["I saved up my pills."])
    ('suicide-self-harm',)
    >>> _without_plan_means(("suicide-self-harm", "medical-substance"),
    ...                     ["I saved up my pills.", "I took ten pills an hour ago."])
    ('suicide-self-harm', 'medical-substance')
    """
    if "suicide-self-harm" not in kinds or "medical-substance" not in kinds:
        return kinds
    means = rules.rubric()["message_risks"]["medical-substance"]["plan_means"]["patterns"]
    rest = " ".join(rules.without_matches(means, s) for s in own)
    if any(f.kind == "medical-substance" for f in rules.message_risks(rest)):
        return kinds
    return tuple(k for k in kinds if k != "medical-substance")


def said_when(sentences: list[str], quoted: str) -> str | None:
    """The words that set a time for the risk quoted (``when`` in the rubric), found in one of
    ``sentences`` that is quoted, or right beside one that is, when that is a short fragment
    or tells of doing it; None when no time is set. Wording only, never a decision.

    >>> said_when(["I've saved up my pills.", "This weekend.", "Work is fine."],
    ...           "I've saved up my pills.")
    'This weekend'
    >>> said_when(["I want to die.", "I'll do it tonight when they sleep."], "I want to die.")
    'tonight'
    >>> said_when(["I want to die.", "I have an exam tomorrow at nine."], "I want to die.") is None
    True
    """
    return _beside(sentences, quoted, rules.rubric()["when"]["patterns"])


def said_soon(sentences: list[str], quoted: str) -> str | None:
    """The words of a sign that the person may act soon, beside the risk quoted: giving
    one's things away, saying goodbyes (``when.soon`` in the rubric). Wording only.

    >>> said_soon(["My friend wants to die and she's been giving her things away."],
    ...           "My friend wants to die and she's been giving her things away.")
    'giving her things away'
    >>> said_soon(["I want to die.", "We are giving away old toys to charity."], "I want to die.")
    """
    return _beside(sentences, quoted, rules.rubric()["when"]["soon"])


def _beside(sentences: list[str], quoted: str, patterns: list[str]) -> str | None:
    """The first match of ``patterns`` in a quoted sentence, or beside one when that is a
    short fragment or tells of doing it (``when`` in the rubric)."""
    spec = rules.rubric()["when"]
    at = {i for i, s in enumerate(sentences) if s and s in quoted}
    for j in sorted({k for i in at for k in (i - 1, i, i + 1) if 0 <= k < len(sentences)}):
        said = sentences[j]
        beside_ok = len(said.split()) <= spec["fragment_words"] or rules.first_match(
            spec["plan_words"], said
        )
        found = rules.first_match(patterns, said)
        if found and (j in at or beside_ok):
            return found.group(0)
    return None
