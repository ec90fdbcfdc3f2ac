"""The Batch page driven through gradio_client (therapists' answers: no model, no network)."""

from __future__ import annotations

import inspect
import threading
from collections.abc import Iterator

import pytest
from gradio_client import Client, handle_file

from pages.widgets.visitor import ensure_visitor, visitor_folder
from studies.batch.store import RunFolder

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Client, object]]:
    from pages import batch

    patch = pytest.MonkeyPatch()
    runs = tmp_path_factory.mktemp("runs")
    patch.setattr(batch, "RUNS_DIR", runs)
    demo = batch.build()
    demo.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1")
    try:
        yield Client(demo.local_url, verbose=False), runs
    finally:
        demo.close()
        patch.undo()


#: An API caller continues its runs by sending the same id each time (a browser keeps its own).
API_VISITOR = ensure_visitor(None)


def ask(
    client: Client,
    name: str,
    n: int = 3,
    responders=("human/counselchat",),
    visitor: str | None = API_VISITOR,
) -> tuple:
    from pages.batch import BUNDLED

    return client.predict(
        n, 0, BUNDLED, None, list(responders), ["study"], [], 64, 1, name, visitor,
        "", "", "", "", api_name="/batch",
    )  # fmt: skip


def test_run_shows_headline_and_files_then_continues(page):
    client, runs = page
    status, headline, _, _, files = ask(client, "page-run")
    assert "**3** replies made" in status
    assert headline["data"][0][:4] == [
        "Licensed therapist (CounselChat)",
        "as written (no prompt)",
        3,
        3,
    ]
    assert sorted(f.rsplit("/", 1)[-1] for f in files) == ["report.html", "results.csv"]
    assert "**3** already done" in ask(client, "page-run")[0]
    assert len(RunFolder(visitor_folder(runs, API_VISITOR, "page-run")).log().read()) == 3
    # a stranger's run of the same name is theirs: it starts afresh and never sees this one's rows
    assert "**3** replies made" in ask(client, "page-run", visitor=ensure_visitor(None))[0]


def test_a_bad_upload_names_only_the_files_base_name(page, tmp_path):
    """Issue 30 point 7: "…/gradio/72f7…/bad.csv needs a 'question' column" showed the server path."""
    from pages.batch import UPLOAD

    client, _ = page
    bad = tmp_path / "bad.csv"
    bad.write_text("text\nI feel alone.\n", encoding="utf-8")
    status, *_ = client.predict(
        5, 0, UPLOAD, handle_file(str(bad)), ["human/counselchat"], ["study"], [], 64, 1,
        "bad-upload", API_VISITOR, "", "", "", "", api_name="/batch",
    )  # fmt: skip
    assert (
        status.startswith("⚠️") and "bad.csv needs a 'question' or 'conversation' column" in status
    )
    assert "/" not in status and "gradio" not in status, status


def test_a_refusal_after_a_run_leaves_no_stale_results(page, tmp_path):
    """Newcomer walk: a bad CSV was refused, but the last run's table, charts and report
    stayed under the refusal as if they were the upload's."""
    from pages.batch import UPLOAD

    client, _ = page
    assert ask(client, "before-refusal")[1] is not None
    bad = tmp_path / "bad.csv"
    bad.write_text("prompt,topic\nhello,x\n", encoding="utf-8")
    status, headline, radar, bars, files = client.predict(
        5, 0, UPLOAD, handle_file(str(bad)), ["human/counselchat"], ["study"], [], 64, 1,
        "after-refusal", API_VISITOR, "", "", "", "", api_name="/batch",
    )  # fmt: skip
    assert status.startswith("⚠️")
    assert headline["data"] == [] and (radar, bars, files) == (None, None, None), (headline, files)


def test_bad_names_and_empty_choices_are_refused_beside_the_button(page):
    client, _ = page
    status, *_ = ask(client, "../escape")
    assert status.startswith("⚠️") and "plain name" in status
    status, *_ = ask(client, "x", responders=())
    assert status.startswith("⚠️") and "at least one responder" in status


def test_the_page_offers_no_control_over_where_work_runs():
    """Engine, cluster address, concurrency and folders are the operator's settings."""
    from pages import batch

    demo = batch.build()
    labels = [str(getattr(block, "label", "") or "").lower() for block in demo.blocks.values()]
    words = ("ray", "engine", "address", "cluster", "at once", "folder", "run on")
    assert not [label for label in labels if any(w in label for w in words)], labels
    offered = [
        str(c).lower() for b in demo.blocks.values() for c in getattr(b, "choices", None) or []
    ]
    assert not [c for c in offered if "ray" in c or "engine" in c], offered
    params = set(inspect.signature(batch.run_page).parameters)
    assert not params & {"engine", "address", "concurrency", "runs_dir", "folder"}
    batch_api = next(dep for dep in demo.config["dependencies"] if dep.get("api_name") == "batch")
    assert len(batch_api["inputs"]) == 10 + 1 + 4  # ten options, the visitor, four key boxes


def test_stop_sets_the_flag_of_the_named_run_of_this_visitor_only():
    from pages import batch

    event = threading.Event()
    mine, stranger = ensure_visitor(None), ensure_visitor(None)
    batch._STOPS[str(batch.run_folder("busy", mine))] = event
    try:
        assert "No run" in batch.stop_run("busy", stranger) and not event.is_set()
        assert "Stopping" in batch.stop_run("busy", mine) and event.is_set()
        assert "No run" in batch.stop_run("idle", mine)
    finally:
        batch._STOPS.clear()
