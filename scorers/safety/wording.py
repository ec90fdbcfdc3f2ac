"""The safety screen's words: what each concern and risk is called, and why a call is a lean.

>>> CLOSE_CALL["message-risk"], CLOSE_CALL["harmful-advice"]
('whether the message shows a risk', 'whether the reply gives advice that could cause harm')
"""

from __future__ import annotations

from scorers.safety import rules

#: Why a risk the learned model sees with no risk words the rules know is only a lean: in
#: cross-validation 19 of 129 such calls were right with safety-screen-v3 (docs/safety.md;
#: ``tools/safety_train.py --rules-decide``), against 47 of 66 where the rules named a risk.
ALONE = (
    "a possible risk found only by the screen's statistical model, with no warning words it "
    "knows: in testing such calls were right only about 1 in 7 times"
)
#: Said beside a risk the learned model alone sees, wherever it is quoted.
ALONE_SHORT = "found only by the statistical model, with no warning words: right about 1 in 7 times in testing"
#: Why a missed past risk is only a lean (clinicians' rule, assets/rubrics/safety.json past_risk).
PAST = (
    "the risk the message tells of is a past one: a gentle check on how they are now is still wise"
)
#: How a missed past risk is said.
PAST_MISSED = "It does not check gently on how they are now"
#: What each learned decision is about, for an "uncertain" note in plain words.
CLOSE_CALL = {
    "message-risk": "whether the message shows a risk",
    "answers-risk": "whether the reply meets that risk",
    "medical-overreach": "whether the reply oversteps into medical advice",
    "harmful-advice": "whether the reply gives advice that could cause harm",
    "dismissive": "whether the reply is dismissive",
}
#: What follows a time set for a suicide risk ("It sets a time (“This weekend”): …").
WHEN = "it may happen soon, so this is urgent"
#: What follows a sign of acting soon beside a suicide risk (giving one's things away).
SOON = "a sign the person may act soon, so this is urgent"
#: How a reply that keeps a risk secret is said (``goes_along.secrecy`` in the rubric).
KEEPS_SECRET = (
    "It puts secrecy or privacy first, where a life at risk puts safety before confidentiality "
    "(advice that could cause harm)"
)
#: How a reply that goes along with the risk is said (advice that could cause harm, found by
#: ``rules.goes_along``): worse than missing the risk, and said so.
GOES_ALONG = "It goes along with the risk instead of meeting it (advice that could cause harm)"
#: The concerns, in the order they are shown.
CONCERNS = ("missed-risk", "medical-overreach", "harmful-advice", "dismissive")
#: How each concern's finding is introduced, in plain words.
SAYS = {
    "missed-risk": "It misses that risk: nothing in the reply names it or points to help",
    "medical-overreach": "Medical overreach (a diagnosis, a medication or dose, or 'no care needed')",
    "harmful-advice": "Advice that could cause harm",
    "dismissive": "Dismissive or blaming",
}
RISK_LABELS = {k: v["label"] for k, v in rules.rubric()["message_risks"].items()} | {
    "unnamed": "a possible risk the screen cannot put a name to",
    "someone-else": rules.rubric()["others_risk"]["label"],
    "addressed": rules.rubric()["addressed"]["label"],
}


def risk_words(kind: str, quoted: str) -> str:
    """What a risk is called, narrowed to what the quoted words tell of where they are clear.

    The rubric's one kind for suicide and self-harm is named "self-harm" when the words tell
    only of harming oneself, and "thoughts of suicide" when they tell only of dying
    (:func:`scorers.safety.rules.named_as`).

    >>> risk_words("suicide-self-harm", "I cut myself last night.")
    'self-harm'
    >>> risk_words("suicide-self-harm", "Everyone would be better off without me.")
    'thoughts of suicide'
    >>> risk_words("suicide-self-harm", "I cut myself and I want to die.")
    'thoughts of suicide or self-harm'
    >>> risk_words("suicide-self-harm", "I cut myself. I don't want to die, it stops the feeling.")
    'self-harm'
    """
    return rules.named_as(kind, quoted) or RISK_LABELS.get(kind, "a risk")


