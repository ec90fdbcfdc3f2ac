"""What strangers can leave on the server and reach there: each visitor's batch runs are
capped and expire, only a visitor's own run folder is served (never a command-line run), a
request body over the cap is refused before any page reads it, and Gradio keeps no run
history in the browser."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Iterator
from pathlib import Path

import gradio as gr
import httpx
import pytest

import config
from core.textinput import InputError
from core.visitor_runs import check_room, prune
from core.visitors import ensure_visitor, folder_name
from pages.widgets.launch import launch_options


def a_run(owner: Path, name: str, size: int = 10, age_days: float = 0) -> Path:
    run = owner / name
    run.mkdir(parents=True)
    (run / "results.csv").write_bytes(b"x" * size)
    stamp = time.time() - age_days * 86400
    for item in (run / "results.csv", run):
        os.utime(item, (stamp, stamp))
    return run


def test_runs_past_their_days_and_the_oldest_past_the_disk_cap_are_removed(tmp_path):
    old = a_run(tmp_path / "v1", "old", age_days=8)
    older_fresh = a_run(tmp_path / "v1", "a", size=600, age_days=2)
    running = a_run(tmp_path / "v2", "busy", size=600, age_days=3)
    newest = a_run(tmp_path / "v2", "b", size=600, age_days=1)
    removed = prune(tmp_path, keep_days=7, max_bytes=1300, busy=frozenset({running}))
    assert removed == [old, older_fresh]  # the expired one, then the oldest until it fits
    assert running.exists() and newest.exists() and not (tmp_path / "v1").exists()


def test_a_visitor_with_no_room_is_told_so_and_may_continue_a_run(tmp_path):
    owner = tmp_path / "v1"
    a_run(owner, "first", size=100)
    check_room(owner, "first", max_runs=1, max_bytes=1000)  # continuing is not a new run
    with pytest.raises(InputError, match="1 batch runs kept here"):
        check_room(owner, "second", max_runs=1, max_bytes=1000)
    with pytest.raises(InputError, match=r"take 0\.0 MB here"):
        check_room(owner, "first", max_runs=5, max_bytes=50)


def test_the_batch_page_refuses_a_run_past_the_visitors_limit(tmp_path, monkeypatch):
    from pages import batch

    monkeypatch.setattr(batch, "RUNS_DIR", tmp_path)
    monkeypatch.setattr(
        config, "SETTINGS", dataclasses.replace(config.SETTINGS, visitor_max_runs=1)
    )
    visitor = ensure_visitor(None)
    a_run(tmp_path / "visitors" / folder_name(visitor), "kept")
    with pytest.raises(gr.Error, match="the most this server keeps for one visitor"):
        batch.make_room(batch.run_folder("another", visitor))
    batch.make_room(batch.run_folder("kept", visitor))  # its own run: on it goes


def test_a_batch_needs_an_id_the_server_issued():
    from pages import batch

    with pytest.raises(gr.Error, match="no visitor id yet"):
        batch.run_folder("my-batch", "made-up-id-00000000000000000")


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    """A small page launched as the app launches (its runs folder a temporary one)."""
    monkeypatch.setattr(config, "RUNS_DIR", tmp_path)
    with gr.Blocks() as demo:
        box = gr.Textbox()
        box.submit(lambda text: len(text), box, gr.Number(), api_name="count")
    demo.queue().launch(
        prevent_thread_lock=True, quiet=True, server_name="127.0.0.1", **launch_options()
    )
    try:
        yield demo.local_url.rstrip("/"), tmp_path
    finally:
        demo.close()


@pytest.mark.slow
def test_only_a_visitors_own_run_folder_is_served(server):
    url, runs = server
    cli_run = a_run(runs, "nightly") / "results.csv"  # made on the command line
    digest = folder_name(ensure_visitor(None))
    mine = a_run(runs / "visitors" / digest, "my-batch") / "results.csv"
    assert httpx.get(f"{url}/gradio_api/file={mine}").status_code == 200
    assert httpx.get(f"{url}/gradio_api/file={cli_run}").status_code == 403


@pytest.mark.slow
def test_a_request_body_over_the_cap_is_refused_before_any_page_reads_it(server):
    url, _ = server
    cap = config.SETTINGS.max_request_bytes
    big = {"data": ["x" * (cap + 10)], "fn_index": 0, "session_hash": "s1"}
    answer = httpx.post(f"{url}/gradio_api/queue/join", json=big, timeout=30)
    assert answer.status_code == 413 and "at most 1 MB" in answer.json()["detail"]
    small = {"data": ["hello"], "fn_index": 0, "session_hash": "s2", "event_data": None}
    assert httpx.post(f"{url}/gradio_api/queue/join", json=small, timeout=30).status_code == 200


@pytest.mark.slow
def test_no_run_history_page(server):
    url, _ = server
    assert httpx.get(f"{url}/gradio_api/runs").status_code == 404
