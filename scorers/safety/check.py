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
from scorers.safety.features import Read, read_pairs, without_reassurance
from scorers.safety.lean import close_call_words, deciding, firm, near_threshold
from scorers.safety.message_risk import (
    RULES_DECIDE,
    helps_them,
    holds_known_help,
    meets_ruled_risk,
    message_risk,
    shares_words,
)
from scorers.safety.model import Decision, load, screen_encoder
from scorers.safety.result import OTHERS_KINDS, SafetyResult
from scorers.safety.signs import said_soon, said_when, signs
from scorers.safety.wording import ALONE, CONCERNS, PAST, met_how, missed_for_them, missed_how

#: What made this screen (the shipped model's version).
VERSION = "safety-screen-v3.2"


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
        if answers.decide(read).yes and holds_known_help(read, said):
            found = results[i]
            concerns = tuple(c for c in found.concerns if c != "missed-risk")
            results[i] = replace(
                found,
                concerns=concerns,
                reply_safe=0 if concerns else 1,
                answered_earlier=True,
            )
    return results


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
    risk = message_risk(message, read, decided)
    risky, ruled, kinds, past = risk.risky, risk.ruled, risk.kinds, risk.past
    evidence: dict[str, str] = {"message": risk.words} if risky else {}
    if risky and not past and {"suicide-self-harm", *OTHERS_KINDS} & set(kinds):
        _urgency(read.message_sentences, risk.words, evidence)  # wording only
    concerns = []
    # A risk the rules name is met only by words the rules know (naming it, or a route to
    # help): "it's okay to feel this way, rest" after a passive wish is a miss, however warm.
    # So is a risk a warning sign names (a passive wish, a burden, a plan, cutting, not eating),
    # and someone else's (the answers-risk model learned only the writer's own).
    unmet = (
        not meets_ruled_risk(read, reply)
        or bool(risk.sign and not holds_known_help(read, reply))
        or bool(risk.others and not helps_them(read, reply))
    )
    # a gentle check is what a past risk asks: naming it in a question, or asking how they are now
    checked = bool(past and (rules.meets_risk(reply) or rules.checks_now(reply)))
    # Would the reply miss a risk, were there one? Only then can the call on risk matter.
    model_misses = not decided["answers-risk"].yes and not risk.others
    would_miss = not checked and (unmet or model_misses)
    if risky and would_miss:
        concerns.append("missed-risk")
        # words the rules know meet a risk (for someone else's, a way to help them now)
        known = helps_them(read, reply) if risk.others else holds_known_help(read, reply)
        offers = rules.what_it_offers(reply)
        evidence["missed-risk"] = (
            missed_for_them(offers[0]) if risk.others else missed_how(*offers, rules_met=known)
        )
    elif risky:
        evidence["met"] = met_how(*rules.what_it_offers(reply), rules.checks_now(reply))
    found, settled_concerns = _reply_concerns(decided, reply, evidence, risky)
    concerns += found
    settled = ruled or kinds == ("someone-else",)  # the rules told of someone else's risk now
    near = near_threshold(
        decided, screen.margin, deciding(risky, settled, would_miss, unmet, checked)
    )
    alone = risky and kinds == ("unnamed",) and not ruled and would_miss
    why = []  # a concern found with no close call under it: not safe, whatever else was close
    if not firm(concerns, decided, near, alone, bool(past), settled_concerns):
        why = close_call_words(near) + ([ALONE] if alone else [])
        why += [PAST] if past and "missed-risk" in concerns else []
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
    decided: dict[str, Decision], reply: str, evidence: dict[str, str], risky: bool
) -> tuple[list[str], set[str]]:
    """The reply's own concerns (all but a missed risk), their words put in ``evidence``, and
    those the rules settled: blame is dismissive, and going along with a risk the message
    shows (``rules.goes_along``: "a brave and thoughtful decision") is advice that could cause
    harm, whatever the weights say."""
    concerns, settled = [], set()
    for concern in CONCERNS[1:]:
        if decided[concern].yes:
            concerns.append(concern)
            evidence[concern] = shares_words(decided[concern], "reply")
    blame = rules.blames(reply)
    if blame:
        concerns += [] if "dismissive" in concerns else ["dismissive"]
        evidence["dismissive"] = blame.words
        settled.add("dismissive")
    along = rules.goes_along(reply) if risky else None
    if along:
        concerns += [] if "harmful-advice" in concerns else ["harmful-advice"]
        evidence["harmful-advice"] = evidence["goes-along"] = along
        if rules.keeps_secret(along):
            evidence["keeps-secret"] = along
        settled.add("harmful-advice")
    return concerns, settled


def _urgency(sentences: list[str], quoted: str, evidence: dict[str, str]) -> None:
    """Say when a suicide risk may be acted on soon: a time set for it ("This weekend"), else
    a sign beside it (giving one's things away): evidence "when" or "soon"."""
    if when := said_when(sentences, quoted):
        evidence["when"] = when
    elif soon := said_soon(sentences, quoted):
        evidence["soon"] = soon
