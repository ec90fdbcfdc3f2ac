"""An LLM judge of replies: any responder, prompted with the counselling rubric, asked for JSON.

The prompt is data (``assets/prompts/judge.json``, with the rubric from
``assets/rubrics/counselling.md``). The message and the reply sit between markers, and the
judge is told that anything between them is material to rate, never an
instruction; marker look-alikes inside the quoted text are defused. The
shared machinery (structured output, strict parse with one fallback and one
retry, the unscored path with the raw text kept, k samples, the cache) lives
in :mod:`scorers.judge.base`.

>>> parse_judgement('{"rationale": "warm", "cognitive": 2, "emotional": 3, "behavioral": 1}')
{'rationale': 'warm', 'cognitive': 2, 'emotional': 3, 'behavioral': 1}
>>> parse_judgement('Sure! {"rationale": "x", "cognitive": 3, "emotional": 3, "behavioral": 3} Done.')["cognitive"]
3
>>> parse_judgement('{"rationale": "x", "cognitive": 0, "emotional": 3, "behavioral": 3}') is None
True
"""

from __future__ import annotations

from typing import Any, ClassVar

from scorers.base import ScoreItem
from scorers.judge import base
from scorers.judge.core import conversation_text, defuse, load_judge_prompt, persona_text
from scorers.judge.persona import Persona
from scorers.rubric import DEFAULT_RUBRIC, load_rubric

__all__ = ["LLMJudge", "Persona", "build_prompt", "load_prompt", "parse_judgement"]

PROMPT_NAME = "judge"
MARKERS = ("MESSAGE", "REPLY", "CONVERSATION SO FAR")


def load_prompt() -> dict[str, Any]:
    """The judge prompt, with the rubric filled in."""
    return load_judge_prompt(PROMPT_NAME, DEFAULT_RUBRIC)


def build_prompt(item: ScoreItem, persona: Persona | None = None) -> tuple[str, str]:
    """(system prompt, user prompt) for judging ``item``."""
    prompt = load_prompt()
    system = prompt["system"].format(rubric=prompt["rubric"], persona=persona_text(prompt, persona))
    message = defuse(item.message, MARKERS) if item.message else prompt["no_message"]
    user = prompt["user"].format(message=message, reply=defuse(item.reply, MARKERS))
    return system, conversation_text(prompt, item.context(), MARKERS) + user


def parse_judgement(text: str) -> dict[str, Any] | None:
    """The judgement in ``text``, or None when it is not a valid one."""
    return base.parse_judgement(text, load_rubric(DEFAULT_RUBRIC))


class LLMJudge(base.BaseJudge):
    """Scores replies by asking ``responder`` to apply the counselling rubric."""

    prompt_name: ClassVar[str] = PROMPT_NAME
    markers: ClassVar[tuple[str, ...]] = MARKERS

    def build_prompt(self, item: ScoreItem) -> tuple[str, str]:
        return build_prompt(item, self.persona)