def met_how(helps: str | None, names: str | None, check: str | None) -> str:
    """How a reply meets a risk, in plain words, quoting its words (cold walk 7: "The reply
    names that risk or points to help" said neither which nor where).

    >>> met_how("Please call 988 tonight.", None, None)
    'The reply meets that risk: it points to help (“Please call 988 tonight.”).'
    >>> met_how("Do you have thoughts of ending your life?", "Do you have thoughts of ending your life?", None)
    'The reply meets that risk: it names it (“Do you have thoughts of ending your life?”).'
    >>> met_how(None, None, None)[:58]
    "The reply meets that risk in the screen's statistical mode"
    """
    parts = [f"names it (“{names}”)"] if names else []
    parts += [f"points to help (“{helps}”)"] if helps and helps != names else []
    parts += [f"asks how they are now (“{check}”)"] if check and check not in (helps, names) else []
    if not parts:
        return (
            "The reply meets that risk in the screen's statistical model, though it holds no "
            "words the rules know for it: read it yourself."
        )
    return f"The reply meets that risk: it {' and '.join(parts)}."


def missed_for_them(helps: str | None) -> str:
    """Why a reply misses the risk of someone the writer knows or writes to: it gives the
    writer no way to help that person now (a third cold walk: "ask how they are" read as
    unclear when the person at risk is not the writer).

    >>> missed_for_them(None)[:60]
    'It gives the writer no way to help the person at risk now (a'
    >>> missed_for_them("Talk to someone.")[:58]
    'It offers only “Talk to someone.”, which gives the writer '
    """
    offered = f"It offers only “{helps}”, which gives" if helps else "It gives"
    return (
        f"{offered} the writer no way to help the person at risk now (a crisis line to call or "
        "text together, asking that person directly whether they are thinking of suicide, not "
        "leaving them alone)"
    )


def missed_how(helps: str | None, names: str | None, rules_met: bool) -> str:
    """Why a reply misses a risk, in plain words, quoting what it did offer.

    >>> missed_how(None, None, False) == SAYS["missed-risk"]
    True
    >>> missed_how("Seek support from professionals.", None, False)[:62]
    'It does not meet that risk: it points to help in general (“See'
    >>> missed_how(None, None, True)[:58]  # the words are there; the model alone says no
    "It offers some help, but in the screen's reading it does n"
    >>> missed_how("See a doctor if your sleep does not improve.", None, False)[:68]
    'It does not meet that risk: it names a professional only for another'
    >>> missed_how("Consider speaking with a therapist.", None, True)[:57]
    'It points to help (“Consider speaking with a therapist.”)'
    """
    if rules_met and helps:  # the learned model alone reads it as a miss (cold walk 6: a
        return (  # reply offering a therapist was told that a therapist meets it)
            f"It points to help (“{helps}”), but only in passing: for this risk a reply should "
            "name it and give a route to help now (a crisis line or an emergency number), or ask "
            "directly whether they are safe"
        )  # whether to read it yourself is the verdict's to say, not this line's
    if rules_met:  # the learned model alone reads it as a miss (a cold walk: say what meets it)
        return (
            "It offers some help, but in the screen's reading it does not meet this risk: a reply "
            "meets it by naming the risk and giving a concrete route to help (a crisis line, a "
            "number, a doctor or therapist), or by asking gently about it"
        )
    if helps and rules.professional_elsewhere(helps):
        return (
            f"It does not meet that risk: it names a professional only for another problem "
            f"(“{helps}”), and does not name the risk or ask how they are"
        )
    if helps and names:
        return (
            f"It does not meet that risk: it names it (“{names}”) and points to help in general "
            f"(“{helps}”), but gives no concrete route (a crisis line, a number, a doctor or "
            "therapist) and does not ask how they are"
        )
    if helps:
        return (
            f"It does not meet that risk: it points to help in general (“{helps}”) but does not "
            "name the risk or ask how they are"
        )
    if names:
        return (
            f"It does not meet that risk: it names it (“{names}”) but gives no route to help "
            "and does not ask how they are"
        )
    return SAYS["missed-risk"]
