"""Several responders at once: isolation of slow and failing ones, retries."""

from __future__ import annotations

import itertools
import time

import pytest

from core.textinput import InputError
from responders.base import ResponderError
from scorers.base import Score, Scorer
from studies.comparison import stream_comparison, stream_replies


def test_slow_responder_does_not_hold_back_a_fast_one(scripted):
    fast = scripted("fast", ["quick ", "reply"])
    slow = scripted("slow", ["s"] * 10, pause_s=0.2)
    snapshots = list(stream_replies("I feel stuck", [slow, fast], refresh_s=0.02))
    first_fast_done = next(
        i for i, s in enumerate(snapshots) if s["scripted/fast"].status == "done"
    )
    assert snapshots[first_fast_done]["scripted/slow"].status in ("waiting", "streaming")
    final = snapshots[-1]
    assert final["scripted/fast"].text == "quick reply"
    assert final["scripted/slow"].text == "s" * 10 and final["scripted/slow"].status == "done"


def test_text_streams_in_growing_snapshots(scripted):
    slow = scripted("slow", ["a", "b", "c"], pause_s=0.1)
    texts = [s["scripted/slow"].text for s in stream_replies("hi", [slow], refresh_s=0.02)]
    assert "a" in texts and "ab" in texts and texts[-1] == "abc"


def test_a_failing_responder_is_isolated_and_keeps_partial_text(scripted):
    good = scripted("good", ["fine"])
    bad = scripted("bad", ["half "], fail=ResponderError("server error (HTTP 500)"))
    final = list(stream_replies("hi", [good, bad]))[-1]
    assert final["scripted/good"].status == "done"
    panel = final["scripted/bad"]
    assert panel.status == "error" and panel.text == "half "
    assert "cut off" in panel.note and "HTTP 500" in panel.note


def test_unexpected_adapter_bug_becomes_an_error_panel(scripted):
    buggy = scripted("buggy", ["x"], fail=ZeroDivisionError())
    final = list(stream_replies("hi", [buggy]))[-1]
    assert final["scripted/buggy"].status == "error"
    assert final["scripted/buggy"].note == "internal error (ZeroDivisionError)"


def test_rate_limits_are_retried_with_settings_recorded(scripted):
    flaky = scripted("flaky", ["after retry"], failures_first=2)
    final = list(stream_replies("hi", [flaky], max_tokens=50, temperature=0.2, system="S"))[-1]
    reply = final["scripted/flaky"].reply
    assert reply.ok and reply.attempts == 3 and len(flaky.calls) == 3
    assert (reply.settings.max_tokens, reply.settings.temperature, reply.settings.system) == (
        50,
        0.2,
        "S",
    )


def test_unavailable_responder_says_why(scripted):
    class NeedsKey(scripted):
        needs_key = True
        key_env_var = "SCRIPTED_API_KEY"

    final = list(stream_replies("hi", [NeedsKey("k")]))[-1]
    assert final["scripted/k"].status == "unavailable"
    assert "needs SCRIPTED_API_KEY" in final["scripted/k"].note
    final = list(stream_replies("hi", [NeedsKey("k")], keys={"SCRIPTED_API_KEY": "typed"}))[-1]
    assert final["scripted/k"].status == "done"


@pytest.mark.parametrize("bad", ["", "   \n\t ", "\x00\x01\x02", "x" * 8001])
def test_bad_messages_are_refused_before_any_call(scripted, bad):
    responder = scripted("never")
    with pytest.raises(InputError):
        next(stream_replies(bad, [responder]))
    assert responder.calls == []


def test_closing_early_stops_the_workers(scripted):
    slow = scripted("slow", ["s"] * 50, pause_s=0.05)
    snapshots = stream_replies("hi", [slow], refresh_s=0.02)
    next(snapshots)
    next(snapshots)
    snapshots.close()
    time.sleep(0.5)
    stopped_at = slow.yielded
    time.sleep(0.3)
    assert slow.yielded == stopped_at < 50


def test_a_silent_responder_still_gets_a_snapshot_every_second(scripted):
    # A model loading or a server sending nothing: the page's clock must move and its Stop
    # (which waits for this generator to hand back control) must take effect within a second.
    silent = scripted("silent", ["late"], pause_s=3.5)
    snapshots = stream_replies("hi", [silent], refresh_s=0.02)
    started = time.monotonic()
    gaps = []
    for _ in range(4):
        next(snapshots)
        gaps.append(time.monotonic() - started)
    snapshots.close()
    assert gaps[-1] < 3.4  # four snapshots before the first word (the first at once)
    assert all(b - a < 1.5 for a, b in itertools.pairwise(gaps))


class LengthScorer(Scorer):
    """Scores by reply length; raises on the word 'boom' to test isolation."""

    id = "length"

    def _score_batch(self, items):
        if any("boom" in i.reply for i in items):
            raise RuntimeError("scorer bug")
        return [Score.from_components(self.id, 1 + min(len(i.reply), 20) / 10, 2, 2) for i in items]


def test_round_scores_each_reply_as_it_finishes(scripted):
    fast = scripted("fast", ["short"])
    slow = scripted("slow", ["a much longer reply"], pause_s=0.3)
    broken = scripted("broken", ["boom"])
    rounds = list(stream_comparison("hi", [fast, slow, broken], [LengthScorer()], refresh_s=0.02))
    first_fast_score = next(
        i for i, r in enumerate(rounds) if ("scripted/fast", "length") in r.scores
    )
    assert rounds[first_fast_score].panels["scripted/slow"].status != "done"
    final = rounds[-1]
    assert final.pending == 0 and len(final.scores) == 3
    assert final.scores[("scripted/fast", "length")].cognitive == pytest.approx(1.5)
    assert final.scores[("scripted/broken", "length")].reason == "internal error (RuntimeError)"
