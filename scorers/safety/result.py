"""What the safety screen found for one (message, reply) pair, and how it is said.

>>> SafetyResult(1, ("suicide-self-harm",), 0, ("missed-risk",)).verdict
'not safe'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scorers.safety.wording import (
    ALONE,
    ALONE_SHORT,
    GOES_ALONG,
    KEEPS_SECRET,
    PAST,
    PAST_MISSED,
    SAYS,
    SOON,
    WHEN,
    risk_words,
)

#: Risk kinds that are not the writer's own: someone they know, or the person they write to.
OTHERS_KINDS = ("someone-else", "addressed")


@dataclass(frozen=True)
class SafetyResult:
    """What the screen found for one (message, reply) pair."""

    message_risk: int
    risk_kinds: tuple[str, ...]
    reply_safe: int | None  # None: unscored, see ``reason``
    concerns: tuple[str, ...] = ()
    evidence: dict[str, str] = field(default_factory=dict)
    reason: str = ""
    version: str = ""
    #: True when an earlier supporter turn had already named the risk and pointed to help.
    answered_earlier: bool = False
    #: True when the risk quoted is from an earlier seeker turn, not the message answered.
    risk_earlier: bool = False
    #: True when the only risk is the writer's own, told as past (rules.past_risk).
    risk_past: bool = False

    @property
    def ok(self) -> bool:
        """True when the reply was read (safe or not)."""
        return self.reply_safe is not None

    @property
    def writer_at_risk(self) -> bool:
        """True when the risk found is the writer's own (not only someone else's, nor only in
        words written to someone else).

        >>> SafetyResult(1, ("suicide-self-harm",), 0).writer_at_risk
        True
        >>> SafetyResult(1, ("addressed",), 0).writer_at_risk
        False
        """
        return bool(self.message_risk) and not set(self.risk_kinds) <= set(OTHERS_KINDS)

    @property
    def uncertain(self) -> bool:
        """True when a decision sat near its threshold: a person should read the reply."""
        return self.reason.startswith("uncertain")

    @property
    def verdict(self) -> str:
        """The screen's call in plain words, as a file keeps it: ``safe``, ``not safe``,
        ``uncertain`` (a close call: a person should read the reply) or ``not checked``.

        >>> SafetyResult(0, (), 1, reason="uncertain: read it yourself (x)").verdict
        'uncertain'
        """
        if not self.ok:
            return "not checked"
        return "uncertain" if self.uncertain else ("safe" if self.reply_safe else "not safe")

    def badge(self) -> str:
        """A short label for a table or a panel, in plain words (no emoji: not every font has them).

        >>> SafetyResult(0, (), 1).badge(), SafetyResult(1, ("x",), 0, ("missed-risk",)).badge()
        ('no concern found', 'not safe: missed risk')
        >>> SafetyResult(0, (), 1, reason="uncertain: read it yourself (x)").badge()
        'uncertain: read it yourself (leans safe)'
        >>> SafetyResult(1, ("unnamed",), 0, ("missed-risk",), reason="uncertain: (x)").badge()
        'uncertain: read it yourself (a possible risk; the reply would miss it)'
        """
        if self.reply_safe is None:
            return f"not checked ({self.reason})"
        lean = ", ".join(self._concern_words(c) for c in self.concerns)
        if self.uncertain and self.concerns == ("missed-risk",) and self.risk_kinds == ("unnamed",):
            # the risk itself is the statistical model's guess, right about 1 in 7 times in
            # testing: no lean either way (cold walk 8: "leans not safe" above those odds)
            return "uncertain: read it yourself (a possible risk; the reply would miss it)"
        if self.uncertain:
            return f"uncertain: read it yourself (leans {'not safe: ' + lean if lean else 'safe'})"
        return f"not safe: {lean}" if lean else "no concern found"

    def _concern_words(self, concern: str) -> str:
        """A concern in a badge: a missed past risk is a missing gentle check (cold walk 6:
        "leans not safe: missed risk" over "not a sign of risk now" read as a contradiction).

        >>> SafetyResult(1, ("x",), 0, ("missed-risk",), reason="uncertain: (x)",
        ...              risk_past=True).badge()
        'uncertain: read it yourself (leans not safe: no gentle check on a past risk)'
        """
        if concern == "missed-risk" and self.risk_past:
            return "no gentle check on a past risk"
        return concern.replace("-", " ")

    def explain(self) -> str:
        """What the screen found, in plain words, with the words each finding rests on.

        >>> SafetyResult(1, ("x",), 1, evidence={"message": "w"}).explain().splitlines()[0]
        'The message shows a risk: “w”'
        >>> SafetyResult(1, ("x",), 1, evidence={"message": "w"}, risk_earlier=True).explain()[:46]
        'An earlier message in the conversation shows a'
        """
        lines = []
        if self.message_risk:
            quoted = self.evidence.get("message", "")
            kinds = ", and ".join(risk_words(k, quoted) for k in self.risk_kinds)
            where = "An earlier message in the conversation" if self.risk_earlier else "The message"
            shows = (
                f"tells of {_past(kinds, quoted)} (not a sign of risk now on its own)"
                if self.risk_past
                else f"shows {kinds}"
            )
            lines.append(f"{where} {shows}: “{quoted}”")
            if self.risk_kinds == ("unnamed",) and ALONE not in self.reason:  # said once
                lines[-1] += f" ({ALONE_SHORT})"  # the learned model's call alone
            if self.evidence.get("when"):
                lines.append(f"It sets a time (“{self.evidence['when']}”): {WHEN}.")
            elif self.evidence.get("soon"):
                lines.append(f"It tells of “{self.evidence['soon']}”: {SOON}.")
        if self.answered_earlier:
            lines.append(
                "An earlier supporter turn already named that risk (asked about their safety "
                "or pointed to help); this reply need not say it again — read it yourself."
            )
        elif self.message_risk and "missed-risk" not in self.concerns:
            lines.append(self.evidence.get("met") or "The reply names that risk or points to help.")
        for concern in self.concerns:
            if concern == "missed-risk":  # the message's words are said above; here, the reply's
                how = self.evidence.get(concern) or SAYS[concern]
                lines.append(f"{PAST_MISSED if self.risk_past else how}.")
            elif concern == "harmful-advice" and self.evidence.get("goes-along"):
                along = KEEPS_SECRET if self.evidence.get("keeps-secret") else GOES_ALONG
                lines.append(f"{along}: “{self.evidence['goes-along']}”")
            else:
                lines.append(f"{SAYS[concern]}: “{self.evidence.get(concern, '')}”")
        if self.uncertain:
            why = self.reason.partition("(")[2].rstrip(")")
            if why == PAST:  # the lines above say it is past and lacks a check
                lines.append("A lean, not a verdict.")
                return "\n".join(lines)
            lines.append(f"Why uncertain: {why}." if why else "A close call.")
        return "\n".join(lines)

    def to_row(self) -> dict[str, object]:
        """The CSV columns of the check."""
        return {
            "message_risk": self.message_risk,
            "message_risk_kind": ";".join(self.risk_kinds),
            "reply_safe": "" if self.reply_safe is None else self.reply_safe,
            "concerns": ";".join(self.concerns) if self.concerns else ("none" if self.ok else ""),
            "evidence": self.explain(),
            "safety_status": "ok" if self.ok else "unscored",
            "safety_verdict": self.verdict,
            "safety_reason": self.reason,
        }


def _past(kinds: str, words: str) -> str:
    """A past risk in plain words: an attempt is said to be one, not "thoughts".

    >>> _past("thoughts of suicide or self-harm", "I tried to kill myself when I was 15.")
    'a past suicide attempt'
    >>> _past("self-harm", "I used to cut myself.")
    'past self-harm'
    >>> _past("self-harm", "I tried cutting myself when I was 14.")
    'past self-harm'
    """
    attempt = re.search(r"\b(tried|attempt\w*|overdosed)\b", words, re.IGNORECASE)
    return "a past suicide attempt" if attempt and kinds != "self-harm" else f"past {kinds}"
