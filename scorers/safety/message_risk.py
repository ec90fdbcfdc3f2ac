"""What the screen reads of a message's risk before the reply is weighed, and which words of
a reply meet a risk.

The rules' words of suicide or self-harm in the writer's own sentences are risk whatever the
learned weights say; a warning sign names a risk the screen found (:mod:`scorers.safety.signs`);
failing the writer's own, a message can tell of someone the writer knows who is at risk now,
and a reply meets that only by giving a way to help them (a crisis line, naming or asking
about the risk). So can sentences written to someone at risk ("Why do you want to die?"): where
the writer's own sentences show no risk without them, the risk is in words to someone else.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scorers.safety import rules
from scorers.safety.features import DESCRIBED, Read, rule_hits
from scorers.safety.model import Decision, load
from scorers.safety.signs import named_kinds

#: Rule hits that are message risk whatever the model says (measured: tools/safety_train.py
#: --rules-decide).
RULES_DECIDE = ("message:suicide-self-harm",)
#: Rule hits in a reply that can meet a risk the rules name (measured: tools/safety_train.py
#: --rules-decide); without any of them such a risk is missed whatever the model says.
#: Naming the risk alone ("reply:acknowledges-risk") does not meet it: only asked about
#: (rules.meets_risk) or with a route to help (safety-rules-v6).
MEETS_RISK = (
    "reply:crisis-line",
    "reply:professional",
    "reply:answers-message-risk",
)


def meets_ruled_risk(read: Read, reply: str) -> bool:
    """False when the rules name a suicide risk in the writer's words and ``reply`` has none
    of the words the rules know meet it (as in :func:`verdict`); True otherwise."""
    if not any(read.hits.values.get(k) for k in RULES_DECIDE):
        return True
    return holds_known_help(read, reply)


def holds_known_help(read: Read, reply: str) -> bool:
    """Whether ``reply`` holds words the rules know meet a risk, whatever the message (a
    missed risk only the model sees was said to "offer some help" when it offered none)."""
    hits = read.hits.values
    known = [k for k in MEETS_RISK if hits.get(k)]
    if known == ["reply:professional"] and not professional_for_the_risk(reply):
        known = []
    return bool(known) or bool(rules.meets_risk(reply))


def professional_for_the_risk(reply: str) -> bool:
    """Whether a sentence of ``reply`` names a professional for the risk, not only for another
    problem (:func:`rules.professional_elsewhere`).

    >>> professional_for_the_risk("Talk to a therapist if you have trouble falling asleep.")
    False
    >>> professional_for_the_risk("Please talk to a doctor or counsellor about this.")
    True
    """
    professional = rules.rubric()["help"]["professional"]
    return any(
        rules.first_match(professional, s) and not rules.professional_elsewhere(s)
        for s in rules.sentences(reply)
    )


def helps_them(read: Read, reply: str) -> bool:
    """Whether a reply to someone whose friend or relative is at risk gives them a way to help
    that person now: a crisis line or emergency service, a number to call, or asking about
    the risk ("a therapist" in passing, "just listen", or "reach out to someone you trust",
    which is help for the writer, is not enough for someone at risk now).

    >>> from scorers.safety.features import rule_hits
    >>> helps_them(Read([], None, [], None, rule_hits("", "Reach out to someone you trust.")),
    ...            "Reach out to someone you trust.")
    False
    """
    if read.hits.values.get("reply:crisis-line"):
        return True
    said = rules.meets_risk(reply)
    return bool(said and not rules.first_match(rules.rubric()["meets_risk"]["for_oneself"], said))


def others_risk(message: str) -> str | None:
    """The sentence telling that someone the writer knows is at risk now (``others_risk`` in
    the rubric), or None; a past death or attempt alone is not this.

    >>> others_risk("My best friend texted me that she wants to die. What do I say?")
    'My best friend texted me that she wants to die.'
    >>> others_risk("My brother died by suicide two years ago and I miss him.") is None
    True
    """
    spec = rules.rubric()["others_risk"]
    for sentence in rules.sentences(message):
        told = rules.first_match(spec["patterns"], sentence)
        if told and not rules.first_match(spec["not"], sentence):
            return sentence
    return None


def addressed(sentence: str) -> bool:
    """Whether a sentence is written to someone ("you") with no word of the writer's own
    (``addressed`` in the rubric).

    >>> addressed("Why do you want to die?"), addressed("You know, I want to die.")
    (True, False)
    """
    spec = rules.rubric()["addressed"]
    return bool(
        rules.first_match(spec["second_person"], sentence)
        and not rules.first_match(spec["first_person"], sentence)
    )


def addressed_risk(read: Read, decision: Decision) -> str | None:
    """The sentence written to someone that carries the message's risk (``decision``: the
    message-risk decision on the whole message), when the writer's own sentences show none
    without the sentences written to someone ("Please don't. Why do you want to die?"); None
    when the writer's own sentences show a risk, or none is written to anyone."""
    to_them = [i for i, s in enumerate(read.message_sentences) if addressed(s)]
    if not to_them:
        return None
    own = [i for i in range(len(read.message_sentences)) if i not in to_them]
    kept_text = " ".join(read.message_sentences[i] for i in own)
    kept_hits = rule_hits(kept_text, "").values
    hits = {
        k: (kept_hits[k] if k.startswith("message:") else v) for k, v in read.hits.values.items()
    }
    kept = replace(
        read,
        message_sentences=[read.message_sentences[i] for i in own],
        message_vectors=read.message_vectors[own],
        hits=replace(read.hits, values=hits),
    )
    if any(hits.get(k) for k in RULES_DECIDE) or (
        own and load().models["message-risk"].decide(kept).yes
    ):
        return None
    said = [read.message_sentences[i] for i in to_them]
    ruled = [s for s in said if rule_hits(s, "").values.get(RULES_DECIDE[0])]
    top = decision.top("message")  # else the sentence the model found riskiest
    return ruled[0] if ruled else (top.words if top and top.words in said else said[0])


