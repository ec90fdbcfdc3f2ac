"""The flag log: fields, injection round-trips, damaged logs, no keys, 1 MB cells."""

from __future__ import annotations

import csv
import dataclasses
import json

import pytest

import config
from config import Keys
from core.cells import PLAIN_NUMBER
from core.csvlog import CsvLog, read_log
from core.flags import FIELDS, FlagLog, FlagLogError, FlagRecord

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
    for cell in raw.values():  # as a spreadsheet would see them: a plain number is no formula
        assert PLAIN_NUMBER.fullmatch(cell) or not cell.startswith(
            ("=", "+", "-", "@", "\t", "\r", "＝")
        ), cell


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


#: Keys that look like nothing in particular: only knowing them can redact them.
PLAIN_TYPED = "correct horse battery staple"
PLAIN_SERVER = "blue lagoon 42 server"


def test_keys_that_do_not_look_like_keys_never_reach_the_file(tmp_path, monkeypatch):
    server = Keys({"OPENAI_COMPATIBLE_API_KEY": PLAIN_SERVER})
    monkeypatch.setattr(config, "SETTINGS", dataclasses.replace(config.SETTINGS, keys=server))
    rec = record(1)
    rec.note = f"typed {PLAIN_TYPED}; server {PLAIN_SERVER}"
    rec.system_prompt = f"Be kind. {PLAIN_SERVER}"
    rec.message = f"={PLAIN_TYPED}"
    FlagLog(tmp_path).append(rec, secrets=[PLAIN_TYPED])
    (row,) = FlagLog(tmp_path).read()
    assert row["note"] == "typed [redacted]; server [redacted]"
    assert row["system_prompt"] == "Be kind. [redacted]" and row["message"] == "=[redacted]"

    votes = CsvLog(tmp_path / "votes.csv", ("who", "why"), what="vote log")  # any log, same rule
    votes.append({"who": PLAIN_TYPED, "why": "ok"}, secrets=[PLAIN_TYPED])
    votes.append_many([{"who": "a", "why": PLAIN_SERVER}, {"who": "b", "why": PLAIN_TYPED}])
    # the last one was not passed as a secret: nothing about its shape gives it away
    assert [r["why"] for r in votes.read()] == ["ok", "[redacted]", PLAIN_TYPED]
    for name in ("flags.csv", "votes.csv"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert PLAIN_SERVER not in text and text.count(PLAIN_TYPED) == (name == "votes.csv")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda t: t + 'a,b,"unterminated\n', r"line \d+"),
        (lambda t: t + "only,three,fields\r\n", r"line 4: 3 fields, expected 18"),
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
        read_log(path, FIELDS)


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
    from tests.app.test_cli import run_cli

    FlagLog(tmp_path).append(record(1))
    out = tmp_path / "copy.csv"
    result = run_cli("flags", "--output", str(out), "--flag-dir", str(tmp_path))
    assert result.returncode == 0 and "exported 1" in result.stdout
    assert read_log(out, FIELDS)[0]["note"] == "note 1"

    with (tmp_path / "flags.csv").open("a", encoding="utf-8") as fh:
        fh.write("broken,row\n")
    result = run_cli("flags", "--output", str(out), "--flag-dir", str(tmp_path))
    assert result.returncode == 2 and "line 3" in result.stderr  # header, row, broken row
    assert "Traceback" not in result.stderr

    result = run_cli("flags", "--output", str(out), "--flag-dir", str(tmp_path / "empty"))
    assert result.returncode == 2 and "no flags yet" in result.stderr


BIG = "b" * 1_000_000  # a 1 MB cell


def test_a_log_with_a_1mb_cell_is_read_by_the_log_the_cli_and_the_flags_page(tmp_path, monkeypatch):
    values = record(1).values()
    values["note"] = BIG
    with (tmp_path / "flags.csv").open("w", encoding="utf-8", newline="") as fh:  # by hand
        writer = csv.writer(fh, lineterminator="\r\n")
        writer.writerow(FIELDS)
        writer.writerow([values[f] for f in FIELDS])
    (row,) = FlagLog(tmp_path).read()
    assert row["note"] == BIG

    from tests.app.test_cli import run_cli

    out = tmp_path / "copy.csv"
    result = run_cli("flags", "--output", str(out), "--flag-dir", str(tmp_path))
    assert result.returncode == 0 and "exported 1" in result.stdout, result.stderr
    assert read_log(out, FIELDS)[0]["note"] == BIG

    from core import flags as flagging
    from pages import flags as flags_page

    monkeypatch.setattr(
        flagging, "SETTINGS", dataclasses.replace(flagging.SETTINGS, flag_dir=tmp_path)
    )
    view, status = flags_page.latest_rows(20)
    assert "1 flagged case(s)" in status and len(view) == 1
    assert view[0][flags_page.VIEW_HEADERS.index("Note")] == BIG[:300]


def test_a_1mb_note_is_refused_clearly_and_nothing_is_written(tmp_path):
    log = FlagLog(tmp_path)
    log.append(record(1))
    before = (tmp_path / "flags.csv").read_bytes()
    big = record(2)
    big.note = BIG
    with pytest.raises(
        FlagLogError,
        match=r"the note is 1,000,000 characters long; the flag log keeps at most 200,000 per "
        r"cell: shorten it and try again \(nothing was written\)",
    ):
        log.append(big)
    votes = CsvLog(tmp_path / "votes.csv", ("reply",), what="vote log")
    with pytest.raises(FlagLogError, match="the reply is 1,000,000 characters long"):
        votes.append_many([{"reply": "fine"}, {"reply": BIG}])  # one bad row: none written
    assert (tmp_path / "flags.csv").read_bytes() == before and not votes.path.exists()
    assert [r["note"] for r in log.read()] == ["note 1"]


def test_a_flagged_reply_to_a_conversation_keeps_every_turn(tmp_path):
    from core.conversation import parse_conversation
    from responders.base import GenerationSettings, Reply

    conv = parse_conversation(
        "Seeker: My sister died.\nSupporter: I'm so sorry.\nSeeker: I'm numb."
    )
    settings = GenerationSettings(history=conv.history)
    reply = Reply("a/b", "b", conv.message, settings, text="Numb makes sense so soon.")
    log = FlagLog(tmp_path / "flags.csv")
    log.append(FlagRecord.from_reply("compare", reply.to_dict(), [], "check"))
    (row,) = log.read()
    assert parse_conversation(row["message"]) == conv
