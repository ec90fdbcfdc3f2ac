"""Control: the same reply, paired with another person's message. Cognitive should fall.

A reply that shows it understood *this* person fits its own message and no
other; paired with someone else's message it should lose Cognitive (a
generic reply loses little, a specific one a lot). The reply text is left
as it is; the variant carries the other message, drawn by the seed from the
100 bundled CounselChat questions (never the reply's own message). A scorer
that does not read the message cannot move here, which is worth knowing.

>>> v = WrongMessage()("I'm sorry your dog died.", seed=0, message="My dog died.")
>>> v.text, v.message not in (None, "My dog died.")
("I'm sorry your dog died.", True)
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING

from perturbations.base import Perturbation, Variant

if TYPE_CHECKING:
    from responders.base import Responder


def _other_messages(own: str | None) -> list[str]:
    from core.questions import load_questions

    own = (own or "").strip()
    return [q.question for q in load_questions() if q.question.strip() != own]


class WrongMessage(Perturbation):
    """Keeps the reply; pairs it with another person's message."""

    id = "wrong-message"
    label = "Control: another person's message"
    expectation = "fall"

    def __call__(
        self,
        text: str,
        *,
        seed: int = 0,
        intensity: float | None = None,
        rewriter: Responder | None = None,
        message: str | None = None,
    ) -> Variant:
        variant = super().__call__(text, seed=seed, intensity=intensity, rewriter=rewriter)
        if not variant.text.strip():  # nothing to pair: empty stays empty, as for every rule
            return variant
        pool = _other_messages(message)
        other = random.Random(f"{self.id}:{seed}").choice(pool)
        return replace(variant, message=other, method="rule (another person's message)")

    def _apply(self, text: str, rng: random.Random, intensity: float | None) -> str:
        return text
