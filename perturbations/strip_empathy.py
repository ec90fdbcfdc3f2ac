"""Control: the empathy stripped out, the advice kept. Scores should fall.

Sentences that carry understanding or warmth (reflections, validation,
sympathy, presence) are removed; sentences that give advice, steps or
resources stay. A sentence that does both is kept only if it is mainly
advice. If nothing is left, the variant is empty and scorers mark it
unscored rather than inventing text.

>>> StripEmpathy()("I'm so sorry you're going through this. It makes sense you feel lost. "
...                "Try writing down three small tasks for tomorrow.", seed=0).text
'Try writing down three small tasks for tomorrow.'
"""

from __future__ import annotations

import random
import re

from perturbations.base import Perturbation
from perturbations.text_units import sentences

_WARM = re.compile(
    r"\b(sorry|sounds|must (be|feel|have)|understand|understandable|makes sense|"
    r"hear (you|that)|i hear|valid|okay to feel|ok to feel|not alone|here for you|"
    r"care about|so hard|really hard|incredibly|painful|heartbreaking|brave|courage|"
    r"thank you for sharing|i can (see|imagine|feel)|feel(ing|s)? (so|like|that)|"
    r"you('re| are) (not|doing)|proud of you|overwhelming|exhausting|frustrating)\b",
    re.IGNORECASE,
)
_ADVICE = re.compile(
    r"\b(try|consider|could|might|should|recommend|suggest|therapist|counsel(l)?or|"
    r"professional|doctor|hotline|call|reach out|schedule|write|journal|practice|"
    r"exercise|breathing|steps?|plan|talk to|seek|contact|resources?)\b",
    re.IGNORECASE,
)


def is_empathic(sentence: str) -> bool:
    """True when the sentence mainly carries understanding or warmth."""
    warm = len(_WARM.findall(sentence))
    advice = len(_ADVICE.findall(sentence))
    return warm > 0 and warm >= advice


class StripEmpathy(Perturbation):
    """Removes the warm and understanding sentences; keeps the advice."""

    id = "strip-empathy"
    label = "Control: empathy stripped"
    expectation = "fall"

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        kept = [s for s in sentences(text) if not is_empathic(s)]
        return " ".join(kept)
