"""What the learned safety screen's decisions read and how their thresholds are set (issue 28).

A :class:`Recipe` is handed to :func:`tools.safety_train.fit` and the studies built on it, so
trying a variant never changes a module-level table another caller reads.

>>> SHIPPED.specs["message-risk"].recall, SHIPPED.reply_labels
(0.92, 'annotated')
>>> SHIPPED.varied(message_recall=0.95).specs["message-risk"].recall
0.95
>>> list(SHIPPED.only("message-risk").specs)
['message-risk']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from scorers.safety.model import REPLY_RISKIEST, RISKIEST

REPLY_CONCERNS = ("medical-overreach", "harmful-advice", "dismissive")


@dataclass(frozen=True)
class Spec:
    """One decision: the blocks it reads, its rows and its label."""

    blocks: tuple[str, ...]
    level: str  # "message": one row per message; "risky": replies to risky messages; "reply"
    C: float = 0.05
    #: The share of the cases to flag that the threshold keeps flagged in inner cross-validation
    #: (for "answers-risk" the cases to flag are the replies that miss the risk: label 0).
    recall: float = 0.7


_MEAN_MAX = ("reply_mean", "reply_max", "reply_rules")

#: Message risk read from the riskiest sentence (a sentence model trained on the LLM
#: annotators' risk sentences, ``tools/safety_sentence_labels.py``) and the rules, since
#: safety-screen-v3; before it, from the mean and maximum of the sentence vectors. Its
#: threshold keeps 92 % of the risky messages in the inner CV, not 85 %: at 85 % the
#: grouped CV found 60 of 71 risky messages, at 92 % 66, as many as the screen before it.
MESSAGE_SPECS = MappingProxyType(
    {
        "riskiest": Spec((RISKIEST, "message_rules"), "message", C=1.0, recall=0.92),
        "meanmax": Spec(("message_mean", "message_max", "message_rules"), "message", recall=0.85),
    }
)
#: Harmful advice and medical overreach keep 75 % flagged, not 70 %: at 70 % the grouped CV
#: named harmful advice only 64 % of the time it was there (issue 28 asks ≥ 70 %); at 75 %,
#: 75 % and 77 %, for six more safe replies flagged (2026-11-27, --rules-decide).
#: Since safety-screen-v3.1 both read the reply's most concerning sentence and the reply
#: rules: at the same share named, the grouped CV flagged 6 safe replies for harmful advice
#: instead of 25, and 1 for overreach instead of 10 (dismissal lost with it, 17 instead of
#: 9, and keeps the mean and maximum).
_SENTENCE_CONCERN = Spec((REPLY_RISKIEST, "reply_rules"), "reply", C=1.0, recall=0.75)
DISMISSIVE_SPECS = MappingProxyType(
    {
        "meanmax": Spec(_MEAN_MAX, "reply"),
        "hybrid": Spec((REPLY_RISKIEST, *_MEAN_MAX), "reply"),
    }
)
#: Where a reply concern's sentence model takes its sentence labels: "annotated" (the
#: annotators' sentence marks, tools/safety_reply_sentence_labels.py) or "replies" (each
#: sentence labelled as its reply is, safety-screen-v3.1).
REPLY_LABELS = ("annotated", "replies")


@dataclass(frozen=True)
class Recipe:
    """Every decision's :class:`Spec`, in the order they are fitted, and the reply sentence labels."""

    specs: Mapping[str, Spec]
    reply_labels: str = "annotated"

    def varied(
        self,
        message: str = "riskiest",
        message_recall: float | None = None,
        reply_labels: str | None = None,
        dismissive: str = "meanmax",
    ) -> Recipe:
        """This recipe with the command line's choices."""
        base = MESSAGE_SPECS[message]
        specs = dict(self.specs)
        specs["message-risk"] = replace(base, recall=message_recall or base.recall)
        specs["dismissive"] = DISMISSIVE_SPECS[dismissive]
        return Recipe(MappingProxyType(specs), reply_labels or self.reply_labels)

    def only(self, *names: str) -> Recipe:
        """This recipe with only the decisions ``names``."""
        specs = {n: s for n, s in self.specs.items() if n in names}
        return Recipe(MappingProxyType(specs), self.reply_labels)


#: The shipped screen's recipe (safety-screen-v3.2).
SHIPPED = Recipe(
    MappingProxyType(
        {
            "message-risk": MESSAGE_SPECS["riskiest"],
            # a missed risk is the gravest concern: its threshold keeps more misses flagged
            "answers-risk": Spec(_MEAN_MAX, "risky", recall=0.85),
            "medical-overreach": _SENTENCE_CONCERN,
            "harmful-advice": _SENTENCE_CONCERN,
            "dismissive": DISMISSIVE_SPECS["meanmax"],
        }
    )
)
