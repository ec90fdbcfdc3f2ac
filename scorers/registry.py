"""The scorer registry: ``bert-head`` and ``judge/<responder id>``.

>>> get_scorer("judge/openai/gpt-4o-mini").id
'judge/openai/gpt-4o-mini'
>>> get_scorer("judge").id
'judge/local/qwen2.5-coder-1.5b'
>>> get_scorer("nope")
Traceback (most recent call last):
...
KeyError: "unknown scorer 'nope'; use bert-head or judge/<responder id>, optionally +normalize"
"""

from __future__ import annotations

from collections.abc import Mapping

from config import SETTINGS
from responders.registry import get_responder
from scorers.base import Scorer
from scorers.judge import LLMJudge, Persona

DEFAULT_JUDGE = "judge/local/qwen2.5-coder-1.5b"
DEFAULT_SCORERS = ("bert-head", DEFAULT_JUDGE)


def get_scorer(
    scorer_id: str,
    *,
    keys: Mapping[str, str] | None = None,
    samples: int = 1,
    temperature: float = 0.0,
    persona: Persona | None = None,
) -> Scorer:
    """The scorer for ``scorer_id``; judge options apply to ``judge/…`` ids only.

    A ``+normalize`` suffix wraps the scorer in the text-normalising defence.
    """
    scorer_id = scorer_id.strip()
    if scorer_id.endswith("+normalize"):
        from scorers.normalize import NormalizedScorer

        inner = get_scorer(
            scorer_id.removesuffix("+normalize"),
            keys=keys,
            samples=samples,
            temperature=temperature,
            persona=persona,
        )
        return NormalizedScorer(inner)
    if scorer_id == "bert-head":
        from scorers.bert_head import load_head

        return load_head()
    if scorer_id == "judge" or scorer_id.startswith("judge/"):
        responder_id = scorer_id.partition("/")[2] or DEFAULT_JUDGE.partition("/")[2]
        return _judge(responder_id, SETTINGS.keys.merged(keys), samples, temperature, persona)
    raise KeyError(
        f"unknown scorer {scorer_id!r}; use bert-head or judge/<responder id>, optionally +normalize"
    )


_JUDGES: dict[tuple[object, ...], LLMJudge] = {}


def _judge(responder_id: str, keys, samples, temperature, persona) -> LLMJudge:  # type: ignore[no-untyped-def]
    # One judge (and so one judgement cache) per setting; keys are not part of the
    # cache key on purpose: a judgement does not depend on whose key paid for it.
    key = (responder_id, samples, temperature, persona)
    judge = _JUDGES.get(key)
    if judge is None:
        judge = _JUDGES[key] = LLMJudge(
            get_responder(responder_id), samples=samples, temperature=temperature, persona=persona
        )
    return judge.with_keys(keys)
