"""Every CSV the app writes is formula-safe: a cell starting with = + - @ stays text."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from config import ROOT
from core.tables import read_csv, write_table

DANGEROUS = ('=HYPERLINK("http://x","click")', "+1+1", "-2+3", "@SUM(A1:A2)")


def _cells(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="") as fh:
        return [cell for row in csv.reader(fh) for cell in row]


def test_the_one_writer_quotes_every_dangerous_start_and_reads_it_back(tmp_path):
    path = tmp_path / "t.csv"
    write_table(path, [{"reply": d, "n": 1} for d in DANGEROUS])
    written = _cells(path)
    assert all(f"'{d}" in written for d in DANGEROUS)
    assert [r["reply"] for r in read_csv(str(path))] == list(DANGEROUS)


@pytest.fixture(scope="module")
def replies(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("inert") / "in.csv"
    rows = [{"id": str(i), "message": "I feel alone.", "reply": d + " I'm here for you.", "r": "2"}
            for i, d in enumerate(DANGEROUS)]  # fmt: skip
    write_table(path, rows)
    # the input file itself holds the raw formulas, as a user's file would
    path.write_text(path.read_text(encoding="utf-8").replace(",'", ","), encoding="utf-8")
    return path


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["score", "--scorer", "bert-head"],
        ["safety"],
        ["perturb", "--perturbations", "leetspeak", "--rewriter", "none"],
        ["align", "--human", "overall=r", "--scale", "1:3", "--boot", "0", "--rows"],
    ],
    ids=["score", "safety", "perturb", "align"],
)
def test_every_command_writes_dangerous_cells_inert(command, replies, tmp_path):
    out = tmp_path / "out.csv"
    args = [*command, str(out)] if command[-1] == "--rows" else [*command, "--output", str(out)]
    done = subprocess.run(
        [sys.executable, "cli.py", *args[:1], "--input", str(replies), *args[1:]],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    cells = _cells(out)
    raw = [c for c in cells if c.startswith(("=", "+", "-", "@"))]
    assert not raw, raw
    assert any(c.startswith("'=HYPERLINK") for c in cells)


@pytest.mark.slow
def test_resonance_writes_dangerous_stories_inert(tmp_path):
    """``cli.py resonance`` keeps the stories it rated: each dangerous one is written inert."""
    src = tmp_path / "pairs.csv"
    with open(src, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["story_a", "story_b"])
        writer.writerows([d + " I lost my job today.", "My dog died last week."] for d in DANGEROUS)
    out = tmp_path / "out.csv"
    done = subprocess.run(
        [sys.executable, "cli.py", "resonance", "--method", "embedding", "--input", str(src),
         "--output", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    cells = _cells(out)
    assert not [c for c in cells if c.startswith(("=", "+", "-", "@"))]
    assert [r["story_a"] for r in read_csv(str(out))] == [
        d + " I lost my job today." for d in DANGEROUS
    ]


def test_study_rows_are_made_safe_once_by_the_writer(tmp_path):
    """A judge's reason or rationale reads back as it was said: the rows of the story and
    resonance studies hold plain text and the one writer makes it inert (made safe twice,
    ``=x`` came back as ``'=x``)."""
    from scorers.base import Score
    from scorers.resonance import PairRating
    from studies.resonance import rating_cells
    from studies.stories import _cells as story_cells

    said = "=HYPERLINK(1) as the story says"
    score = Score("judge/x", {"a": 2.0}, rationale=said, reason="-2 points")
    rating = PairRating("judge/x", None, reason="@odd", rationale=said)
    path = tmp_path / "rows.csv"
    write_table(path, [story_cells(score), rating_cells(rating)])
    back = read_csv(str(path))
    assert [r["rationale"] for r in back] == [said, said]
    assert [r["reason"] for r in back] == ["-2 points", "@odd"]
    assert not [c for c in _cells(path) if c.startswith(("=", "+", "-", "@", "''"))]


def test_a_dangerous_header_is_written_inert_and_reads_back_as_named(tmp_path):
    """Issue 29: header cells go through the same rule as every other cell; numbers stay numbers."""
    from core.tables import read_csv, write_table

    path = tmp_path / "out.csv"
    column = '=HYPERLINK("http://evil","x")'
    write_table(path, [{"reply": "hi", column: "v", "delta": -1.5}])
    header = path.read_text(encoding="utf-8").splitlines()[0]
    assert header.split(",")[1].startswith("\"'=HYPERLINK"), header
    assert read_csv(str(path)) == [{"reply": "hi", column: "v", "delta": "-1.5"}]
    import pandas as pd

    assert pd.read_csv(path)["delta"].tolist() == [-1.5]
