"""cli.py round create / votes export / votes summary."""

from __future__ import annotations

import csv

from studies.votes.log import VoteLog, cast_vote
from studies.votes.rounds import ballot, load_round
from tests.app.test_cli import run_cli

MESSAGE = "I can't sleep since my dad died."
REPLIES = [
    ("model/warm", "I'm so sorry about your dad. Would it help to talk about him?"),
    ("model/cold", "Try melatonin."),
    ("human/therapist", "Losing a parent turns the world over; poor sleep is part of grief."),
]


def write_replies(path, rows=REPLIES, message=MESSAGE):
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["message", "source", "reply"])
        writer.writerows([message, source, reply] for source, reply in rows)
    return path


def test_create_vote_export_and_summarise(tmp_path):
    replies = write_replies(tmp_path / "replies.csv")
    folder = tmp_path / "votes"
    result = run_cli(
        "round", "create", "--replies", str(replies), "--seed", "5", "--scorers", "",
        "--votes-dir", str(folder),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    code = result.stdout.strip()
    rnd = load_round(code, folder)
    assert rnd.seed == 5 and rnd.sources == [s for s, _ in REPLIES] and rnd.message == MESSAGE
    for i in range(9):
        letters = {source: letter for letter, source in ballot(rnd, f"v{i}")}
        cast_vote(rnd, f"v{i}", letters["model/warm"], letters["model/cold"], folder=folder)
    out = tmp_path / "results.csv"
    result = run_cli(
        "votes", "summary", "--round", code.lower(), "--output", str(out),
        "--votes-dir", str(folder), "--resamples", "100",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    with out.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == [
        "source",
        "score",
        "ci_low",
        "ci_high",
        "most_share",
        "least_share",
        "n",
    ]
    assert [r["source"] for r in rows] == ["model/warm", "human/therapist", "model/cold"]
    assert rows[0]["most_share"] == "1.0" and rows[2]["least_share"] == "1.0"
    assert rows[0]["n"] == "9" and float(rows[0]["ci_low"]) <= float(rows[0]["score"])

    copy = tmp_path / "copy.csv"
    result = run_cli("votes", "export", "--output", str(copy), "--votes-dir", str(folder))
    assert result.returncode == 0 and "exported 9" in result.stdout


def test_summary_of_a_paper_survey(tmp_path):
    survey = tmp_path / "survey.csv"
    lines = ["\ufeffround,voter,shown,most,least,extra"]
    lines += [f"Q{i % 2},p{i},llama|gpt|human,llama,human,x" for i in range(6)]
    lines += ["Q0,p9,llama|gpt|human,gpt,llama,x"]
    survey.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "results.csv"
    result = run_cli(
        "votes", "summary", "--votes", str(survey), "--output", str(out),
        "--votes-dir", str(tmp_path / "none"), "--resamples", "50",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert out.read_text(encoding="utf-8").splitlines()[1].startswith("llama,")
    assert "llama\t" in result.stdout
    assert result.stdout.startswith("source\tstrength\t")  # the page's word, not "score"
    # pandas (or R, or a spreadsheet) reads every strength back as a number, negative ones too
    import pandas as pd

    table = pd.read_csv(out)
    assert pd.api.types.is_numeric_dtype(table["score"]), table.dtypes
    assert (table["score"] < 0).any() and (table["score"] - table["score"].mean()).abs().sum() > 0


def test_bad_input_is_a_clear_message(tmp_path):
    folder = tmp_path / "votes"
    replies = write_replies(tmp_path / "one.csv", REPLIES[:1])
    result = run_cli("round", "create", "--replies", str(replies), "--votes-dir", str(folder))
    assert result.returncode == 2 and "2 to 8 replies" in result.stderr
    result = run_cli("round", "create", "--question-id", "999999", "--votes-dir", str(folder))
    assert result.returncode == 2 and "No bundled question 999999" in result.stderr
    bad = tmp_path / "bad.csv"
    bad.write_text("round,voter,shown\nR,v,a|b\n", encoding="utf-8")
    result = run_cli("votes", "summary", "--votes", str(bad), "--output", str(tmp_path / "o.csv"))
    assert result.returncode == 2 and "lacks the column(s) most, least" in result.stderr
    assert "Traceback" not in result.stderr


def test_damaged_log_names_the_line(tmp_path):
    folder = tmp_path / "votes"
    replies = write_replies(tmp_path / "replies.csv")
    code = run_cli(
        "round", "create", "--replies", str(replies), "--scorers", "", "--votes-dir", str(folder)
    ).stdout.strip()
    cast_vote(load_round(code, folder), "v1", "A", "B", folder=folder)
    with VoteLog(folder).path.open("a", encoding="utf-8") as fh:
        fh.write("broken,row\n")
    out = str(tmp_path / "o.csv")
    result = run_cli("votes", "summary", "--output", out, "--votes-dir", str(folder))
    assert result.returncode == 2 and "line 3: 2 fields, expected 8" in result.stderr
    result = run_cli("votes", "export", "--output", out, "--votes-dir", str(folder))
    assert result.returncode == 2 and "line 3" in result.stderr
