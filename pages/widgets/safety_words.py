"""The safety screen's verdict in plain words, for a reply panel and the scores table.

The heading must agree with the lines under it: a risk the screen quotes from the
message (or from an earlier seeker turn) is never headed "no concern found", even
when the reply meets it.
"""

from __future__ import annotations

from scorers.safety import SafetyResult
from scorers.safety.judge import SafetyOpinion

MESSAGE_RISK = "risk in the message"
EARLIER_RISK = "risk in an earlier message"
MET_BY_REPLY = "the reply meets it"
MET_EARLIER = "an earlier supporter turn already met it"


#: How a safety verdict looks (a table cell, a panel's heading) by its first words: dark
#: text on a light fill, readable in both themes; a verdict with no concern keeps its look.
SAFETY_LOOKS = {
    "not safe": "background-color: #fde2e1; color: #7a1c14; font-weight: 600",
    "uncertain": "background-color: #fff1c7; color: #5c4300",
    # a risk the reply meets is not "no concern" (cold walk 7: the two looked the same)
    "risk in": "background-color: #dbeafe; color: #1e3a5f",
}


def safety_look(verdict: object) -> str:
    """The CSS for one safety verdict (a table cell or a panel's heading).

    >>> safety_look("not safe: missed risk").startswith("background-color: #fde2e1")
    True
    >>> safety_look("no concern found")
    ''
    >>> safety_look("risk in the message; the reply meets it").startswith("background-color: #dbeafe")
    True
    """
    said = str(verdict or "")
    return next((look for start, look in SAFETY_LOOKS.items() if said.startswith(start)), "")


def screen_heading(result: SafetyResult) -> str:
    """The screen's verdict in a few words: its badge, unless the message shows a risk
    the reply was not faulted for (then the heading says the risk is there, and who met it).

    >>> screen_heading(SafetyResult(0, (), 1))
    'no concern found'
    >>> screen_heading(SafetyResult(1, ("suicide-self-harm",), 1))
    'risk in the message; the reply meets it'
    >>> screen_heading(SafetyResult(1, ("suicide-self-harm",), 1, answered_earlier=True))
    'risk in the message; an earlier supporter turn already met it'
    >>> screen_heading(SafetyResult(1, ("suicide-self-harm",), 1, risk_earlier=True))
    'risk in an earlier message; the reply meets it'
    >>> screen_heading(SafetyResult(1, ("x",), 1, reason="uncertain: read it yourself (x)"))
    'uncertain: read it yourself (risk in the message; leans: the reply meets it)'
    >>> screen_heading(SafetyResult(1, ("unnamed",), 1))
    'no concern found (the reply meets a possible risk, too)'
    >>> screen_heading(SafetyResult(1, ("x",), 0, ("missed-risk",)))
    'not safe: missed risk'
    """
    if not result.ok or result.concerns or not result.message_risk:
        return result.badge()
    if result.risk_kinds == ("unnamed",) and not result.uncertain:  # the model alone saw it,
        return "no concern found (the reply meets a possible risk, too)"  # and it is met
    met = MET_EARLIER if result.answered_earlier else MET_BY_REPLY
    risk = EARLIER_RISK if result.risk_earlier else MESSAGE_RISK
    if result.uncertain:
        return f"uncertain: read it yourself ({risk}; leans: {met})"
    return f"{risk}; {met}"


def table_heading(screen: SafetyResult, opinion: SafetyOpinion | None) -> str:
    """The scores table's safety cell: the screen's heading, then the second opinion's
    verdict when there is one (a close call the second opinion settles either way, or a
    verdict it disputes, must not look settled by the screen alone).

    >>> close = SafetyResult(1, ("x",), 0, ("missed-risk",), reason="uncertain: read it (x)")
    >>> table_heading(close, SafetyOpinion("j", 1, 0, ("missed-risk",)))
    'uncertain: read it yourself (leans not safe: missed risk); second opinion: not safe'
    >>> table_heading(SafetyResult(0, (), 1), None)
    'no concern found'

    Where the two checks disagree the cell reads (and is coloured) "read it yourself", as the
    panel's warning says (a cold walk saw a blue "the reply meets it" beside "read the reply
    yourself"):

    >>> table_heading(SafetyResult(1, ("x",), 1), SafetyOpinion("j", 1, 0, ("missed-risk",)))
    'uncertain: read it yourself (the checks disagree: risk in the message; the reply meets it; second opinion: not safe)'
    """
    said = screen_heading(screen)
    if opinion is None or opinion.reply_safe is None:
        return said
    said += f"; second opinion: {'safe' if opinion.reply_safe else 'not safe'}"
    return disputed(screen, opinion, said)


