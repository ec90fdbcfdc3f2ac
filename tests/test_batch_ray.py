"""The Ray engine on a local Ray instance: the same rows as the local threads."""

from __future__ import annotations

import pytest

from core.questions import load_questions
from studies.batch import run_batch
from studies.batch_plan import BatchQuestion, BatchSettings
from studies.batch_store import RunFolder

ray = pytest.importorskip("ray")

QUESTIONS = [BatchQuestion(str(q.question_id), q.question) for q in load_questions()[:4]]
SETTINGS = BatchSettings(("human/counselchat",), ("study",), ("bert-head",), samples=2)
SAME = ("question_id", "responder", "strategy", "sample", "settings_hash", "status", "reply")


@pytest.fixture(scope="module")
def local_ray():  # type: ignore[no-untyped-def]
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


@pytest.mark.slow
def test_ray_engine_gives_the_same_rows_in_order_and_resumes(local_ray, tmp_path):
    threads, on_ray = tmp_path / "threads", tmp_path / "ray"
    run_batch(threads, QUESTIONS, SETTINGS, concurrency=2)
    first = run_batch(on_ray, QUESTIONS[:2], SETTINGS, engine="ray", concurrency=2)
    assert first.done == 4
    second = run_batch(on_ray, QUESTIONS, SETTINGS, engine="ray", concurrency=2)
    assert (second.skipped, second.done, second.failed) == (4, 4, 0)
    local_rows = RunFolder(threads).log().read()
    ray_rows = RunFolder(on_ray).log().read()
    assert [[r[k] for k in SAME] for r in ray_rows] == [[r[k] for k in SAME] for r in local_rows]
    for a, b in zip(local_rows, ray_rows, strict=True):
        assert float(a["bert-head/overall"]) == pytest.approx(
            float(b["bert-head/overall"]), abs=1e-3
        )
