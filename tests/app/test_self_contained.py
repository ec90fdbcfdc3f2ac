"""A clone with nothing beside it (no ``../shared``), as on a Space or in the Docker image.

The clone is made from this repository's committed state into a temporary
folder whose parent holds nothing else; the environment names no data folder.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from config import ROOT

SERVE_EVERY_PAGE = textwrap.dedent(
    """
    import urllib.request
    import app
    port = int(__import__("sys").argv[1])
    app.demo.queue().launch(prevent_thread_lock=True, server_port=port, quiet=True)
    for _title, page in app.PAGES:
        route = app.route_of(page)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/{route}", timeout=60) as r:
            assert r.status == 200, (route, r.status)
        print("served", route)
    app.demo.close()
    """
)


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("alone") / "empathy-lab"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(where)], check=True)
    assert not (where.parent / "shared").exists()
    return where


def _run(clone: Path, *args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMPATHY_LAB_")}
    env["EMPATHY_LAB_CACHE"] = str(clone / ".cache-test")  # no score cache from elsewhere
    env["EMPATHY_LAB_FLAG_DIR"] = str(clone / "flagged-test")
    return subprocess.run(
        [sys.executable, *args], cwd=clone, env=env, capture_output=True, text=True, timeout=timeout
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_every_page_is_served_from_a_clone_with_nothing_beside_it(clone):
    done = _run(clone, "-c", SERVE_EVERY_PAGE, str(_free_port()))
    assert done.returncode == 0, done.stderr[-3000:]
    import app

    assert done.stdout.count("served") == len(app.PAGES)


@pytest.mark.slow
def test_align_on_shipped_sets_works_and_an_absent_set_says_how_to_add_it(clone):
    done = _run(clone, "cli.py", "align", "--bundled", "welivita", "--sample", "6", "--boot", "0")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "overall" in done.stdout + done.stderr
    absent = _run(clone, "cli.py", "align", "--bundled", "epitome", "--boot", "0")
    assert absent.returncode == 2
    assert "not installed" in absent.stderr and "EMPATHY_LAB_DATA_DIR" in absent.stderr