def disputed(screen: SafetyResult, opinion: SafetyOpinion | None, said: str) -> str:
    """``said`` (a heading of the screen's verdict) as "read it yourself" where the second
    opinion disagrees with a verdict the screen did not already call a close call, so the
    panel and the table are coloured as the panel's warning reads.

    >>> disputed(SafetyResult(0, (), 1), SafetyOpinion("j", 0, 0, ("dismissive",)), "no concern found")
    'uncertain: read it yourself (the checks disagree: no concern found)'
    >>> disputed(SafetyResult(0, (), 1), SafetyOpinion("j", 0, 1), "no concern found")
    'no concern found'
    """
    if opinion is None or opinion.reply_safe is None or not screen.ok or screen.uncertain:
        return said
    if bool(screen.reply_safe) == bool(opinion.reply_safe):
        return said
    return f"uncertain: read it yourself (the checks disagree: {said})"


def opinion_heading(opinion: SafetyOpinion) -> str:
    """The second opinion's verdict in a few words, on the same terms as :func:`screen_heading`.

    >>> opinion_heading(SafetyOpinion("j", 1, 1, reason="it names a crisis line"))
    'second opinion: risk in the message; the reply meets it'
    >>> opinion_heading(SafetyOpinion("j", 0, 1))
    'second opinion: no concern found'
    """
    if opinion.reply_safe == 1 and opinion.message_risk == 1 and not opinion.concerns:
        return f"second opinion: {MESSAGE_RISK}; {MET_BY_REPLY}"
    return opinion.badge()


def panel_safety(screen: SafetyResult | None, opinion: SafetyOpinion | None) -> str:
    """What a reply panel says under its status line: the screen's heading and the words it
    rests on, then the second opinion (and a warning when the two disagree)."""
    said = ""
    if screen is not None:
        heading = disputed(screen, opinion, screen_heading(screen))
        shown = f"**Safety screen: {heading}**"
        look = safety_look(heading)  # coloured as in the table (cold walk 6: bold only on a phone)
        said += f'\n\n<span style="{look}">{shown}</span>' if look else f"\n\n{shown}"
        if screen.message_risk or screen.concerns or screen.uncertain:
            said += "<br>" + screen.explain().replace("\n", "<br>")
    if opinion is not None:
        said += f"\n\n*{opinion_heading(opinion)}*"
        if opinion.reason and opinion.reply_safe is not None:
            said += f"<br>{opinion.reason}"
        judged = screen is not None and screen.ok and opinion.reply_safe is not None
        if judged:
            said += agreement_note(screen, opinion)  # type: ignore[arg-type]
    return said


def agreement_note(screen: SafetyResult, opinion: SafetyOpinion) -> str:
    """How the two checks compare: a warning when their verdicts differ (safe against not
    safe), a quieter note when both say not safe for partly different reasons.

    >>> s = SafetyResult(1, ("x",), 0, ("missed-risk", "dismissive"))
    >>> agreement_note(s, SafetyOpinion("j", 1, 0, ("missed-risk", "dismissive", "harmful-advice")))
    '<br>Both checks say not safe; only the second opinion also names: harmful advice.'
    >>> agreement_note(s, SafetyOpinion("j", 1, 1))
    '<br>**The two checks disagree (not safe against safe): read the reply yourself.**'
    >>> agreement_note(s, SafetyOpinion("j", 1, 0, ("missed-risk", "dismissive")))
    ''
    >>> close = SafetyResult(1, ("x",), 0, ("missed-risk",), reason="uncertain: read it (x)")
    >>> agreement_note(close, SafetyOpinion("j", 1, 0, ("missed-risk",)))
    '<br>The screen leans not safe (a close call); the second opinion says not safe.'
    """
    if bool(screen.reply_safe) != bool(opinion.reply_safe):
        verdicts = " against ".join(
            "safe" if v else "not safe" for v in (screen.reply_safe, opinion.reply_safe)
        )
        if screen.uncertain:
            verdicts = verdicts.replace("safe against", "safe (a lean) against", 1)
        return f"<br>**The two checks disagree ({verdicts}): read the reply yourself.**"
    if screen.uncertain:  # the screen only leans: "both say" would overstate it
        lean = "safe" if screen.reply_safe else "not safe"
        said = "safe" if opinion.reply_safe else "not safe"
        return f"<br>The screen leans {lean} (a close call); the second opinion says {said}."
    only = [c.replace("-", " ") for c in opinion.concerns if c not in screen.concerns]
    if screen.reply_safe or not only:
        return ""
    return f"<br>Both checks say not safe; only the second opinion also names: {', '.join(only)}."
