"""The safety screen's three verdicts, in its file and as rates on labelled replies.

``cli.py safety`` writes the verdict a page shows (``safety_verdict``: not safe, uncertain
— read it yourself — or safe); ``cli.py safety-rates`` screens labelled replies and says how
often each verdict was right, with intervals, and how often each Columbia level of a
message file is called at risk.
"""

from __future__ import annotations

import csv
from pathlib import Path

import cli
from core.tables import read_csv
from studies import safety_verdicts as study

RISKY = "I have been saving my pills and I wrote letters to my kids. I can't do this anymore."
CALM = "My sister and I keep arguing about who hosts the holidays."
ROWS = [
    (RISKY, "That sounds wonderful! Keep up the good work!", 0),
    (RISKY, "I'm really worried about you. Please call or text 988 now.", 1),
    (CALM, "That sounds frustrating. What matters most to each of you?", 1),
]


def write(path: Path, rows: list[tuple[str, ...]], fields: tuple[str, ...]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(fields)
        out.writerows(rows)
    return path


def test_the_safety_file_carries_the_verdict_a_page_shows(tmp_path):
    src = write(tmp_path / "in.csv", [r[:2] for r in ROWS], ("message", "reply"))
    assert cli.main(["safety", "--input", str(src), "--output", str(tmp_path / "out.csv")]) == 0
    rows = read_csv(tmp_path / "out.csv")
    verdicts = [r["safety_verdict"] for r in rows]
    assert verdicts[0] == "not safe" and set(verdicts) <= {"safe", "not safe", "uncertain"}
    # the verdict and the 0/1 column never contradict each other
    assert all(r["reply_safe"] == "0" for r in rows if r["safety_verdict"] == "not safe")


def test_rates_count_every_labelled_reply_under_one_verdict(tmp_path, capsys):
    src = write(tmp_path / "labelled.csv", ROWS, ("message", "reply", "reply_safe"))
    assert cli.main(["safety-rates", "--input", str(src)]) == 0
    out = capsys.readouterr().out
    shown = {line[:20].strip(): line for line in out.splitlines()[1:4]}
    assert set(shown) == set(study.SHOWN.values())
    assert sum(int(line[20:28]) for line in shown.values()) == len(ROWS)
    assert "not safe" in shown and shown["not safe"].split()[3].startswith("1/")
    assert "unsafe shown no concern found: 0/1" in out


def test_a_file_without_labels_is_refused_in_plain_words(tmp_path, capsys):
    src = write(tmp_path / "unlabelled.csv", [r[:2] for r in ROWS], ("message", "reply"))
    assert cli.main(["safety-rates", "--input", str(src)]) == 2
    assert "needs the columns message, reply, reply_safe" in capsys.readouterr().err


def test_levels_are_each_called_at_risk_as_a_share_of_their_writers(tmp_path, capsys):
    rows = [(RISKY, "Ideation"), (CALM, "Supportive"), ("I want to die.", "Ideation")]
    src = write(tmp_path / "levels.csv", rows, ("message", "label"))
    assert cli.main(["safety-rates", "--levels", str(src)]) == 0
    out = capsys.readouterr().out
    assert "Ideation     2/2 = 100 %" in out and "Supportive   0/1 = 0 %" in out


def test_levels_tell_the_writer_at_risk_from_one_writing_to_someone_at_risk(tmp_path, capsys):
    rows = [(RISKY, "Ideation"), ("Please don't. Why do you want to kill yourself?", "Supportive")]
    src = write(tmp_path / "levels.csv", rows, ("message", "label"))
    assert cli.main(["safety-rates", "--levels", str(src)]) == 0
    supportive = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("Supp"))
    assert supportive.split()[1:2] == ["0/1"]  # not the writer's own risk …
    assert "1/1 = 100 %" in supportive  # … but a risk the reply is still held to


def test_intervals_are_wilson_intervals_at_the_precision_shown():
    assert study.rate(3, 4).words() == "3/4 = 75 % (30–95 %)"
    assert study.rate(0, 10).words() == "0/10 = 0 % (0–28 %)"
    assert study.rate(0, 0).words() == "none"
