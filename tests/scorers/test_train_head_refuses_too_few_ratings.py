"""Issue 51, point 2: ``cli.py train-head --labels`` on a clinic's first ratings crashed with
scikit-learn's traceback ("n_splits=5 greater than the number of samples: n_samples=2"; with
``--folds 2``: "…number of groups: 1"). It now refuses before any training, in plain words
that state the minimum and how many more ratings it takes, and warns when few is enough."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cli
from config import ROOT

HEADER = "message,reply,cognitive,emotional,behavioral\n"


def labels(tmp_path: Path, *messages: str) -> Path:
    """A labels CSV (as ``cli.py ratings export`` writes it): one rated reply per message."""
    path = tmp_path / "labels.csv"
    rows = "".join(
        f"{m},Reply {k} to {m}.,{1 + k % 3},2,{1 + (k + 1) % 3}\n" for k, m in enumerate(messages)
    )
    path.write_text(HEADER + rows, encoding="utf-8")
    return path


def test_two_ratings_are_refused_in_plain_words_not_a_traceback(tmp_path) -> None:
    two = labels(tmp_path, "I cannot sleep", "I cannot sleep")
    command = [sys.executable, "cli.py", "train-head", "--labels", str(two), "--no-checks",
               "--output-dir", str(tmp_path / "head")]  # fmt: skip
    done = subprocess.run(
        command,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "n_splits" not in done.stderr
    assert "needs at least 5 rated replies to 5 different messages for 5 folds" in done.stderr
    assert "you have 2 replies to 1 message: rate 4 more replies" in done.stderr
    assert not (tmp_path / "head").exists()


def test_fewer_messages_than_folds_is_refused_with_how_many_more(tmp_path, capsys) -> None:
    two = labels(tmp_path, "I cannot sleep", "I cannot sleep")
    assert cli.main(["train-head", "--labels", str(two), "--folds", "2", "--no-checks"]) == 2
    err = capsys.readouterr().err
    assert "needs at least 2 rated replies to 2 different messages for 2 folds" in err
    assert "rate 1 more reply, to a message not rated yet" in err
    assert "number of groups" not in err
    assert cli.main(["train-head", "--labels", str(two), "--folds", "1", "--no-checks"]) == 2
    assert "--folds must be at least 2 (got 1)" in capsys.readouterr().err


def test_just_enough_ratings_train_with_a_warning_that_the_figures_are_wide(
    tmp_path, capsys
) -> None:
    two = labels(tmp_path, "I cannot sleep", "My dog died")
    out = tmp_path / "head"
    args = ["train-head", "--labels", str(two), "--output-dir", str(out), "--epochs", "2",
            "--heads", "1", "--folds", "2", "--recipe", "reply", "--no-checks"]  # fmt: skip
    assert cli.main(args) == 0
    err = capsys.readouterr().err
    assert "warning: only 2 rated replies: the cross-validated figures will be wide" in err
    assert (out / "bert_head.json").exists()
