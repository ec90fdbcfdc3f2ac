"""The time left comes from this run's own pace per provider, not from the instant rows."""

from __future__ import annotations

import re

import pytest

from core.questions import load_questions
from studies.batch.plan import BatchQuestion, BatchSettings
from studies.batch.run import estimate, run_batch
from tests.conftest import ScriptedResponder, one_at_a_time

QUESTIONS = [BatchQuestion(str(q.question_id), q.question) for q in load_questions()[:4]]


def seconds(text: str) -> float | None:
    """The ETA of a progress line in seconds (None for a guessed range or none)."""
    found = re.search(r"ETA (?:(\d+)m )?(\d+)s$", text)
    return None if found is None else int(found.group(1) or 0) * 60 + int(found.group(2))


def test_eta_follows_the_slow_responder_while_the_instant_answers_are_done(monkeypatch, tmp_path):
    """Four slow replies (one at a time, ~1 s each) beside four therapists' answers that
    finish at once: after the first slow reply, about three slow replies are left."""
    slow = ScriptedResponder("slow", ["I hear ", "you."], pause_s=0.5)
    one_at_a_time(monkeypatch, "scripted")
    settings = BatchSettings(("scripted/slow", "human/counselchat"), ("study",), ())
    lines: list[tuple[int, str]] = []

    def factory(rid: str):  # type: ignore[no-untyped-def]
        from responders.registry import get_responder

        return slow if rid == "scripted/slow" else get_responder(rid)

    def progress(done: int, total: int, what: str) -> None:
        lines.append((slow.yielded // 2, what))  # slow replies finished

    run_batch(tmp_path, QUESTIONS, settings, progress=progress, make_responder=factory)
    assert "a guess until the first reply" in lines[0][1]
    after_first = [what for finished, what in lines if finished == 1]
    measured = [seconds(what) for what in after_first if seconds(what) is not None]
    assert measured and measured[0] >= 2.5  # three replies of ≥ 1 s each are left
    assert lines[-1][1].endswith("ETA –")


def test_the_page_says_what_a_plan_will_take_before_it_runs():
    local = BatchSettings(("local/qwen2.5-coder-1.5b", "human/counselchat"), ("study",), ())
    line = estimate(QUESTIONS * 3, local)  # 12 local replies at 30–100 s, one at a time
    assert line.startswith("24 replies planned (12 from the local model")
    assert line.endswith("Expect about 6–20 min.")
    assert estimate(QUESTIONS, BatchSettings(("human/counselchat",), ("study",), ())) == (
        "4 replies planned. Expect about a minute or less."
    )


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_cloud_rows_are_guessed_as_seconds_each_until_measured(provider):
    from studies.batch.eta import RowClock

    clock = RowClock({provider: 4})
    assert clock.eta({provider: 8}) == (4.0, 40.0)
    clock.record(provider, 3.0)
    assert clock.eta({provider: 8}) == (6.0, 6.0)
