"""The licensed therapist's real answer to a bundled CounselChat question.

Id: ``human/counselchat``. It answers only the bundled questions (the text
must match one of them); for anything else it says so instead of replying.

>>> from core.questions import load_questions
>>> q = load_questions()[0]
>>> text = "".join(HumanResponder().generate(q.question))
>>> text == q.answer
True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from config import Keys
from core.questions import find_question
from responders.base import GenerationSettings, Responder, ResponderUnavailable, Usage


class HumanResponder(Responder):
    """Looks the message up in the bundled questions and returns the therapist's answer."""

    provider: ClassVar[str] = "human"
    default_model: ClassVar[str] = "counselchat"
    label: ClassVar[str] = "Licensed therapist (CounselChat)"
    names_model: ClassVar[bool] = True
    can_judge: ClassVar[bool] = False
    follows_prompt: ClassVar[bool] = False
    is_person: ClassVar[bool] = True
    #: A bundled answer is read, not written: several at once, at once.
    max_parallel: ClassVar[int | None] = 4
    typical_seconds: ClassVar[tuple[float, float]] = (0.0, 1.0)
    scope: ClassVar[str | None] = "the bundled questions only"

    def attribution(self, message: str) -> str | None:
        question = find_question(message)
        if question is None:
            raise ResponderUnavailable(
                "only for the bundled CounselChat questions: pick one from the list"
            )
        return question.attribution

    def history_attribution(self) -> str | None:
        raise ResponderUnavailable(
            "only for a bundled CounselChat question on its own, not for a conversation"
        )

    def _stream(
        self, message: str, settings: GenerationSettings, keys: Keys
    ) -> Iterator[str | Usage]:
        question = find_question(message)
        if question is None:  # generate() already checked; kept for direct callers
            raise ResponderUnavailable("only for the bundled CounselChat questions")
        yield question.answer
