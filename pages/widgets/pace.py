"""How long the local model takes, for the pages' time estimates: figures measured on a
2-core CPU (the machine this app is tried on), and the estimates computed from them and
the number of replies. The fixed ranges shown before ("30–100 s each", "4–18 s per reply")
were about ten times too long.

Measured on a 2-core CPU, the model already loaded unless said:

- The local model's replies: about 0.055 s a token, reading the prompt included, 100 tokens
  a reply on average (:mod:`core.local_pace`, which the command-line batch reads too).
- The local judge: about 2.5–3 s a reply probability-weighted, 5 s sampled, on a quiet
  machine; about three times that while other work shared the CPU (8.9 s a Welivita reply,
  13 lab texts in 98–112 s). Loading the model the first time took about 10 s more.

>>> about(5.5), about(27.5), about(95), about(5400)
('about 6 s', 'about 30 s', 'about 2 min', 'about 1.5 h')
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.local_pace import reply_seconds
from core.progress import Progress
from scorers.registry import SCORERS
from studies.batch.plan import BatchQuestion, BatchSettings, plan_rows, with_as_written
from studies.batch.run import estimate

#: Seconds a reply took with the local judge on a quiet machine, by judge family.
JUDGE_SECONDS = {"judge-weighted": 3.0, "judge": 5.0}
#: How many times longer the local judge took while other work shared the CPU.
BUSY = 3
#: Seconds loading the local model took the first time it was used.
LOAD_SECONDS = 10.0
#: The batch engine's time left before a provider's first reply: a fixed guess per provider.
GUESSED_ETA = re.compile(r"ETA [^·]*\(a guess until the first reply of each kind\)")


def about(seconds: float) -> str:
    """A duration as people say it, rounded to what an estimate can promise."""
    if seconds < 20:
        return f"about {max(1, round(seconds))} s"
    if seconds < 60:
        return f"about {round(seconds / 5) * 5} s"
    if seconds < 3600:
        return f"about {round(seconds / 60)} min"
    return f"about {seconds / 3600:.1f} h"


def local_judge_seconds(scorer_id: str) -> float | None:
    """Seconds a reply takes with ``scorer_id`` when it is a local judge (None otherwise).

    >>> local_judge_seconds("judge-weighted/local/qwen2.5-coder-1.5b+normalize")
    3.0
    >>> local_judge_seconds("bert-head"), local_judge_seconds("judge/openai/gpt-4o")
    (None, None)
    """
    try:
        family, model, _ = SCORERS.parse(scorer_id)
    except KeyError:
        return None
    return JUDGE_SECONDS.get(family) if model.startswith("local/") else None


def judging_time(scorer_ids: Iterable[str], replies: int) -> str:
    """What scoring ``replies`` replies with the chosen local judges takes ('' when none is
    chosen: the empathy head takes seconds; a cloud judge's time is its service's).
    ``replies`` 0 means every reply of the set.

    >>> print(judging_time(["judge-weighted/local/qwen2.5-coder-1.5b"], 40))
    Time with the local judge: 40 replies × about 3 s each, plus about 10 s to load it the first time: about 2 min on a quiet 2-core CPU, up to about 6 min while other work shares it.
    >>> judging_time(["bert-head"], 40)
    ''
    """
    each = sum(s for s in map(local_judge_seconds, scorer_ids) if s)
    if not each:
        return ""
    if replies < 1:
        return (
            f"Time with the local judge: about {each:g} s a reply on a quiet 2-core CPU, up "
            f"to {BUSY} times that while other work shares it; every reply of a set of 1,000 "
            f"takes {about(1000 * each)} or more. Choose a sample size."
        )
    quiet = replies * each + LOAD_SECONDS
    return (
        f"Time with the local judge: {replies} {'reply' if replies == 1 else 'replies'} × about "
        f"{each:g} s each, plus about {LOAD_SECONDS:g} s to load it the first time: "
        f"{about(quiet)} on a quiet 2-core CPU, up to {about(BUSY * quiet)} while other work "
        "shares it."
    )


def judge_speed(texts: int = 0) -> str:
    """The local judge's measured pace in a sentence, and what ``texts`` texts take with it.

    >>> print(judge_speed(13))
    The local judge took about 3 s a text (5 s the sampled one) on a quiet 2-core CPU, up to 3 times that while other work shared it: 13 texts take about 40 s to about 2 min (about 1 min to about 3 min sampled).
    """
    weighted, sampled = JUDGE_SECONDS["judge-weighted"], JUDGE_SECONDS["judge"]
    pace = (
        f"The local judge took about {weighted:g} s a text ({sampled:g} s the sampled one) on a "
        f"quiet 2-core CPU, up to {BUSY} times that while other work shared it"
    )
    if texts < 1:
        return pace + "."
    spans = [f"{about(texts * s)} to {about(BUSY * texts * s)}" for s in (weighted, sampled)]
    return f"{pace}: {texts} texts take {spans[0]} ({spans[1]} sampled)."


def batch_time(replies: int, local: int, max_tokens: int) -> str:
    """What a batch with ``local`` of its ``replies`` from the local model takes (one at a
    time; the other replies come in beside them), from the measured pace per token.

    >>> batch_time(4, 4, 64)
    '4 replies planned (4 from the local model, one at a time: about 4 s each on a 2-core CPU). Expect about 14 s.'
    >>> batch_time(10, 5, 200)
    '10 replies planned (5 from the local model, one at a time: about 6 s each on a 2-core CPU, up to about 11 s when a reply runs to its 200-token limit). Expect about 30 s, at most about 55 s.'
    """
    typical, longest = reply_seconds(max_tokens)
    each, bound = f"{about(typical)} each on a 2-core CPU", ""
    if longest > typical:
        each += f", up to {about(longest)} when a reply runs to its {max_tokens}-token limit"
        bound = f", at most {about(local * longest)}"
    return (
        f"{replies} {'reply' if replies == 1 else 'replies'} planned ({local} from the local "
        f"model, one at a time: {each}). Expect {about(local * typical)}{bound}."
    )


def plan_time(questions: list[BatchQuestion], settings: BatchSettings, concurrency: int) -> str:
    """What a batch plan takes, in one line: the local model's replies at its measured pace
    (:func:`batch_time`), else the batch's own estimate for replies that come in seconds."""
    rows = plan_rows(questions, with_as_written(settings))
    local = sum(row.provider == "local" for row in rows)
    if not local:
        return estimate(questions, settings, concurrency)
    return batch_time(len(rows), local, settings.max_tokens)


def measured_eta(report: Progress) -> Progress:
    """``report`` with the batch engine's guessed time left (a range per provider before its
    first reply; the page's plan line already gave the measured estimate) replaced by when
    it will be known: the time left shown is only ever this run's own pace.

    >>> seen = []
    >>> measured_eta(lambda d, t, what: seen.append(what))(
    ...     0, 4, "0 done · ETA 2–8 min (a guess until the first reply of each kind)")
    >>> seen
    ['0 done · time left: known after the first reply']
    """

    def passed(done: int, total: int, what: str) -> None:
        report(done, total, GUESSED_ETA.sub("time left: known after the first reply", what))

    return passed
