"""A comparison: every ticked responder's reply as it streams in (the threads live in
:mod:`studies.reply_stream`), each reply scored and screened as soon as it is finished.

>>> from responders.base import Responder
>>> class Echo(Responder):
...     provider, default_model, label = "echo", "v1", "Echo"
...     def _stream(self, message, settings, keys):
...         yield "I hear you: " + message
>>> last = list(stream_comparison("I feel alone.", [Echo()], []))[-1]
>>> last.panels["echo/v1"].text
'I hear you: I feel alone.'
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from core.conversation import Conversation
from responders.base import Reply, Responder
from scorers.base import Score, Scorer
from scorers.safety import SafetyResult
from scorers.safety import check as check_safety
from scorers.safety.judge import SafetyJudge, SafetyOpinion
from studies.reply_stream import HEARTBEAT_S, Panel, describe_reply, stream_replies

__all__ = [
    "SECOND_OPINION",
    "Comparison",
    "Panel",
    "describe_reply",
    "rescore_comparison",
    "stream_comparison",
    "stream_replies",
]


@dataclass(frozen=True)
class Comparison:
    """A comparison at a moment: the panels and the scores so far.

    ("Comparison" here; a "round" is a class vote, :mod:`studies.votes.rounds`.)
    """

    panels: dict[str, Panel]
    scores: dict[tuple[str, str], Score]
    pending: int  # scores still being computed
    #: The safety screen of each finished reply, by responder id.
    safety: dict[str, SafetyResult] = field(default_factory=dict)
    #: The safety judge's second opinion of each reply, when one was asked for.
    opinions: dict[str, SafetyOpinion] = field(default_factory=dict)
    #: Each scorer's setting (what decides its answers), by scorer id.
    settings: dict[str, str] = field(default_factory=dict)


#: The key a second opinion on safety is pooled under, beside the scorers' ids.
SECOND_OPINION = "safety-second-opinion"


class _Scoring:
    """Scorers (and the safety judge's second opinion) run on finished replies in a small pool,
    so a slow judge never delays what is shown; :meth:`collect` takes in what has finished."""

    def __init__(self, scorers: Sequence[Scorer], second_opinion: SafetyJudge | None) -> None:
        self.scorers, self.second_opinion = scorers, second_opinion
        self.scores: dict[tuple[str, str], Score] = {}
        self.opinions: dict[str, SafetyOpinion] = {}
        self.futures: dict[Future[Any], tuple[str, str]] = {}
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="scorer")

    def submit(self, rid: str, reply: Reply) -> None:
        for scorer in self.scorers:
            history = reply.settings.history
            future = self.pool.submit(scorer.score, reply.text, reply.message, history)
            self.futures[future] = (rid, scorer.id)
        if self.second_opinion is not None:
            # In a conversation the safety judge reads every turn (as Seeker:/Supporter: lines).
            said = reply.conversation.transcript() if reply.settings.history else reply.message
            future = self.pool.submit(self.second_opinion.opinion, said, reply.text)
            self.futures[future] = (rid, SECOND_OPINION)

    def collect(self) -> bool:
        done = [f for f in self.futures if f.done()]
        for future in done:
            key = self.futures.pop(future)
            try:
                result = future.result()
            except Exception as exc:  # a scorer bug must not take the page down
                result = Score.unscored(key[1], f"internal error ({type(exc).__name__})")
            if key[1] == SECOND_OPINION:
                self.opinions[key[0]] = result
            else:
                self.scores[key] = result
        return bool(done)

    def moment(self, panels: dict[str, Panel], safety: dict[str, SafetyResult]) -> Comparison:
        settings = {scorer.id: scorer.setting for scorer in self.scorers}
        return Comparison(
            dict(panels),
            dict(self.scores),
            len(self.futures),
            dict(safety),
            dict(self.opinions),
            settings,
        )

    def drain(
        self, panels: dict[str, Panel], safety: dict[str, SafetyResult], refresh_s: float
    ) -> Iterator[Comparison]:
        """A moment each time more scores are in, and at least once a second (so a page's
        clock moves while a slow judge works), until none is pending."""
        last = time.monotonic()
        while self.futures:
            wait(list(self.futures), timeout=refresh_s, return_when=FIRST_COMPLETED)
            if self.collect() or time.monotonic() - last >= HEARTBEAT_S:
                last = time.monotonic()
                yield self.moment(panels, safety)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def stream_comparison(
    message: str | Conversation,
    responders: Sequence[Responder],
    scorers: Sequence[Scorer],
    *,
    refresh_s: float = 0.1,
    second_opinion: SafetyJudge | None = None,
    **options: object,
) -> Iterator[Comparison]:
    """Like :func:`stream_replies`, and score each reply as soon as it finishes.

    Scores come from a small worker pool, so a slow judge never delays the
    panels; ``pending`` says how many are still on their way. With
    ``second_opinion``, the safety judge reads each reply too (in the same pool).
    """
    scoring = _Scoring(scorers, second_opinion)
    submitted: set[str] = set()
    safety: dict[str, SafetyResult] = {}
    with contextlib.ExitStack() as stack:
        stack.callback(scoring.close)
        panels: dict[str, Panel] = {}
        replies = stream_replies(message, responders, refresh_s=refresh_s, **options)  # type: ignore[arg-type]
        stack.callback(replies.close)  # a closed comparison stops its responders too
        for panels in replies:
            for rid, panel in panels.items():
                if panel.status == "done" and rid not in submitted and panel.reply is not None:
                    submitted.add(rid)
                    # The safety screen takes milliseconds: it runs here, beside the scores.
                    reply = panel.reply
                    safety[rid] = check_safety(reply.message, reply.text, reply.settings.history)
                    scoring.submit(rid, panel.reply)
            scoring.collect()
            yield scoring.moment(panels, safety)
        yield from scoring.drain(panels, safety, refresh_s)


def rescore_comparison(
    shown: Comparison,
    scorers: Sequence[Scorer],
    *,
    refresh_s: float = 0.1,
    second_opinion: SafetyJudge | None = None,
) -> Iterator[Comparison]:
    """Score the replies of ``shown`` again with ``scorers``: no reply is written anew.

    What a visitor does after ticking a judge: the replies on screen stay as they are, and
    the judge does not share the cores with a responder. Scores of scorers not asked for
    are dropped; the safety screen is kept.
    """
    scoring = _Scoring(scorers, second_opinion)
    if second_opinion is None:
        scoring.opinions.update(shown.opinions)
    try:
        for rid, panel in shown.panels.items():
            if panel.status == "done" and panel.reply is not None:
                scoring.submit(rid, panel.reply)
        scoring.collect()
        yield scoring.moment(shown.panels, shown.safety)
        yield from scoring.drain(shown.panels, shown.safety, refresh_s)
    finally:
        scoring.close()
