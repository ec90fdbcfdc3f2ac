"""An LLM judge: any responder, prompted with the rubric, asked for JSON.

The prompt is data (``assets/prompts/judge.json``, with the rubric from
``assets/rubrics/counselling.md``). The message and the reply sit between markers, and the
judge is told that anything between them is material to rate, never an
instruction; marker look-alikes inside the quoted text are defused. The
reply is constrained to a JSON schema with the provider's structured-output
feature (a llama.cpp grammar for the local model), then parsed strictly,
with one fallback (the first JSON object inside the text) and one retry. If
that still fails the score is ``unscored`` and the raw text is kept.

Temperature is 0 by default; with ``samples`` > 1 the components are
averaged and the spread of overall is reported. Judgements are cached by
(judge id, prompt, temperature, samples).

>>> parse_judgement('{"rationale": "warm", "cognitive": 2, "emotional": 3, "behavioral": 1}')
{'rationale': 'warm', 'cognitive': 2, 'emotional': 3, 'behavioral': 1}
>>> parse_judgement('Sure! {"rationale": "x", "cognitive": 3, "emotional": 3, "behavioral": 3} Done.')["cognitive"]
3
>>> parse_judgement('{"rationale": "x", "cognitive": 0, "emotional": 3, "behavioral": 3}') is None
True
"""

from __future__ import annotations

import hashlib
import json
import re
import statistics
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any, ClassVar

from config import PROMPTS_DIR, RUBRICS_DIR, Keys
from responders.base import Responder, ResponderError, ResponderUnavailable
from scorers.base import COMPONENTS, Score, ScoreItem, Scorer
from scorers.judge.persona import Persona

PROMPT_FILE = PROMPTS_DIR / "judge.json"
RUBRIC_FILE = RUBRICS_DIR / "counselling.md"
_MARKER = re.compile(r"<<<\s*(END\s+)?(MESSAGE|REPLY)\s*>>>", re.IGNORECASE)


@lru_cache(maxsize=1)
def load_prompt() -> dict[str, Any]:
    """The judge prompt, with the rubric filled in."""
    prompt = json.loads(PROMPT_FILE.read_text(encoding="utf-8"))
    prompt["rubric"] = RUBRIC_FILE.read_text(encoding="utf-8").strip()
    return prompt


def _defuse(text: str) -> str:
    """Stop quoted text from closing or opening the prompt's markers."""
    return _MARKER.sub(lambda m: m.group(0).replace("<<<", "« ").replace(">>>", " »"), text)


def build_prompt(item: ScoreItem, persona: Persona | None = None) -> tuple[str, str]:
    """(system prompt, user prompt) for judging ``item``."""
    prompt = load_prompt()
    description = persona.describe() if persona else ""
    persona_text = prompt["persona"].format(description=description) if description else ""
    system = prompt["system"].format(rubric=prompt["rubric"], persona=persona_text)
    message = _defuse(item.message) if item.message else prompt["no_message"]
    user = prompt["user"].format(message=message, reply=_defuse(item.reply))
    return system, user


def _valid(data: object) -> dict[str, Any] | None:
    if not isinstance(data, dict):
        return None
    out: dict[str, Any] = {"rationale": str(data.get("rationale", "")).strip()}
    for name in COMPONENTS:
        value = data.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        if value != int(value) or int(value) not in (1, 2, 3):
            return None
        out[name] = int(value)
    return out


def parse_judgement(text: str) -> dict[str, Any] | None:
    """The judgement in ``text``, or None when it is not a valid one."""
    text = text.strip()
    try:
        return _valid(json.loads(text))
    except json.JSONDecodeError:
        pass
    start = text.find("{")
    if start < 0:
        return None
    try:
        data, _ = json.JSONDecoder().raw_decode(text[start:])
    except json.JSONDecodeError:
        return None
    return _valid(data)


class LLMJudge(Scorer):
    """Scores replies by asking ``responder`` to apply the rubric."""

    cache_size: ClassVar[int] = 5_000

    def __init__(
        self,
        responder: Responder,
        *,
        samples: int = 1,
        temperature: float = 0.0,
        persona: Persona | None = None,
        keys: Keys | None = None,
        max_tokens: int = 256,
    ) -> None:
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.responder = responder
        self.samples = samples
        self.temperature = temperature
        self.persona = persona
        self.keys = keys
        self.max_tokens = max_tokens
        self.id = f"judge/{responder.id}"
        self.label = f"LLM judge: {responder.display_name}"
        self._cache: OrderedDict[str, Score] = OrderedDict()
        self._lock = threading.Lock()

    def with_keys(self, keys: Keys | None) -> LLMJudge:
        """This judge (sharing its cache) for a caller with its own keys."""
        if keys == self.keys:
            return self
        twin = object.__new__(LLMJudge)
        twin.__dict__.update(self.__dict__)
        twin.keys = keys
        return twin

    def unavailable_reason(self) -> str | None:
        if not self.responder.can_judge:
            return f"{self.responder.id} cannot act as a judge"
        return self.responder.unavailable_reason(self.keys)

    def _score_batch(self, items: list[ScoreItem]) -> list[Score]:
        return [self._judge(item) for item in items]

    def _judge(self, item: ScoreItem) -> Score:
        system, user = build_prompt(item, self.persona)
        key = hashlib.sha256(
            json.dumps([self.id, system, user, self.temperature, self.samples]).encode()
        ).hexdigest()
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        score = self._sample(system, user)
        if not score.ok:  # a failure (timeout, 500, unreadable) is asked again next time
            return score
        with self._lock:
            self._cache[key] = score
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return score

    def _ask(self, system: str, user: str) -> str:
        generation = self.responder.generate(
            user,
            system=system,
            max_tokens=self.max_tokens,
            temperature=self.temperature,
            keys=self.keys,
            json_schema=load_prompt()["schema"],
        )
        return "".join(generation)

    def _one(self, system: str, user: str) -> tuple[dict[str, Any] | None, str]:
        raws = []
        for attempt in range(2):  # one retry after an unreadable answer
            prompt = user if attempt == 0 else user + "\n\n" + load_prompt()["retry_reminder"]
            raw = self._ask(system, prompt)
            raws.append(raw)
            parsed = parse_judgement(raw)
            if parsed is not None:
                return parsed, raw
        return None, "\n---\n".join(raws)

    def _sample(self, system: str, user: str) -> Score:
        judgements, raws = [], []
        try:
            for _ in range(self.samples):
                parsed, raw = self._one(system, user)
                raws.append(raw)
                if parsed is None:
                    return Score.unscored(self.id, "the judge's answer could not be read", raw)
                judgements.append(parsed)
        except (ResponderError, ResponderUnavailable) as exc:
            return Score.unscored(self.id, f"the judge failed: {exc}", "\n---\n".join(raws) or None)
        means = [statistics.fmean(j[name] for j in judgements) for name in COMPONENTS]
        overall = [statistics.fmean(j[name] for name in COMPONENTS) for j in judgements]
        return Score.from_components(
            self.id,
            *means,
            spread=statistics.pstdev(overall) if len(overall) > 1 else None,
            rationale=judgements[0]["rationale"],
            raw="\n---\n".join(raws),
            prompt_version=load_prompt()["version"],
        )
