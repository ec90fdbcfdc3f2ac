"""The flag log: concurrent writers, injection round-trips, damaged logs, no keys."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import threading

import pytest

from config import ROOT
from core.flags import FIELDS, FlagLog, FlagLogError, FlagRecord, read_flags

INJECTIONS = [
    '=HYPERLINK("http://evil.example","click")',
    "+1+1",
    "-2+3",
    "@SUM(A1:A9)",
    "\tstarts with a tab",
    "\rstarts with a carriage return",
    "＝1+1 (full-width)",
    "'already quoted",
    "''two quotes",
    'quotes " and, commas\nand newlines\r\nand "more"',
    "שלום — مرحبا — 你好 — 👩‍👩‍👧 — e\u0301",
]


def record(i: int, text: str = "reply") -> FlagRecord:
    return FlagRecord(
        page="compare",
        message=f"message {i}",
        reply=f"{text} {i}",
        responder_id="local/qwen2.5-coder-1.5b",
        model="qwen2.5-coder-1.5b",
        system_prompt="Be kind.",
        max_tokens=64,
        temperature=0.0,
        scores=[
            {
                "scorer_id": "bert-head",
                "cognitive": 2.0,
                "emotional": 2.5,
                "behavioral": 1.5,
                "overall": 2.0,
                "status": "ok",
            }
        ],
        perturbation_id="leetspeak",
        perturbation_seed=-3,
        perturbation_method="rule",
        original_reply="the original",
        note=f"note {i}",
    )


def test_header_once_and_every_field_kept(tmp_path):
    log = FlagLog(tmp_path)
    log.append(record(1))
    log.append(record(2))
    lines = (tmp_path / "flags.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == ",".join(FIELDS) and sum(line.startswith("flag_id") for line in lines) == 1
    rows = log.read()
    assert [r["note"] for r in rows] == ["note 1", "note 2"]
    row = rows[0]
    assert (
        row["perturbation_seed"] == "-3"
        and row["max_tokens"] == "64"
        and row["temperature"] == "0.0"
    )
    assert json.loads(row["scores"])[0]["emotional"] == 2.5
    assert row["app_version"] and row["timestamp"].endswith("+00:00") and len(row["flag_id"]) == 32


@pytest.mark.parametrize("text", INJECTIONS)
def test_injection_strings_round_trip_and_are_inert(tmp_path, text):
    log = FlagLog(tmp_path)
    rec = record(0)
    rec.reply, rec.note, rec.message = text, text, text
    log.append(rec)
    (row,) = log.read()
    assert row["reply"] == text and row["note"] == text and row["message"] == text
    with (tmp_path / "flags.csv").open(encoding="utf-8", newline="") as fh:
        raw = next(iter(csv.DictReader(fh)))
    for cell in raw.values():  # as a spreadsheet would see them
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r", "＝"))


def test_many_threads_flag_at_once(tmp_path):
    log = FlagLog(tmp_path)
    errors: list[Exception] = []

    def work(t: int) -> None:
        try:
            for i in range(25):
                FlagLog(tmp_path).append(record(t * 100 + i, "x" * 3000))
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    rows = log.read()
    assert len(rows) == 200
    assert sorted(int(r["note"].split()[1]) for r in rows) == sorted(
        t * 100 + i for t in range(8) for i in range(25)
    )
    assert all(r["reply"] == "x" * 3000 + " " + r["note"].split()[1] for r in rows)


WRITER = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from core.flags import FlagLog, FlagRecord
log = FlagLog(Path({folder!r}))
for i in range(40):
    log.append(FlagRecord(page="cli", message="m", reply="y" * 5000 + " " + sys.argv[1], note=f"{{sys.argv[1]}}-{{i}}"))
"""


def test_several_processes_flag_at_once(tmp_path):
    script = WRITER.format(root=str(ROOT), folder=str(tmp_path))
    procs = [subprocess.Popen([sys.executable, "-c", script, str(p)]) for p in range(4)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    rows = FlagLog(tmp_path).read()
    assert len(rows) == 160
    assert sorted(r["note"] for r in rows) == sorted(
        f"{p}-{i}" for p in range(4) for i in range(40)
    )
    assert all(r["reply"] == "y" * 5000 + " " + r["note"].split("-")[0] for r in rows)


def test_no_key_ever_reaches_the_file(tmp_path, monkeypatch):
    typed = "typed-session-key-1234567890"
    rec = record(1)
    rec.note = f"my key is {typed} and sk-proj-ABCDEFGHIJKLMNOPQRSTUV plus AIzaSyA1234567890abcdefghijklmnopqrstu"
    rec.message = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"
    FlagLog(tmp_path).append(rec, secrets=[typed])
    text = (tmp_path / "flags.csv").read_text(encoding="utf-8")
    assert (
        typed not in text
        and "sk-proj-ABC" not in text
        and "AIzaSy" not in text
        and "sk-ant-" not in text
    )
    assert text.count("[redacted]") == 4


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda t: t + 'a,b,"unterminated\n', r"line \d+"),
        (lambda t: t + "only,three,fields\r\n", r"line 4: 3 fields, expected 17"),
        (lambda t: t.replace("note 1", "note\x001"), "NUL"),
        (lambda t: "hand,made,header\r\n" + t, "line 1: unexpected header"),
    ],
    ids=["unterminated-quote", "short-row", "nul-byte", "edited-header"],
)
def test_damaged_log_names_the_bad_line(tmp_path, damage, message):
    log = FlagLog(tmp_path)
    log.append(record(1))
    log.append(record(2))
    path = tmp_path / "flags.csv"
    path.write_text(damage(path.read_text(encoding="utf-8")), encoding="utf-8", newline="")
    with pytest.raises(FlagLogError, match=message):
        read_flags(path)


def test_binary_log_is_a_clear_error(tmp_path):
    (tmp_path / "flags.csv").write_bytes(b"flag_id,\xff\xfe\xfa")
    with pytest.raises(FlagLogError, match="line 1: not UTF-8"):
        FlagLog(tmp_path).read()


def test_a_log_with_other_columns_is_not_appended_to(tmp_path):
    (tmp_path / "flags.csv").write_bytes(b"a,b\r\n1,2\r\n")
    with pytest.raises(FlagLogError, match="move it aside"):
        FlagLog(tmp_path).append(record(1))
    assert (tmp_path / "flags.csv").read_bytes() == b"a,b\r\n1,2\r\n"


def test_cli_exports_and_reports_damage(tmp_path):
    from tests.test_cli import run_cli

    FlagLog(tmp_path).append(record(1))
    out = tmp_path / "copy.csv"
    result = run_cli("flags", "--output", str(out), "--flag-dir", str(tmp_path))
    assert result.returncode == 0 and "exported 1" in result.stdout
    assert read_flags(out)[0]["note"] == "note 1"

    with (tmp_path / "flags.csv").open("a", encoding="utf-8") as fh:
        fh.write("broken,row\n")
    result = run_cli("flags", "--output", str(out), "--flag-dir", str(tmp_path))
    assert result.returncode == 2 and "line 3" in result.stderr  # header, row, broken row
    assert "Traceback" not in result.stderr

    result = run_cli("flags", "--output", str(out), "--flag-dir", str(tmp_path / "empty"))
    assert result.returncode == 2 and "no flags yet" in result.stderr
