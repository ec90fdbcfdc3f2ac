"""The Ray engine on a local Ray instance: the same rows as the local threads."""

from __future__ import annotations

import pytest

from core.questions import load_questions
from studies.batch.plan import BatchQuestion, BatchSettings
from studies.batch.run import run_batch
from studies.batch.store import RunFolder

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


def test_no_key_travels_to_ray_and_a_remote_cluster_needs_the_operator():
    """What would be sent to Ray: task arguments and init options hold no key; secrets and
    users' files are never uploaded; a remote address is refused unless allowed."""
    import json
    import pickle

    from config import Keys
    from studies.batch.engine import RAY_EXCLUDES, ray_init_options, ray_task_args
    from studies.batch.plan import plan_rows

    secret = "sk-server-key-never-sent-0123456789"
    task = plan_rows(QUESTIONS[:1], SETTINGS)[0]
    args = ray_task_args(task, (["bert-head"], Keys({"OPENAI_API_KEY": secret}), None))
    assert secret.encode() not in pickle.dumps(args)
    local = ray_init_options(None, 2)
    assert "address" not in local and secret not in json.dumps(local)
    with pytest.raises(ValueError, match="EMPATHY_LAB_RAY_ALLOW_REMOTE"):
        ray_init_options("ray://10.1.2.3:10001", 2, allow_remote=False)
    remote = ray_init_options("ray://10.1.2.3:10001", 2, allow_remote=True)
    assert secret not in json.dumps(remote)
    assert {".env", "runs", "flagged", ".cache", ".git"} <= set(remote["runtime_env"]["excludes"])
    assert remote["runtime_env"]["excludes"] == RAY_EXCLUDES


def test_the_ray_engine_submits_rows_without_the_keys_the_scheduler_holds():
    """The scheduler hands every engine (scorers, keys, factory); Ray's submit drops the keys."""
    import pickle

    from config import Keys
    from studies.batch.engine import RayEngine
    from studies.batch.plan import plan_rows

    calls: list[tuple] = []

    class Recorder:
        def remote(self, *args):  # type: ignore[no-untyped-def]
            calls.append(args)

    secret = "sk-typed-by-a-visitor-0123456789"
    engine = object.__new__(RayEngine)  # no Ray started: only what submit would send
    engine._remote = Recorder()
    task = plan_rows(QUESTIONS[:1], SETTINGS)[0]
    engine.submit(task, (["bert-head"], Keys({"OPENAI_API_KEY": secret}), None))
    (sent,) = calls
    assert sent[0] == task and secret.encode() not in pickle.dumps(sent)
