"""A story judge: how much empathy a personal story evokes in a reader (after Roshanaei et al.).

Any responder reads a story and answers the study's three questions on
1–5 (1 not at all – 5 extremely): overall empathy for the storyteller, the
affective dimension (sympathy, compassion, being moved) and the cognitive
one (understanding the storyteller's perspective and feelings). The rubric
is ``assets/rubrics/story-evocation.json`` (overall = the empathy answer),
the prompt ``assets/prompts/story.json`` with its own version; a reader
persona (:class:`scorers.judge.persona.Persona`) asks the judge to read as a
given reader. Parsing, retry, samples and the cache are every judge's
(:mod:`scorers.judge.base`, :mod:`scorers.judge.core`).

The story is the item's ``reply``; a ``message``, if any, is ignored.

>>> system, user = build_prompt("I lost my dog.", Persona(empathic_concern="high"))
>>> "high empathic concern" in system, "I lost my dog." in user
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from config import SETTINGS
from core.textinput import InputError, clean_text
from responders.base import Responder
from scorers.base import Score, ScoreItem, Scorer
from scorers.judge import base
from scorers.judge.core import Instances, defuse, load_judge_prompt, persona_text
from scorers.judge.guard import InjectionGuard
from scorers.judge.persona import Persona

STORY_RUBRIC = "story-evocation"
PROMPT_NAME = "story"
MARKERS = ("STORY",)


def load_prompt() -> dict[str, Any]:
    """The story prompt, with the rubric filled in."""
    return load_judge_prompt(PROMPT_NAME, STORY_RUBRIC)


def max_story_chars() -> int:
    """The longest story a story judge reads, counted as :func:`clean_text` counts it.

    The responder takes a prompt of at most ``EMPATHY_LAB_MAX_MESSAGE_CHARS``
    characters, and the story shares it with the questions around it (defusing
    markers never lengthens a story), so a story under this limit always fits.

    >>> max_story_chars() + len(load_prompt()["user"].replace("{story}", "")) == (
    ...     SETTINGS.max_message_chars)
    True
    """
    return SETTINGS.max_message_chars - len(load_prompt()["user"].replace("{story}", ""))


def checked_story(text: object) -> str:
    """``text`` cleaned as every input is; :class:`InputError` when it is empty or longer
    than :func:`max_story_chars` (the count given is the cleaned text's, the one the
    limit uses)."""
    return clean_text(text, limit=max_story_chars(), what="story")


def build_prompt(story: str, persona: Persona | None = None) -> tuple[str, str]:
    """(system prompt, user prompt) for rating ``story``."""
    prompt = load_prompt()
    system = prompt["system"].format(rubric=prompt["rubric"], persona=persona_text(prompt, persona))
    return system, prompt["user"].format(story=defuse(story, MARKERS))


class StoryJudge(base.BaseJudge):
    """Rates how much empathy a story evokes, on the story-evocation rubric."""

    prompt_name: ClassVar[str] = PROMPT_NAME
    rubric_id: ClassVar[str] = STORY_RUBRIC
    markers: ClassVar[tuple[str, ...]] = MARKERS

    def __init__(self, responder: Responder, **options: Any) -> None:
        super().__init__(responder, **options)
        self.label = f"Story judge: {responder.label} ({responder.model})"

    def build_prompt(self, item: ScoreItem) -> tuple[str, str]:
        return build_prompt(item.reply, self.persona)

    def _score_batch(self, items: list[ScoreItem]) -> list[Score]:
        """A story over the limit is unscored with the limit's plain reason; the judge is
        never asked (its responder would refuse the whole prompt, counted with the questions).
        """
        scores = []
        for item in items:
            try:
                checked_story(item.reply)
            except InputError as exc:
                scores.append(self._unscored(str(exc), None))
                continue
            scores.append(self.judge_prompt(*self.build_prompt(item)))
        return scores


_JUDGES: Instances[StoryJudge] = Instances()


def get_story_judge(
    judge_id: str,
    *,
    samples: int = 1,
    temperature: float = 0.0,
    persona: Persona | None = None,
    keys: Mapping[str, str] | None = None,
) -> Scorer:
    """The story judge for ``judge/<responder id>`` (``judge`` alone: the local model),
    reading stories through the injection guard.

    One judge (one cache) per setting, shared by pages and commands; KeyError
    for an id that is not a judge or names an unknown responder.

    >>> get_story_judge("judge/local/qwen2.5-coder-1.5b").id
    'judge/local/qwen2.5-coder-1.5b'
    >>> get_story_judge("bert-head")
    Traceback (most recent call last):
    ...
    scorers.judge.base.NotAJudge: "'bert-head' is not a judge: use judge/<responder id>, e.g. judge/local/qwen2.5-coder-1.5b"
    """
    responder = base.judge_responder(judge_id, strict=True)
    judge = _JUDGES.get(
        (type(responder), responder.id, samples, temperature, persona),
        lambda: StoryJudge(responder, samples=samples, temperature=temperature, persona=persona),
    )
    # A story is judged as a reply is: text in it that addresses the rater is removed first.
    return InjectionGuard(judge.with_keys(SETTINGS.keys.merged(keys)))  # type: ignore[arg-type]
