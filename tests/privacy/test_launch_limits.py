"""The launch's limits (issue 29): the operator's upload size, and the runs folder served.

``app.start`` (and each page run alone) launches with
``pages.widgets.launch.launch_options``: Gradio refuses an upload over
``EMPATHY_LAB_MAX_UPLOAD_MB``, and a batch's files are served from
``EMPATHY_LAB_RUNS_DIR`` even when it lies outside the working directory and
the temporary folder (the only places Gradio serves from on its own).
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Iterator
from pathlib import Path

import gradio as gr
import httpx
import pytest
from gradio_client import Client

import config
from pages.widgets.launch import launch_options
from pages.widgets.visitor import ensure_visitor


def _upload(url: str, size: int) -> httpx.Response:
    files = {"files": ("questions.csv", b"q" * size, "text/csv")}
    return httpx.post(url + "gradio_api/upload", files=files, timeout=30)


def test_an_upload_over_the_operators_limit_is_refused(monkeypatch):
    limited = dataclasses.replace(config.SETTINGS, max_upload_bytes=4000)
    monkeypatch.setattr(config, "SETTINGS", limited)
    with gr.Blocks() as demo:
        gr.File()
    demo.launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1", **launch_options())
    try:
        assert _upload(demo.local_url, 3000).status_code == 200
        refused = _upload(demo.local_url, 5000)
        assert refused.status_code == 413 and "4000 bytes" in refused.text
    finally:
        demo.close()


def test_the_default_limit_is_20_mb_and_read_from_the_environment():
    assert config.Settings.from_env({}).max_upload_bytes == 20 * 2**20
    assert config.Settings.from_env({"EMPATHY_LAB_MAX_UPLOAD_MB": "2.5"}).max_upload_bytes == int(
        2.5 * 2**20
    )
    assert config.Settings.from_env({"EMPATHY_LAB_MAX_UPLOAD_MB": "lots"}).max_upload_bytes == (
        20 * 2**20
    )


@pytest.mark.slow
def test_app_start_launches_with_the_limit_and_the_runs_folder(monkeypatch):
    import app

    seen: dict[str, object] = {}
    monkeypatch.setattr(app, "preload", lambda: None)
    monkeypatch.setattr(app, "warm_up", lambda: None)
    monkeypatch.setattr(app.demo, "queue", lambda **_: app.demo)
    monkeypatch.setattr(app.demo, "launch", lambda **kwargs: seen.update(kwargs))
    app.start(server_port=7999)
    assert seen["max_file_size"] == config.SETTINGS.max_upload_bytes == 20 * 2**20
    # Only visitors' run folders (each named by a digest of its visitor's id), never a
    # command-line run beside them; and no run history in the browser.
    assert seen["allowed_paths"] == [str(config.RUNS_DIR / "visitors")]
    assert seen["run_history"] is False
    assert seen["server_port"] == 7999  # the caller's own options still go through


@pytest.fixture
def outside_runs(tmp_path_factory, monkeypatch) -> Iterator[tuple[Client, Path]]:
    """The Batch page with its runs folder outside the working directory and the temp folder."""
    from pages import batch

    runs = tmp_path_factory.mktemp("runs-elsewhere")
    # Gradio serves the working directory and the system's temp folder on its own; point the
    # temp folder elsewhere so the runs folder is reachable only through allowed_paths.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path_factory.mktemp("system-temp")))
    assert not runs.is_relative_to(tempfile.gettempdir())
    assert not runs.is_relative_to(Path.cwd())
    monkeypatch.setattr(config, "RUNS_DIR", runs)
    monkeypatch.setattr(batch, "RUNS_DIR", runs)
    demo = batch.build()
    demo.queue().launch(
        prevent_thread_lock=True, quiet=True, server_name="127.0.0.1", **launch_options()
    )
    try:
        yield Client(demo.local_url, verbose=False), runs
    finally:
        demo.close()


@pytest.mark.slow
def test_batch_files_are_served_from_a_runs_folder_anywhere(outside_runs):
    """Issue 29: with EMPATHY_LAB_RUNS_DIR elsewhere the page showed InvalidPathError."""
    from pages.batch import BUNDLED

    client, runs = outside_runs
    status, _headline, _radar, _bars, files = client.predict(
        2, 0, BUNDLED, None, ["human/counselchat"], ["study"], [], 64, 1, "elsewhere",
        ensure_visitor(None), "", "", "", "", api_name="/batch",
    )  # fmt: skip
    assert "**2** replies made" in status
    fetched = {Path(f).name: Path(f).read_text(encoding="utf-8") for f in files}
    assert sorted(fetched) == ["report.html", "results.csv"]
    (results,) = runs.glob("visitors/*/elsewhere/results.csv")
    assert fetched["results.csv"] == results.read_text(encoding="utf-8")
