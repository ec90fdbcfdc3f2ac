"""Uploads are refused by size and rows before they are held in memory (issue 29).

``core.tables.read_csv`` reads rows one at a time and stops after the limit
plus one; a file over a byte limit is refused before a byte is parsed. Each
study that reads an upload (a batch's questions, a labelled set, Resonance
pairs) does so with its own row limit, and every message names the file by
its base name only (the server's upload folder is never shown).
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pytest

from core.tables import read_csv
from studies import labelled, resonance
from studies.batch import plan


class Pulled:
    """How many rows were taken from every ``csv.DictReader`` made while it is installed."""

    count = 0
    made = 0


@pytest.fixture
def pulled(monkeypatch: pytest.MonkeyPatch) -> type[Pulled]:
    Pulled.count = Pulled.made = 0

    class CountingReader(csv.DictReader):
        def __init__(self, *args: object, **kwargs: object) -> None:
            Pulled.made += 1
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

        def __next__(self) -> dict:
            row = super().__next__()
            Pulled.count += 1
            return row

    monkeypatch.setattr(csv, "DictReader", CountingReader)
    return Pulled


def write_rows(path: Path, header: list[str], rows: int, cell: Callable[[int], list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(cell(i) for i in range(rows))
    return path


def test_a_file_over_the_row_limit_is_refused_after_limit_plus_one_rows(tmp_path, pulled):
    path = write_rows(tmp_path / "big.csv", ["question"], 10_000, lambda i: [f"q {i}"])
    with pytest.raises(ValueError, match=r"^big\.csv has more than 100 rows; at most 100"):
        read_csv(str(path), max_rows=100)
    assert pulled.count == 101  # the reader stopped; the other 9,899 rows were never read
    assert len(read_csv(str(path), max_rows=10_000)) == 10_000  # the limit itself is fine


def test_a_file_over_the_byte_limit_is_refused_before_parsing(tmp_path, pulled):
    folder = tmp_path / "gradio" / "72f7aa"
    folder.mkdir(parents=True)
    path = write_rows(folder / "big.csv", ["question"], 1000, lambda i: [f"question {i}"])
    with pytest.raises(ValueError) as caught:
        read_csv(str(path), max_bytes=2**20 // 100)
    message = str(caught.value)
    assert (
        message.startswith("big.csv is over 0.01 MB, the most that is read") and "/" not in message
    )
    assert pulled.made == 0  # nothing was parsed


@pytest.mark.parametrize(
    ("read", "limit", "header", "cell"),
    [
        (plan.questions_from_csv, plan.MAX_QUESTIONS, ["question"], lambda i: [f"q {i}"]),
        (labelled.read_rows, labelled.MAX_ROWS, ["reply", "rating"], lambda i: [f"r {i}", "2"]),
        (resonance.read_pairs, resonance.MAX_PAIRS, ["story_a", "story_b"], lambda i: ["a", "b"]),
    ],
    ids=["batch questions", "labelled set", "resonance pairs"],
)
def test_each_upload_reader_stops_at_its_own_limit(tmp_path, pulled, read, limit, header, cell):
    at_limit = write_rows(tmp_path / "ok.csv", header, limit, cell)
    assert len(read(at_limit)) == limit
    pulled.count = 0
    over = write_rows(tmp_path / "upload.csv", header, 3 * limit, cell)
    with pytest.raises(ValueError, match=rf"^upload\.csv has more than {limit:,} rows"):
        read(over)
    assert pulled.count == limit + 1


def test_messages_name_only_the_files_base_name(tmp_path):
    folder = tmp_path / "gradio" / "72f7aa"
    folder.mkdir(parents=True)
    bad = write_rows(folder / "bad.csv", ["text"], 2, lambda i: [f"q {i}"])
    with pytest.raises(ValueError) as caught:
        plan.questions_from_csv(bad)
    assert (
        str(caught.value) == "bad.csv needs a 'question' or 'conversation' column (columns: text)"
    )
    with pytest.raises(ValueError) as caught:
        resonance.read_pairs(bad)
    assert str(caught.value).startswith("bad.csv needs story_a and story_b columns")
    (folder / "latin1.csv").write_bytes("question\ncaf\xe9\n".encode("latin-1"))
    with pytest.raises(ValueError) as caught:
        plan.questions_from_csv(folder / "latin1.csv")
    assert str(caught.value).startswith("latin1.csv is not a readable UTF-8 CSV file")
    assert str(folder) not in str(caught.value)
