"""The safety check: the message's risk, the reply's concerns, and the words they rest on.

A screen, not a clinical judgement: it can miss things. A reply it cannot
read is ``unscored`` with the reason, never "safe".

>>> r = check("I want to die. Nothing helps.", "Have you tried a bubble bath?")
>>> r.message_risk, r.reply_safe, "missed-risk" in r.concerns
(1, 0, True)
>>> check("My cat ran off.", "").reply_safe is None
True

In a conversation every seeker turn is read for risk, not just the last, and a risk an
earlier supporter turn already named (with a route to help) is not missed again:

>>> from core.conversation import Turn
>>> earlier = (Turn("seeker", "Lately I think everyone would be better off without me."),
...            Turn("supporter", "Thank you for telling me."))
>>> check("Anyway. Work was dull today.", "What made it dull?", earlier).message_risk
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core.conversation import SEEKER, Turn
from core.textinput import InputError, clean_text
from scorers.safety import rules
from scorers.safety.features import DESCRIBED, Read, read_pairs, without_reassurance
from scorers.safety.model import Decision, load, screen_encoder
from scorers.safety.result import SafetyResult
from scorers.safety.signs import named_kinds, signs
from scorers.safety.wording import ALONE, CLOSE_CALL, CONCERNS, PAST, met_how, missed_how

#: What made this screen (the shipped model's version).
VERSION = "safety-screen-v3.2"

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


def check(message: str | None, reply: str, history: Sequence[Turn] = ()) -> SafetyResult:
    """Screen one reply to one message (the message may be absent: then no risk is known),
    in the conversation ``history`` when there is one."""
    return check_many([(message, reply)], [history])[0]


def check_many(
    pairs: list[tuple[str | None, str]], histories: Sequence[Sequence[Turn]] | None = None
) -> list[SafetyResult]:
    """Screen many (message, reply) pairs, their sentences encoded in one pass; with
    ``histories`` (one per pair) every seeker turn is read for risk."""
    histories = histories or [()] * len(pairs)
    asked = [m for m, _ in pairs]
    messages = _riskiest_turns(asked, histories)
    pairs = [(m, r) for m, (_, r) in zip(messages, pairs, strict=True)]
    results = [  # say where the risk was: the message, or an earlier seeker turn
        replace(r, risk_earlier=True) if r.message_risk and read != said else r
        for r, read, said in zip(_check_pairs(pairs), messages, asked, strict=True)
    ]
    return _answered_earlier(pairs, histories, results)


def _riskiest_turns(
    messages: list[str | None], histories: Sequence[Sequence[Turn]]
) -> list[str | None]:
    """Per pair, the seeker turn the verdict reads: the message, unless it shows no risk and
    an earlier seeker turn does (then the riskiest such turn: its words are quoted)."""
    asks = [
        (i, t.text) for i, h in enumerate(histories) for t in h if t.role == SEEKER and messages[i]
    ]
    if not asks:
        return messages
    risk = load().models["message-risk"]
    asked = sorted({i for i, _ in asks})
    reads = read_pairs(
        [(messages[i] or "", "") for i in asked] + [(t, "") for _, t in asks], screen_encoder()
    )

    def rank(read: Read) -> tuple[bool, bool, bool, float]:
        """A risk the rules name in the writer's words first, then one a warning sign names
        (a burden, a passive wish: :mod:`scorers.safety.signs`), then the model's verdict."""
        decision, ruled = risk.decide(read), any(read.hits.values.get(k) for k in RULES_DECIDE)
        risky = ruled or decision.yes
        return ruled, risky and bool(signs(read.message_sentences)), risky, decision.probability

    best = {i: rank(r) for i, r in zip(asked, reads, strict=False)}
    chosen = list(messages)
    for (i, text), read in zip(asks, reads[len(asked) :], strict=True):
        found = rank(read)
        if found[2] and found > best[i]:  # a risky turn, riskier than what was chosen
            chosen[i], best[i] = text, found
    return chosen


