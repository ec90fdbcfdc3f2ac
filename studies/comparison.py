"""Asking several responders at once and following their replies as they stream.

Each responder runs in its own thread, so a slow or failing provider never
holds up the others. :func:`stream_replies` yields a snapshot of every panel
whenever something changed; the last snapshot holds each finished
:class:`~responders.base.Reply`. Closing the iterator early (a visitor left
the page) tells the threads to stop reading.

>>> from responders.base import Responder
>>> class Twice(Responder):
...     provider, default_model, label = "twice", "v1", "Twice"
...     def _stream(self, message, settings, keys):
...         yield message + " " + message
>>> last = list(stream_replies("hi", [Twice()]))[-1]
>>> last["twice/v1"].status, last["twice/v1"].text
('done', 'hi hi')
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Any

from config import DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, Keys
from core.conversation import Conversation
from core.textinput import InputError, clean_text
from responders.base import Reply, Responder, ResponderError, ResponderUnavailable
from responders.registry import get_responder
from scorers.base import Score, Scorer
from scorers.safety import SafetyResult
from scorers.safety import check as check_safety
from scorers.safety.judge import SafetyJudge, SafetyOpinion


@dataclass(frozen=True)
class Panel:
    """What one responder's panel shows at a moment."""

    responder_id: str
    status: str  # waiting | streaming | done | error | unavailable
    text: str = ""
    note: str = ""
    reply: Reply | None = None

    def summary(self) -> str:
        """One status line: latency and tokens when done, else the reason."""
        if self.status == "done" and self.reply is not None:
            return describe_reply(self.reply)
        if self.status == "streaming":
            return "streaming…"
        if self.status == "waiting":
            return "waiting…"
        return f"{self.status}: {self.note}"


def _is_person(responder_id: str) -> bool:
    try:
        return get_responder(responder_id).is_person
    except (KeyError, ValueError):
        return False


def describe_reply(reply: Reply) -> str:
    """``latency 2.3 s · first token 0.4 s · 120 tokens in / 85 out``.

    >>> from responders.base import GenerationSettings
    >>> r = Reply("a/b", "b", "m", GenerationSettings(), "t", 2.25, 0.5, 10, 5)
    >>> describe_reply(r)
    'latency 2.25 s · first token 0.50 s · tokens 10 in / 5 out'
    """
    if _is_person(reply.responder_id):
        return "a person's own answer: no model, so no latency or tokens"
    parts = []
    if reply.latency_s is not None:
        parts.append(f"latency {reply.latency_s:.2f} s")
    if reply.first_token_s is not None:
        parts.append(f"first token {reply.first_token_s:.2f} s")
    if reply.prompt_tokens is not None or reply.completion_tokens is not None:
        inn = "?" if reply.prompt_tokens is None else reply.prompt_tokens
        out = "?" if reply.completion_tokens is None else reply.completion_tokens
        parts.append(f"tokens {inn} in / {out} out")
    else:
        parts.append("tokens: not reported")
    if reply.attempts > 1:
        parts.append(f"{reply.attempts} attempts")
    if reply.cut_off:
        parts.append(f"✂ cut off at the {reply.settings.max_tokens}-token limit")
    return " · ".join(parts)


def _worker(
    responder: Responder,
    message: str | Conversation,
    options: dict[str, object],
    events: queue.Queue[tuple[str, str, object]],
    stop: threading.Event,
) -> None:
    rid = responder.id
    try:
        generation = responder.generate(message, **options)  # type: ignore[arg-type]
    except (ResponderUnavailable, InputError, ValueError) as exc:
        events.put((rid, "unavailable", str(exc)))
        return
    try:
        for chunk in generation:
            if stop.is_set():
                generation.reply.error = "stopped: the page was closed"
                break
            events.put((rid, "chunk", chunk))
        events.put((rid, "done", generation.reply))
    except ResponderError:
        events.put((rid, "error", generation.reply))
    except Exception as exc:  # a bug in an adapter must not take the page down
        generation.reply.error = f"internal error ({type(exc).__name__})"
        events.put((rid, "error", generation.reply))
    finally:
        generation.close()


def stream_replies(
    message: str | Conversation,
    responders: Sequence[Responder],
    *,
    system: str | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    temperature: float = DEFAULT_TEMPERATURE,
    keys: Keys | Mapping[str, str] | None = None,
    refresh_s: float = 0.1,
) -> Iterator[dict[str, Panel]]:
    """Yield ``{responder id: Panel}`` snapshots until every responder has finished.

    ``message`` may be a conversation ending on the seeker's turn: every responder then
    writes the next supporter turn. Raises :class:`textinput.InputError` at once for an
    unusable message.
    """
    if not isinstance(message, Conversation):
        message = clean_text(message)
    options = {"system": system, "max_tokens": max_tokens, "temperature": temperature, "keys": keys}
    panels = {r.id: Panel(r.id, "waiting") for r in responders}
    events: queue.Queue[tuple[str, str, object]] = queue.Queue()
    stop = threading.Event()
    threads = [
        threading.Thread(target=_worker, args=(r, message, options, events, stop), daemon=True)
        for r in responders
    ]
    for thread in threads:
        thread.start()
    finished = 0
    yield dict(panels)
    try:
        while finished < len(threads):
            changed = _drain(events, panels, timeout=refresh_s)
            finished = sum(p.status in ("done", "error", "unavailable") for p in panels.values())
            if changed:
                yield dict(panels)
    finally:
        stop.set()


def _drain(
    events: queue.Queue[tuple[str, str, object]], panels: dict[str, Panel], timeout: float
) -> bool:
    """Apply every queued event to ``panels``; wait up to ``timeout`` for the first."""
    deadline = time.monotonic() + timeout
    changed = False
    while True:
        try:
            rid, kind, payload = events.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            return changed
        changed = True
        panel = panels[rid]
        if kind == "chunk":
            panels[rid] = replace(panel, status="streaming", text=panel.text + str(payload))
        elif kind == "unavailable":
            panels[rid] = replace(panel, status="unavailable", note=str(payload))
        else:
            reply = payload
            assert isinstance(reply, Reply)
            status = "done" if reply.ok else "error"
            panels[rid] = replace(
                panel, status=status, text=reply.text, note=reply.error or "", reply=reply
            )


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

    def describe(self, elapsed_s: float) -> str:
        """One progress line: what is running, how many of how many, elapsed time.

        >>> Comparison({"a/b": Panel("a/b", "streaming")}, {}, 0).describe(3.2)
        'Replies: 0 of 1 finished (1 streaming) · scores: 0 ready · 3 s'
        """
        ended = sum(p.status in ("done", "error", "unavailable") for p in self.panels.values())
        streaming = sum(p.status == "streaming" for p in self.panels.values())
        line = f"Replies: {ended} of {len(self.panels)} finished"
        if streaming:
            line += f" ({streaming} streaming)"
        line += f" · scores: {len(self.scores)} ready"
        if self.pending:
            line += f", {self.pending} being computed"
        return f"{line} · {elapsed_s:.0f} s"


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
            if self.collect() or time.monotonic() - last >= 1.0:
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
