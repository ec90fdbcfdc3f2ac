"""Control: the empathy stripped out, the facts and advice kept. Scores should fall.

Every sentence that acknowledges the person's situation, reflects their
feelings back, validates them or expresses care goes, even when it also
carries advice ("I'm so sorry; try to rest" goes whole: a control must not
leave warmth behind). Encouragement and reassurance go too, hollow ones
included ("You've got this!", "Everything happens for a reason"), and so does
naming what happened to them as a loss ("That's a real loss"). What stays:
facts, suggestions, steps, resources and questions about logistics ("When is
your next appointment?"). Questions about feelings ("How are you coping?")
are reflection and go. If nothing is left, the variant is empty and scorers
mark it unscored rather than inventing text.

>>> StripEmpathy()("I'm so sorry you're going through this. It makes sense you feel lost. "
...                "Try writing down three small tasks for tomorrow.", seed=0).text
'Try writing down three small tasks for tomorrow.'
"""

from __future__ import annotations

import random
import re

from perturbations.base import Perturbation
from perturbations.text_units import sentences

_FEELING = (
    r"(?:sad|angry|hurt|hurting|lonely|alone|scared|afraid|anxious|worried|lost|stuck|"
    r"overwhelmed|exhausted|tired|confused|ashamed|guilty|frustrated|hopeless|helpless|"
    r"heartbroken|devastated|upset|stressed|depressed|down|empty|numb|torn|trapped|"
    r"heartbroken|betrayed|rejected|unheard|invisible|worthless|drained|frightened|terrified|low)"
)
_HARD = (
    r"(?:hard|difficult|painful|tough|scary|frightening|overwhelming|exhausting|"
    r"frustrating|confusing|lonely|heartbreaking|devastating|upsetting|draining|"
    r"distressing|a lot|heavy|unfair|enormous|huge|immense|impossible|unbearable|endless|"
    r"crushing|isolating|agoni[sz]ing|awful|terrible|brutal)"
)
#: Shared joy and admiration: the rubric's Emotional component rewards them as much as
#: shared sorrow ("That's wonderful news!", "It must be so exciting").
_GOOD = (
    r"(?:wonderful|fantastic|great|amazing|awesome|exciting|thrilling|incredible|lovely|"
    r"delightful|impressive|inspiring|admirable|heartwarming|touching|beautiful|brilliant|"
    r"exhilarating|rewarding|fulfilling|special|a relief|relieving|fun|cool|nice|good to hear)"
)
_CARE = re.compile(
    "|".join(
        (
            r"\b(?:i'?m|i am|i'?ve been|we'?re)\s+(?:\w+\s+)?(?:sorry|glad|proud|here|with you|"
            r"thinking of you|touched|moved|grateful|honou?red|happy)\b",
            r"\bsorry (?:for|about|to hear|that|you)\b",
            r"\b(?:sounds|seems|must|can|could|would) (?:\w+ )?(?:be|feel|have been|have felt) "
            rf"(?:\w+ )?{_HARD}\b",
            rf"\b(?:so|really|incredibly|very|truly|understandably|especially) {_HARD}\b",
            r"\b(?:sounds|seems|looks) (?:like|as if|as though)\b",
            r"\b(?:it|that|this) (?:sounds|seems)\b",
            rf"\byou(?:'re| are|'ve been| have been|'d| were)?\s+(?:\w+ )?(?:feel|feeling|felt|seem|"
            rf"sound)\w*\s+(?:\w+\s+)?(?:so |really |very )?{_FEELING}\b",
            rf"\b(?:feel|feeling|felt|feels) (?:so |really |very |quite |a bit |like )?{_FEELING}\b",
            r"\b(?:your|these|those|such|the) (?:feelings|emotions|pain|grief|hurt|fear|sadness|"
            r"anger|loss|struggle|distress|sorrow|loneliness)\b",
            r"\b(?:makes?|made) (?:complete |total |perfect |a lot of )?sense\b",
            r"\b(?:understandable|understandably|natural|normal|valid|okay|ok|alright|human)"
            r" (?:to|that|for you|reaction|response|feeling)\b",
            r"\b(?:it'?s|it is|that'?s|that is|you'?re|you are) (?:completely |totally |perfectly |"
            r"so |very )?(?:understandable|valid|natural|normal|okay|ok|human)\b",
            r"\bi (?:can |could )?(?:only )?(?:hear|see|imagine|sense|understand|tell|feel|get)\b",
            r"\bi (?:really |truly )?(?:care|believe in you|want you to know)\b",
            r"\b(?:not|never) alone\b|\bhere for you\b|\byou matter\b|\byou deserve\b",
            r"\bthank(?:s| you) for (?:sharing|reaching|trusting|opening|telling|writing|being)\b",
            r"\b(?:brave|courage|courageous|resilient|proud of you)\b|\byour (?:strength|resilience)\b|"
            r"\byou(?:'re| are) (?:so |really |very )?strong\b",
            r"\bno wonder\b|\bof course you\b|\banyone (?:would|in your)\b|\bwhat you'?re going through\b",
            # What *they* are going through or carrying, not "going through old photos" or
            # "carrying a notebook" (steps a reply may suggest).
            r"\byou(?:'re| are|'ve| have)? (?:been )?(?:going through|carrying)\b|"
            r"\bbeen through\b|\bdealing with so much\b",
            r"\b(?:be gentle|be kind|go easy) (?:with|on|to) yourself\b|"
            r"\btake care\b(?! of (?!yourself))|\b(?:big|warm|virtual|many) hugs?\b|^\W*hugs?\b|"
            r"\bsending (?:you )?(?:love|hugs|strength|support)\b|\bheart goes out\b",
            # Telling them they are loved, enough, important; not "It's important that you
            # sleep" or "enough sleep can help you" (advice that names the word).
            r"\b(?:loved|worthy|enough|valued|important) (?:just )?as you are\b|"
            r"\byou(?:'re| are) (?:so |truly |really )?(?:loved|worthy|enough|valued|important|not "
            r"(?:crazy|weak|broken|a failure|overreacting))\b|\byou matter\b|"
            r"\b(?:you|your (?:feelings|needs|wellbeing|well-being)) (?:are|is|matter) (?:so |really )?"
            r"important (?:to|too)\b",
            r"\bi share your\b|\byou(?:'ve| have) (?:got )?(?:real |strong |deep |mixed )?feelings\b|"
            r"\b(?:i )?hope (?:this|these|that|some|it|you)\b|\bplease remember\b|\byou (?:clearly )?care\b",
            r"\bi(?:'m| am) so sorry\b|\bmy (?:condolences|sympathies)\b|\bheartbreak\w*\b",
            r"\b(?:incredibly|so|really) (?:sorry|sad)\b",
            rf"^\W*(?:(?:that|this|it)(?:'s| is| was| sounds| must be)|what|how) (?:\w+ )?{_GOOD}\b",
            rf"\b(?:must|would|will|can) (?:\w+ )?(?:be|feel|have been|have felt) (?:so |really |very |"
            rf"such |quite )?(?:an? )?{_GOOD}\b",
            r"\b(?:congratulations|congrats|well done|good for (?:you|him|her|them)|kudos)\b",
            r"\b(?:i'?m|i am|we'?re) (?:so |really |very |truly )?(?:happy|glad|thrilled|excited|"
            r"delighted|pleased) (?:for|to hear|that)\b",
            rf"\b(?:it'?s|it is|that'?s|that is) (?:so |really |very |truly )?{_GOOD} (?:that|how|to)\b",
            # Naming what happened to them as a loss or a blow ("That's a real loss").
            r"^\W*(?:that|this|it)(?:'s| is| was| sounds like| must be| feels like) (?:\w+ ){0,3}?"
            r"(?:loss|blow|shock|setback|heartache|burden)\b",
            # Encouragement and reassurance, hollow ones too: a control leaves no warmth behind.
            r"\byou(?:'ve| have) got this\b|\byou can do (?:it|this)\b|\b(?:stay|keep|be) positive\b|"
            r"\bgood vibes\b|\beverything happens for a reason\b|\b(?:tomorrow|each day) is a new day\b|"
            r"\b(?:things|it|everything)(?:'ll| will) (?:get better|work out|be (?:ok|okay|alright|fine))\b|"
            r"\bhang in there\b|\b(?:keep|hold) your (?:head|chin) up\b|\bstay strong\b|"
            r"\bbelieve in yourself\b|\bthis too shall pass\b|\blook on the bright side\b",
        )
    ),
    re.IGNORECASE,
)
#: A question about the person's inner life (reflection), not about logistics.
_FEELING_QUESTION = re.compile(
    rf"\b(?:feel|feeling|felt|cope|coping|holding up|doing|emotion\w*|heart|{_FEELING})\b",
    re.IGNORECASE,
)


def is_empathic(sentence: str) -> bool:
    """True when the sentence acknowledges, reflects, validates or expresses care.

    >>> is_empathic("That sounds so hard."), is_empathic("Try a walk each morning.")
    (True, False)
    >>> is_empathic("How have you been coping since then?"), is_empathic("When is your next appointment?")
    (True, False)
    >>> is_empathic("It's important that you get enough sleep."), is_empathic("You are enough.")
    (False, True)
    >>> is_empathic("Take care of the forms first."), is_empathic("Take care of yourself.")
    (False, True)
    """
    if _CARE.search(sentence):
        return True
    return sentence.rstrip().endswith("?") and bool(_FEELING_QUESTION.search(sentence))


class StripEmpathy(Perturbation):
    """Removes every warm or understanding sentence; keeps facts, advice and logistics."""

    id = "strip-empathy"
    label = "Control: empathy stripped"
    expectation = "fall"
    unchanged = "this reply has no empathic language to remove"
    emptied = (
        "every sentence of this reply is warmth or encouragement, with no advice or facts to keep"
    )

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        kept = [s for s in sentences(text) if not is_empathic(s)]
        return " ".join(kept)