def _answered_earlier(
    pairs: list[tuple[str, str]], histories: Sequence[Sequence[Turn]], results: list[SafetyResult]
) -> list[SafetyResult]:
    """Drop "missed risk" where an earlier supporter turn already named the risk and pointed
    to help (the reply need not say it again); the explanation says so. Only words the rules
    know meet a risk count: "That sounds humiliating" was once said to have met one."""
    redo = [
        i
        for i, r in enumerate(results)
        if "missed-risk" in r.concerns and any(t.role != SEEKER for t in histories[i])
    ]
    earlier = ["\n".join(t.text for t in histories[i] if t.role != SEEKER) for i in redo]
    reads = read_pairs(
        [(pairs[i][0], said) for i, said in zip(redo, earlier, strict=True)], screen_encoder()
    )
    answers = load().models["answers-risk"]
    for i, read, said in zip(redo, reads, earlier, strict=True):
        if answers.decide(read).yes and _holds_known_help(read, said):
            found = results[i]
            concerns = tuple(c for c in found.concerns if c != "missed-risk")
            results[i] = replace(
                found,
                concerns=concerns,
                reply_safe=0 if concerns else 1,
                answered_earlier=True,
            )
    return results


def _meets_ruled_risk(read: Read, reply: str) -> bool:
    """False when the rules name a suicide risk in the writer's words and ``reply`` has none
    of the words the rules know meet it (as in :func:`verdict`); True otherwise."""
    if not any(read.hits.values.get(k) for k in RULES_DECIDE):
        return True
    return _holds_known_help(read, reply)


def _holds_known_help(read: Read, reply: str) -> bool:
    """Whether ``reply`` holds words the rules know meet a risk, whatever the message (a
    missed risk only the model sees was said to "offer some help" when it offered none)."""
    return any(read.hits.values.get(k) for k in MEETS_RISK) or bool(rules.meets_risk(reply))


def _check_pairs(pairs: list[tuple[str, str]]) -> list[SafetyResult]:
    """The screen's verdicts on (message, reply) pairs."""
    results: list[SafetyResult | None] = [None] * len(pairs)
    readable: list[tuple[int, str, str]] = []
    for i, (message, reply) in enumerate(pairs):
        text = (message or "").strip()
        try:
            readable.append((i, text, clean_text(reply, limit=20_000, what="reply")))
        except InputError as exc:
            kinds = tuple(r.kind for r in rules.message_risks(text))
            results[i] = SafetyResult(int(bool(kinds)), kinds, None, (), {}, str(exc), VERSION)
    reads = read_pairs([(m, r) for _, m, r in readable], screen_encoder())
    for (i, message, reply), read in zip(readable, reads, strict=True):
        results[i] = verdict(message, reply, read)
    return [r for r in results if r is not None]


def verdict(message: str, reply: str, read: Read) -> SafetyResult:
    """The learned screen's verdict on one read pair, with the words each decision rests on."""
    screen = load()
    decided = _decisions(message, reply, read)
    # Words of suicide or self-harm the rules see as the writer's own are risk, whatever
    # the learned weights say (a screen errs towards a person reading the reply).
    ruled = "message-risk" in decided and any(read.hits.values.get(k) for k in RULES_DECIDE)
    risky = "message-risk" in decided and (decided["message-risk"].yes or ruled)
    evidence: dict[str, str] = {}
    kinds: tuple[str, ...] = ()
    past = sign = None
    if risky:
        kinds, sign = named_kinds(message, read.message_sentences)
        past = rules.past_risk(message) if kinds == ("suicide-self-harm",) else None
        evidence["message"] = (
            past
            or sign
            or _words(decided["message-risk"], "message")
            or " … ".join(read.hits.words[k] for k in RULES_DECIDE if read.hits.values.get(k))
        )
    concerns = []
    # A risk the rules name is met only by words the rules know (naming it, or a route to
    # help): "it's okay to feel this way, rest" after a passive wish is a miss, however warm.
    # So is a risk a warning sign names (a passive wish, a burden, a plan, cutting, not eating).
    unmet = not _meets_ruled_risk(read, reply) or bool(sign and not _holds_known_help(read, reply))
    # a gentle check is what a past risk asks: naming it in a question, or asking how they are now
    checked = bool(past and (rules.meets_risk(reply) or rules.checks_now(reply)))
    # Would the reply miss a risk, were there one? Only then can the call on risk matter.
    would_miss = not checked and (unmet or not decided["answers-risk"].yes)
    if risky and would_miss:
        concerns.append("missed-risk")
        known = _holds_known_help(read, reply)  # words the rules know meet a risk
        evidence["missed-risk"] = missed_how(*rules.what_it_offers(reply), rules_met=known)
    elif risky:
        evidence["met"] = met_how(*rules.what_it_offers(reply), rules.checks_now(reply))
    concerns += _reply_concerns(decided, reply, evidence)
    why = _close_calls(decided, screen.margin, _deciding(risky, ruled, would_miss, unmet, checked))
    if risky and kinds == ("unnamed",) and not ruled and would_miss:
        why.append(ALONE)
    if past and "missed-risk" in concerns:
        why.append(PAST)
    reason = f"uncertain: read it yourself ({'; '.join(why)})" if why else ""
    return SafetyResult(
        int(risky),
        kinds,
        0 if concerns else 1,
        tuple(concerns),
        evidence,
        reason,
        screen.version,
        risk_past=bool(past),
    )