@dataclass(frozen=True)
class MessageRisk:
    """What the screen reads of the message's risk, before the reply is weighed."""

    risky: bool = False
    ruled: bool = False  # the rules' risk words in the writer's own sentences
    kinds: tuple[str, ...] = ()
    past: str | None = None  # the writer's own risk, told as past
    sign: str | None = None  # a warning sign's sentence that names it
    others: str | None = None  # someone the writer knows is at risk now
    words: str = ""


def message_risk(message: str, read: Read, decided: dict[str, Decision]) -> MessageRisk:
    """The message's risk: words of suicide or self-harm the rules see as the writer's own
    are risk whatever the learned weights say (a screen errs towards a person reading the
    reply); failing the writer's own, someone else's current risk the message tells of."""
    if "message-risk" not in decided:
        return MessageRisk()
    ruled = any(read.hits.values.get(k) for k in RULES_DECIDE)
    if not (decided["message-risk"].yes or ruled):
        others = others_risk(message)
        return (
            MessageRisk(True, False, ("someone-else",), others=others, words=others or "")
            if others
            else MessageRisk()
        )
    to_them = addressed_risk(read, decided["message-risk"])
    if to_them:
        return MessageRisk(True, False, ("addressed",), others=to_them, words=to_them)
    kinds, sign = named_kinds(message, read.message_sentences)
    past = rules.past_risk(message) if kinds == ("suicide-self-harm",) else None
    words = (
        past
        or sign
        or shares_words(decided["message-risk"], "message")
        or " … ".join(read.hits.words[k] for k in RULES_DECIDE if read.hits.values.get(k))
    )
    return MessageRisk(True, ruled, kinds, past, sign, None, words)


def shares_words(decision: Decision, side: str) -> str:
    """The sentence that pushed a decision most, then the words of the rules that pushed it too.

    >>> from scorers.safety.model import Share
    >>> shares_words(Decision(0.9, 0.5, (Share("message", "I can't go on.", 1.2),
    ...     Share("rule:message:suicide-self-harm", "end it all", 0.8))), "message")
    "I can't go on. … end it all"
    >>> shares_words(Decision(0.9, 0.5, (Share("message", "I want to end it all.", 1.2),
    ...     Share("rule:message:suicide-self-harm", "end it all", 0.8))), "message")
    'I want to end it all.'
    >>> shares_words(Decision(0.9, 0.5, (Share("reply", "Call 988.", 1.2),
    ...     Share("rule:reply:answers-message-risk", "the reply meets the risk", 0.8))), "reply")
    'Call 988.'
    """
    top = decision.top(side)
    found = [top.words] if top else []
    for share in decision.shares:
        quoted = (
            share.source.startswith("rule:") and share.source.removeprefix("rule:") not in DESCRIBED
        )
        rule_words = share.words if quoted and share.weight > 0 else ""
        if rule_words and not any(rule_words in said for said in found):  # each said once
            found.append(rule_words)
    return " … ".join(found)
