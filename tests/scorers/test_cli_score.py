"""cli.py score: the input plus four scores and a status per row."""

from __future__ import annotations

import csv

import pytest

from core.csvlog import read_log
from tests.app.test_cli import run_cli


def write_csv(path, rows, fields):
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def score_csv(tmp_path, rows, fields, scorer="bert-head"):
    """Run ``cli.py score`` on ``rows``; (the finished process, the output rows)."""
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    write_csv(src, rows, fields)
    result = run_cli("score", "--scorer", scorer, "--input", str(src), "--output", str(out))
    assert result.returncode == 0, result.stderr
    with open(out, encoding="utf-8", newline="") as fh:
        return result, list(csv.DictReader(fh))


def test_score_writes_scores_and_blank_unscored_rows(tmp_path):
    rows = [
        {
            "id": "1",
            "message": "My cat died.",
            "reply": "I'm so sorry. She was family. How are you holding up?",
        },
        {"id": "2", "message": "", "reply": "ok"},
        {"id": "3", "message": "I failed.", "reply": "   "},
        {"id": "4", "message": "=cmd|' /C calc'!A0", "reply": "שלום, אני כאן בשבילך 💙"},
    ]
    result, got = score_csv(tmp_path, rows, ["id", "message", "reply"])
    assert [r["id"] for r in got] == ["1", "2", "3", "4"]
    assert list(got[0])[:3] == ["id", "message", "reply"]
    assert list(got[0])[3:] == [
        "cognitive", "emotional", "behavioral", "overall", "status", "score_note"
    ]  # fmt: skip
    assert got[0]["score_note"] == ""  # nothing set aside from an ordinary reply
    assert got[0]["status"] == "ok" and 1 <= float(got[0]["overall"]) <= 3
    assert got[2]["status"] == "unscored" and got[2]["overall"] == "" and got[2]["cognitive"] == ""
    assert "line 4: unscored" in result.stderr
    assert got[3]["reply"] == rows[3]["reply"] and got[3]["status"] == "ok"


def test_one_1mb_reply_is_unscored_with_the_reason_and_every_row_kept(tmp_path):
    big = "I hear you. " * 90_000  # about 1 MB
    rows = [
        {"id": "1", "message": "My cat died.", "reply": "I'm so sorry. She was family."},
        {"id": "2", "message": "I failed.", "reply": big},
        {"id": "3", "message": "I'm lonely.", "reply": "That sounds hard. Who could you call?"},
    ]
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    write_csv(src, rows, ["id", "message", "reply"])
    result = run_cli("score", "--scorer", "bert-head", "--input", str(src), "--output", str(out))
    assert result.returncode == 0, result.stderr
    got = read_log(out)  # the app's reader takes cells of any size
    assert [r["id"] for r in got] == ["1", "2", "3"] and got[1]["reply"] == big
    assert [r["status"] for r in got] == ["ok", "unscored", "ok"] and got[1]["overall"] == ""
    assert f"line 3: unscored: The reply is {len(big.strip()):,} characters long" in result.stderr
    assert "wrote 3 rows" in result.stderr and "(1 unscored)" in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"message,text\nhi,there\n", "no 'reply' column"),
        (b"reply\n\xff\xfe\x00bad", "not a readable"),
    ],
    ids=["no-reply-column", "binary"],
)
def test_score_rejects_unusable_input_clearly(tmp_path, content, message):
    src = tmp_path / "in.csv"
    src.write_bytes(content)
    result = run_cli(
        "score", "--scorer", "bert-head", "--input", str(src), "--output", str(tmp_path / "o.csv")
    )
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_unknown_scorer(tmp_path):
    src = tmp_path / "in.csv"
    src.write_text("reply\nhello\n")
    result = run_cli(
        "score", "--scorer", "vibes", "--input", str(src), "--output", str(tmp_path / "o.csv")
    )
    assert result.returncode == 2 and "unknown scorer" in result.stderr