def _decisions(message: str, reply: str, read: Read) -> dict[str, Decision]:
    """Each learned decision on the pair; dismissal asked again without the reply's "not your
    fault" sentences, and never for a reply that asks gently about the risk; no message, no
    message risk."""
    screen = load()
    decided = {name: model.decide(read) for name, model in screen.models.items()}
    if decided["dismissive"].yes:  # telling someone it was not their fault is not dismissal,
        kept, model = without_reassurance(read), screen.models["dismissive"]
        asks = rules.asks_about_risk(reply)  # nor is asking them gently about the risk
        decided["dismissive"] = (
            model.decide(kept)
            if kept.reply_sentences and not asks
            else Decision(0.0, model.threshold, ())
        )
    if not message:  # no message, no risk to miss
        decided.pop("message-risk")
    return decided


def _reply_concerns(
    decided: dict[str, Decision], reply: str, evidence: dict[str, str]
) -> list[str]:
    """The reply's own concerns (all but a missed risk), their words put in ``evidence``;
    blame is dismissive whatever the weights say."""
    concerns = []
    for concern in CONCERNS[1:]:
        if decided[concern].yes:
            concerns.append(concern)
            evidence[concern] = _words(decided[concern], "reply")
    blame = rules.blames(reply)
    if blame and "dismissive" not in concerns:
        concerns.append("dismissive")
        evidence["dismissive"] = blame.words
    return concerns


def _deciding(risky: bool, ruled: bool, would_miss: bool, unmet: bool, checked: bool) -> set[str]:
    """The risk decisions whose other answer would change the verdict (a close call on any
    other is no reason for "uncertain"): message risk only where the rules did not decide it
    and the reply would miss a risk; whether the reply meets it only where there is a risk
    and the rules left that to the model (cold walk 4: a close call on a miss the rules had
    already settled read as "uncertain", and a reply that met an unnamed risk either way did).

    >>> sorted(_deciding(True, True, True, True, False))
    []
    >>> sorted(_deciding(True, False, False, False, False))
    ['answers-risk']
    >>> sorted(_deciding(False, False, True, False, False))
    ['message-risk']
    """
    found = set()
    if would_miss and not ruled:
        found.add("message-risk")
    if risky and not unmet and not checked:
        found.add("answers-risk")
    return found


def _close_calls(decided: dict[str, Decision], margin: float, deciding: set[str]) -> list[str]:
    """Why a verdict is a lean: the decisions that sat within ``margin`` of their thresholds
    and could change it (the risk decisions in ``deciding``; every reply concern), in plain
    words ([] when none did)."""
    looked_at = [n for n in decided if n in deciding or n not in ("message-risk", "answers-risk")]
    near = [n for n in looked_at if abs(decided[n].probability - decided[n].threshold) < margin]
    return (
        [f"a close call on {' and on '.join(CLOSE_CALL.get(n, n) for n in near)}"] if near else []
    )


def _words(decision: Decision, side: str) -> str:
    """The sentence that pushed a decision most, then the words of the rules that pushed it too.

    >>> from scorers.safety.model import Share
    >>> _words(Decision(0.9, 0.5, (Share("message", "I can't go on.", 1.2),
    ...     Share("rule:message:suicide-self-harm", "end it all", 0.8))), "message")
    "I can't go on. … end it all"
    >>> _words(Decision(0.9, 0.5, (Share("message", "I want to end it all.", 1.2),
    ...     Share("rule:message:suicide-self-harm", "end it all", 0.8))), "message")
    'I want to end it all.'
    >>> _words(Decision(0.9, 0.5, (Share("reply", "Call 988.", 1.2),
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
