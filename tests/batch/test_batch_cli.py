"""``cli.py batch`` end to end with the therapists' answers (no model, no network)."""

from __future__ import annotations

import cli
from studies.batch.store import RunFolder


def test_batch_runs_reports_and_continues(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["batch", "--n", "3", "--responders", "human/counselchat", "--scorers", ""]
    assert cli.main([*args, "--output", str(out)]) == 0
    assert len(RunFolder(out).log().read()) == 3
    assert (out / "report.html").exists() and (out / "run.json").exists()
    assert "human/counselchat" in capsys.readouterr().out
    assert cli.main([*args, "--output", str(out)]) == 0
    assert "0 rows made, 0 failed, 3 already done" in capsys.readouterr().err
    assert len(RunFolder(out).log().read()) == 3
    assert cli.main(["batch-report", str(out)]) == 0


def test_bad_input_is_refused_with_exit_code_2(tmp_path, capsys):
    bad = tmp_path / "q.csv"
    bad.write_text("title\nhello\n", encoding="utf-8")
    common = ["--responders", "human/counselchat", "--scorers", "", "--output", str(tmp_path / "r")]
    assert cli.main(["batch", "--input", str(bad), *common]) == 2
    assert "needs a 'question' or 'conversation' column" in capsys.readouterr().err
    assert cli.main(["batch", "--n", "2", "--strategies", "nope", *common]) == 2
    assert "unknown strategy" in capsys.readouterr().err
    assert (
        cli.main(["batch", "--n", "2", *common[:-2], "--responders", "nope/x", *common[-2:]]) == 2
    )
    assert cli.main(["batch-report", str(tmp_path / "missing")]) == 2


def test_input_csv_with_formula_cells_round_trips(tmp_path):
    from core.questions import load_questions

    q = load_questions()[0].question
    source = tmp_path / "q.csv"
    source.write_text(f'question_id,question\n=cmd,"{q}"\n', encoding="utf-8")
    out = tmp_path / "run"
    common = ["--responders", "human/counselchat", "--scorers", "", "--output", str(out)]
    assert cli.main(["batch", "--input", str(source), *common]) == 0
    (row,) = RunFolder(out).log().read()
    assert row["question_id"] == "=cmd" and row["status"] == "ok"
    assert "\n'=cmd," in (out / "results.csv").read_text(encoding="utf-8").replace("\r", "")
