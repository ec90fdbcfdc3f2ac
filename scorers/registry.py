"""The scorer registry: ``bert-head`` (+ ``-raw``), ``judge[-weighted]/<responder id>``; wrappers.

Wrappers: ``+normalize`` (cheap attacks undone) and ``+calibrated:NAME``.

One dict of factories (see :mod:`core.registry`); judge options (samples,
temperature, reader persona, the caller's keys) are passed per call.

>>> get_scorer("judge/openai/gpt-4o-mini").id
'judge/openai/gpt-4o-mini'
>>> get_scorer("judge").id
'judge/local/qwen2.5-coder-1.5b'
>>> get_scorer(DEFAULT_JUDGE).id
'judge-weighted/local/qwen2.5-coder-1.5b'
>>> get_scorer("nope")
Traceback (most recent call last):
...
KeyError: "unknown scorer 'nope'; known: bert-head, bert-head-raw, judge, judge-weighted (wrappers: +normalize, +calibrated:…)"
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

from config import SETTINGS
from core.registry import Registry
from responders.registry import LOCAL_DEFAULT, get_responder, judge_responder_ids
from scorers.base import Scorer
from scorers.judge.absolute import LLMJudge
from scorers.judge.base import SAMPLED_JUDGE, judge_responder
from scorers.judge.injection import InjectionGuard
from scorers.judge.persona import Persona

#: The default judge: the local model, probability-weighted (see scorers/judge/weighted.py).
DEFAULT_JUDGE = f"judge-weighted/{LOCAL_DEFAULT}"
DEFAULT_SCORERS = ("bert-head", DEFAULT_JUDGE)


@dataclass(frozen=True)
class JudgeOptions:
    """How a judge is asked: samples, temperature, reader persona, the caller's keys."""

    samples: int = 1
    temperature: float = 0.0
    persona: Persona | None = None
    keys: Mapping[str, str] | None = None


def _head(_: str, **__: object) -> Scorer:
    from scorers.bert_head.head import load_head

    # Text addressed to the rater is not part of the reply to the person: the default
    # head reads the reply without it, as the judges do (the raw head does not).
    return InjectionGuard(load_head("bert-head"))


def _raw_head(_: str, **__: object) -> Scorer:
    from scorers.bert_head.head import load_head

    return load_head("bert-head-raw")


_JUDGES: dict[tuple[object, ...], LLMJudge] = {}
_JUDGES_LOCK = threading.Lock()


def _judge(responder_id: str, options: JudgeOptions) -> Scorer:
    # One judge (and so one judgement cache) per setting; keys are not part of the
    # cache key on purpose: a judgement does not depend on whose key paid for it.
    responder = judge_responder(f"judge/{responder_id}" if responder_id else "judge")
    key = (responder.id, options.samples, options.temperature, options.persona)
    with _JUDGES_LOCK:
        judge = _JUDGES.get(key)
        if judge is None:
            judge = _JUDGES[key] = LLMJudge(
                responder,
                samples=options.samples,
                temperature=options.temperature,
                persona=options.persona,
            )
    # Text that addresses the rater is removed before any judge reads the reply.
    return InjectionGuard(judge.with_keys(SETTINGS.keys.merged(options.keys)))


_WEIGHTED: dict[tuple[object, ...], Scorer] = {}


def _weighted(model_id: str, options: JudgeOptions) -> Scorer:
    """The probability-weighted local judge (llama.cpp logits; local models only)."""
    from scorers.judge.weighted import WeightedJudge

    provider, _, model = (model_id or DEFAULT_JUDGE.partition("/")[2]).partition("/")
    if provider != "local":
        raise KeyError(
            f"judge-weighted reads token probabilities, so it runs local models only, "
            f"not {model_id!r}"
        )
    key = (model, options.persona)
    with _JUDGES_LOCK:
        judge = _WEIGHTED.get(key)
        if judge is None:
            judge = _WEIGHTED[key] = WeightedJudge(model, persona=options.persona)
    return InjectionGuard(judge)


def _calibrated(inner: Scorer, name: str) -> Scorer:
    from scorers.calibrated import CalibratedScorer
    from scorers.calibration import find_calibration

    return CalibratedScorer(inner, find_calibration(name))


def _normalize(inner: Scorer) -> Scorer:
    from scorers.normalize import NormalizedScorer

    return NormalizedScorer(inner)


SCORERS: Registry[Scorer] = Registry("scorer")


def _judge_name(responder_id: str) -> str:
    return "LLM judge: " + get_responder(responder_id or SAMPLED_JUDGE[6:]).display_name


def _weighted_name(model_id: str) -> str:
    responder = get_responder(model_id or DEFAULT_JUDGE.partition("/")[2])
    return f"LLM judge, probability-weighted: {responder.display_name}"


SCORERS.add("bert-head", _head, name=lambda _: "Empathy head (MiniLM + trained head)")
SCORERS.add("bert-head-raw", _raw_head, name=lambda _: "Empathy head, raw (no defences; teaching)")
SCORERS.add("judge", _judge, name=_judge_name)
SCORERS.add("judge-weighted", _weighted, name=_weighted_name)
SCORERS.add_wrapper("normalize", _normalize, name="reading normalised text")
SCORERS.add_wrapper("calibrated", _calibrated, takes_argument=True, name="calibrated")


def get_scorer(
    scorer_id: str,
    *,
    keys: Mapping[str, str] | None = None,
    samples: int = 1,
    temperature: float = 0.0,
    persona: Persona | None = None,
) -> Scorer:
    """The scorer for ``scorer_id``; judge options apply to ``judge/…`` ids only."""
    return SCORERS.get(scorer_id, options=JudgeOptions(samples, temperature, persona, keys))


def offered_scorer_ids() -> list[str]:
    """The scorers the pages offer: the head, the local judges, every cloud judge, the raw head."""
    judges = [f"judge/{rid}" for rid in judge_responder_ids()]
    return ["bert-head", *dict.fromkeys([DEFAULT_JUDGE, SAMPLED_JUDGE, *judges]), "bert-head-raw"]


def scorer_label(scorer_id: str) -> str:
    """A scorer's readable name, without loading it ('Empathy head (MiniLM + trained head)').

    >>> scorer_label("bert-head+normalize")
    'Empathy head (MiniLM + trained head), reading normalised text'
    """
    return SCORERS.name(scorer_id)
