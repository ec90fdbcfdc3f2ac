"""A judge that answers with integers on a rubric: strict parsing, samples, the unscored path.

Prompt data, quoting, the persona paragraph, asking with one retry and the
cache are every judge's (:class:`scorers.judge.core.PromptedJudge`). The
answer is constrained to the prompt's JSON schema, then parsed strictly, with one fallback (the first JSON object inside the text)
and one retry with a reminder. If that still fails the result is
``unscored`` and the raw text is kept; never 0, never the minimum.

With ``samples`` > 1 the components are averaged and the spread (population
standard deviation) of the rubric's overall value is reported. Successful
judgements are cached by (judge id, prompt, temperature, samples); failures
are asked again next time.

>>> from scorers.rubric import load_rubric
>>> parse_judgement('{"rationale": "x", "empathy": 5, "affective": 4, "cognitive": 3}',
...                 load_rubric("story-evocation"))["affective"]
4
"""

from __future__ import annotations

import json
import statistics
from typing import Any

from config import Keys
from core.textinput import InputError
from responders.base import Responder, ResponderError, ResponderUnavailable
from responders.registry import LOCAL_DEFAULT, get_responder
from scorers.base import Score, ScoreItem, Scorer
from scorers.judge.core import PromptedJudge, cache_key
from scorers.judge.persona import Persona
from scorers.rubric import Rubric, load_rubric

#: The sampled judge (one integer per component, any responder).
SAMPLED_JUDGE = f"judge/{LOCAL_DEFAULT}"


class NotAJudge(KeyError):
    """An id that names no judge (``judge`` or ``judge/<responder id>``)."""


def judge_responder(spec: str, *, strict: bool = False) -> Responder:
    """The responder behind a judge id: ``judge/<responder id>``, bare ``judge`` or (unless
    ``strict``) a responder id.

    The one place a ``judge/…`` id is taken apart (the registry, the pairwise, story and
    resonance judges use it); ``judge-weighted/…`` is not a sampled judge.

    >>> judge_responder("judge").id, judge_responder("judge/openai/gpt-4o").id
    ('local/qwen2.5-coder-1.5b', 'openai/gpt-4o')
    >>> judge_responder("bert-head", strict=True)
    Traceback (most recent call last):
    ...
    scorers.judge.base.NotAJudge: "'bert-head' is not a judge: use judge/<responder id>, e.g. judge/local/qwen2.5-coder-1.5b"
    """
    kind, _, rest = spec.strip().partition("/")
    if kind == "judge":
        return get_responder(rest or LOCAL_DEFAULT)
    if strict:
        raise NotAJudge(
            f"{spec.strip()!r} is not a judge: use judge/<responder id>, e.g. {SAMPLED_JUDGE}"
        )
    return get_responder(spec)


def _valid(data: object, rubric: Rubric) -> dict[str, Any] | None:
    if not isinstance(data, dict):
        return None
    out: dict[str, Any] = {"rationale": str(data.get("rationale", "")).strip()}
    for name in rubric.components:
        value = data.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        if value != int(value) or not rubric.low <= int(value) <= rubric.high:
            return None
        out[name] = int(value)
    return out


def parse_judgement(text: str, rubric: Rubric) -> dict[str, Any] | None:
    """The judgement on ``rubric`` in ``text`` (integers on its scale), or None."""
    text = text.strip()
    try:
        return _valid(json.loads(text), rubric)
    except json.JSONDecodeError:
        pass
    start = text.find("{")
    if start < 0:
        return None
    try:
        data, _ = json.JSONDecoder().raw_decode(text[start:])
    except json.JSONDecodeError:
        return None
    return _valid(data, rubric)


class BaseJudge(PromptedJudge, Scorer):
    """A judge on one rubric that answers with integers; subclasses build its prompt."""

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
        super().__init__(
            responder, keys=keys, temperature=temperature, max_tokens=max_tokens, persona=persona
        )
        self.samples = samples
        self.id = f"judge/{responder.id}"
        self.label = f"LLM judge: {responder.display_name}"

    def setting_parts(self) -> list[str]:
        """Its own prompt's version (a story judge's is not a reply judge's) and options."""
        persona = self.persona.describe() if self.persona else ""
        return [
            self.prompt_version,
            f"samples={self.samples}",
            f"t={self.temperature}",
            f"persona={persona}",
        ]

    def build_prompt(self, item: ScoreItem) -> tuple[str, str]:
        """(system prompt, user prompt) for judging ``item``."""
        raise NotImplementedError

    def _score_batch(self, items: list[ScoreItem]) -> list[Score]:
        return [self.judge_prompt(*self.build_prompt(item)) for item in items]

    def judge_prompt(self, system: str, user: str) -> Score:
        """The (cached) judgement of one built prompt; a failure is asked again next time."""
        key = cache_key(self.id, system, user, self.temperature, self.samples)
        return self.answers.through(key, lambda: self._sample(system, user), lambda s: s.ok)

    def _unscored(self, reason: str, raw: str | None) -> Score:
        return Score.unscored(self.id, reason, raw, rubric_id=self.rubric_id)

    def _sample(self, system: str, user: str) -> Score:
        rubric = load_rubric(self.rubric_id)
        judgements, raws = [], []
        try:
            for _ in range(self.samples):
                parsed, raw = self.ask_parsed(system, user, lambda t: parse_judgement(t, rubric))
                raws.append(raw)
                if parsed is None:
                    return self._unscored("the judge's answer could not be read", raw)
                judgements.append(parsed)
        except (ResponderError, ResponderUnavailable, InputError) as exc:
            return self._unscored(f"the judge failed: {exc}", "\n---\n".join(raws) or None)
        means = {c: statistics.fmean(j[c] for j in judgements) for c in rubric.components}
        overall = [rubric.overall_of(j) for j in judgements]
        return Score.from_values(
            self.id,
            means,
            self.rubric_id,
            spread=statistics.pstdev(overall) if len(overall) > 1 else None,
            rationale=judgements[0]["rationale"],
            raw="\n---\n".join(raws),
            prompt_version=self.prompt_version,
        )
