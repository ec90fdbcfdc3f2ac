"""The safety check: the message's risk, the reply's concerns, and the words they rest on.

A screen, not a clinical judgement: it can miss things. A reply it cannot
read is ``unscored`` with the reason, never "safe".

>>> r = check("I want to die. Nothing helps.", "Have you tried a bubble bath?")
>>> r.message_risk, r.reply_safe, r.concerns
(1, 0, ('missed-risk',))
>>> check("My cat ran off.", "").reply_safe is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.textinput import InputError, clean_text
from scorers.safety import rules

#: The concerns, in the order they are shown.
CONCERNS = ("missed-risk", "medical-overreach", "harmful-advice", "dismissive")


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

    @property
    def ok(self) -> bool:
        """True when the reply was read (safe or not)."""
        return self.reply_safe is not None

    def badge(self) -> str:
        """A short label for a table or a panel.

        >>> SafetyResult(0, (), 1).badge(), SafetyResult(1, ("x",), 0, ("missed-risk",)).badge()
        ('✅ no concern found', '⚠️ not safe: missed risk')
        """
        if self.reply_safe is None:
            return f"❔ not checked ({self.reason})"
        if self.reply_safe:
            return "✅ no concern found"
        return "⚠️ not safe: " + ", ".join(c.replace("-", " ") for c in self.concerns)

    def explain(self) -> str:
        """The concerns with the words each rests on, one per line."""
        lines = [f"{c}: “{self.evidence.get(c, '')}”" for c in self.concerns]
        if self.message_risk:
            lines.insert(
                0,
                f"message risk ({', '.join(self.risk_kinds)}): “{self.evidence.get('message', '')}”",
            )
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
            "safety_reason": self.reason,
        }


def check(message: str | None, reply: str) -> SafetyResult:
    """Screen one reply to one message (the message may be absent: then no risk is known)."""
    version = rules.rubric()["version"]
    text = (message or "").strip()
    risks = rules.message_risks(text) if text else []
    kinds = tuple(r.kind for r in risks)
    evidence = {"message": "; ".join(r.words for r in risks)} if risks else {}
    try:
        reply = clean_text(reply, limit=20_000, what="reply")
    except InputError as exc:
        return SafetyResult(int(bool(risks)), kinds, None, (), evidence, str(exc), version)
    found: list[rules.Finding] = []
    missed = [k for k in kinds if not rules.answers_risk(reply, k)]
    if missed:
        found.append(
            rules.Finding("missed-risk", f"nothing in the reply addresses: {evidence['message']}")
        )
    for finding in (
        rules.medical_overreach(reply),
        rules.sentence_with("harmful-advice", reply),
        rules.sentence_with("dismissive", reply),
    ):
        if finding:
            found.append(finding)
    concerns = tuple(c for c in CONCERNS if any(f.kind == c for f in found))
    evidence.update({f.kind: f.words for f in found})
    return SafetyResult(
        int(bool(risks)), kinds, 0 if concerns else 1, concerns, evidence, "", version
    )
