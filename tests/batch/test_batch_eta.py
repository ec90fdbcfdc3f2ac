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
    line = estimate(QUESTIONS * 3, local)  # 12 local replies of up to 640 tokens, one at a time
    assert line.startswith("24 replies planned (12 from the local model, one at a time, 6–35 s")
    assert line.endswith("Expect about 1–7 min.")
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


LOCAL = "local/qwen2.5-coder-1.5b"


def guessed_range(what: str) -> tuple[float, float]:
    """The (low, high) seconds of a progress line's guessed ETA ("ETA 28–55 s (a guess…)")."""
    found = re.search(r"ETA (\d+)–(\d+) (s|min) \(a guess", what)
    assert found, what
    unit = 60 if found.group(3) == "min" else 1
    return int(found.group(1)) * unit, int(found.group(2)) * unit


def test_the_command_line_first_guess_for_the_local_model_is_its_measured_pace(
    tmp_path, monkeypatch
):
    """Issue 30: before its first reply ``cli.py batch`` said "ETA 2–8 min" for 5 local
    replies of 200 tokens (a fixed 30–100 s each); the pages' measured pace is about 0.055 s
    a token, 100 tokens a typical reply: 5.5–11 s each."""
    import contextlib

    import cli
    from commands import batch as batch_command
    from core.local_pace import reply_seconds
    from responders import registry

    lines: list[str] = []

    @contextlib.contextmanager
    def recorded(_desc: str = ""):  # type: ignore[no-untyped-def]
        yield lambda done, total, what: lines.append(what)

    monkeypatch.setattr(batch_command, "terminal_progress", recorded)
    monkeypatch.setitem(registry._CACHE, LOCAL, ScriptedResponder(chunks=["I hear you."]))
    args = ["batch", "--n", "5", "--responders", LOCAL, "--scorers", "", "--max-tokens", "200"]
    assert cli.main([*args, "--output", str(tmp_path / "run")]) == 0
    low, high = guessed_range(lines[0])  # five local replies, one at a time
    assert high / 5 < 60, lines[0]  # under a minute a reply, not 30–100 s
    typical, longest = reply_seconds(200)
    assert abs(low - 5 * typical) <= 1 and abs(high - 5 * longest) <= 1, lines[0]
