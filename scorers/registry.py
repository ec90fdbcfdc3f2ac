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

from collections.abc import Mapping
from dataclasses import dataclass

from config import SETTINGS
from core.registry import Registry
from responders.registry import LOCAL_DEFAULT, judge_responder_ids
from scorers.base import Scorer
from scorers.judge.absolute import LLMJudge
from scorers.judge.base import SAMPLED_JUDGE, judge_responder
from scorers.judge.core import Instances
from scorers.judge.guard import InjectionGuard
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
    # head reads the reply without it, as the judges do (the raw head does not). It follows
    # no instructions, so the language and rater-addressed detectors are the judges' alone.
    return InjectionGuard(load_head("bert-head"), reads_instructions=False)


def _raw_head(_: str, **__: object) -> Scorer:
    from scorers.bert_head.head import load_head

    return load_head("bert-head-raw")


#: One judge (and so one judgement cache) per setting; keys are not part of the key on
#: purpose: a judgement does not depend on whose key paid for it.
_JUDGES: Instances[Scorer] = Instances()


def _judge(responder_id: str, options: JudgeOptions) -> Scorer:
    responder = judge_responder(f"judge/{responder_id}")
    judge = _JUDGES.get(
        ("judge", responder.id, options.samples, options.temperature, options.persona),
        lambda: LLMJudge(
            responder,
            samples=options.samples,
            temperature=options.temperature,
            persona=options.persona,
        ),
    )
    # Text that addresses the rater is removed before any judge reads the reply.
    return InjectionGuard(judge.with_keys(SETTINGS.keys.merged(options.keys)))  # type: ignore[attr-defined]


def _weighted(responder_id: str, options: JudgeOptions) -> Scorer:
    """The probability-weighted judge: only a responder whose probabilities can be read."""
    from scorers.judge.weighted import WeightedJudge

    responder = judge_responder(f"judge/{responder_id}")
    if not responder.gives_probabilities:
        raise KeyError(
            "judge-weighted reads token probabilities, so it runs only models that give "
            f"them (the local model), not {responder_id!r}"
        )
    judge = _JUDGES.get(
        ("judge-weighted", responder.id, options.persona),
        lambda: WeightedJudge(responder.model, persona=options.persona),
    )
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
    return "LLM judge: " + judge_responder(f"judge/{responder_id}").display_name


def _weighted_name(responder_id: str) -> str:
    responder = judge_responder(f"judge/{responder_id}")
    return f"LLM judge, probability-weighted: {responder.display_name}"


#: The scorer families that are LLM judges (the rest are trained heads).
JUDGE_FAMILIES = ("judge", "judge-weighted")


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


def is_judge(scorer_id: str) -> bool:
    """Whether ``scorer_id`` names an LLM judge (wrappers included); False when unknown.

    >>> is_judge("judge-weighted/local/qwen2.5-coder-1.5b+normalize"), is_judge("bert-head")
    (True, False)
    """
    try:
        return SCORERS.parse(scorer_id)[0] in JUDGE_FAMILIES
    except KeyError:
        return False


def sampled_judge_ids() -> list[str]:
    """The offered judges that answer with integers on any rubric (``judge/<responder id>``):
    the ones a story, resonance or pairwise study can use."""
    return [sid for sid in offered_scorer_ids() if SCORERS.parse(sid)[0] == "judge"]


def scorer_label(scorer_id: str) -> str:
    """A scorer's readable name, without loading it ('Empathy head (MiniLM + trained head)').

    >>> scorer_label("bert-head+normalize")
    'Empathy head (MiniLM + trained head), reading normalised text'
    """
    return SCORERS.name(scorer_id)
