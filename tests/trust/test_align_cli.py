"""cli.py align (a fake scorer in-process) and cli.py pairwise input checks."""

from __future__ import annotations

import csv
import json

import pytest

import cli
import scorers.registry
from tests.trust.test_alignment import Overrater

ISSUE_KEYS = set(
    [
        "n",
        "pearson_r",
        "pearson_t",
        "pearson_p",
        "spearman_rho",
        "cohens_d",
        "wasserstein",
        "t_stat",
        "t_p",
        "krippendorff_alpha",
        "qwk",
        "mse",
        "f1",
    ]
)


@pytest.fixture
def fake_scorer(monkeypatch):
    scorer = Overrater()
    monkeypatch.setattr(scorers.registry, "get_scorer", lambda spec, **_: scorer)
    return scorer


def write_labelled(path, n=40):
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["message", "reply", "stars", "warmth"])
        writer.writeheader()
        for i in range(n):
            level = 1 + i % 3
            writer.writerow(
                {
                    "message": '=HYPERLINK("x")' if i == 0 else "I feel alone.",
                    "reply": f"reply level {level}",
                    "stars": str(2 * level - 1),
                    "warmth": "" if i == 1 else str(2 * level - 1),
                }
            )


def test_align_writes_the_reports(tmp_path, fake_scorer, capsys):
    src = tmp_path / "labelled.csv"
    write_labelled(src)
    out, rows, page = tmp_path / "report.json", tmp_path / "rows.csv", tmp_path / "r.html"
    code = cli.main(
        ["align", "--input", str(src), "--scorer", "x", "--human", "overall=stars",
         "--human", "emotional=warmth", "--scale", "1:5", "--boot", "40", "--no-cache",
         "--output", str(out), "--rows", str(rows), "--html", str(page), "--calibrate"]
    )  # fmt: skip
    assert code == 0
    report = json.loads(out.read_text())
    assert set(report) == {"overall", "emotional"}
    assert set(report["overall"]) >= ISSUE_KEYS and "bias_sq" in report["overall"]
    assert set(report["overall"]["ci"]) >= ISSUE_KEYS - {"n"}
    assert report["overall"]["n"] == 40 and report["emotional"]["n"] == 39
    assert report["overall"]["cohens_d"] > 0  # the fake overrates
    calibrated = json.loads((tmp_path / "report.calibration.json").read_text())
    assert calibrated["after/overall"]["mse"] < calibrated["before/overall"]["mse"]
    with open(rows, encoding="utf-8", newline="") as fh:
        got = list(csv.DictReader(fh))
    assert len(got) == 40 and got[0]["message"].startswith("'=")  # formula defused
    assert "plotly" in page.read_text()
    assert "krippendorff_alpha" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--human", "overall=nope"], "no column 'nope'"),
        (["--human", "overall=stars", "--scale", "5:1"], "bottom:top"),
        (["--human", "overall=stars", "--scale", "1:3"], "outside the declared scale"),
        (["--human", "overall"], "NAME=COLUMN"),
        ([], "--human"),
    ],
)
def test_align_refuses_bad_input_with_exit_2(tmp_path, fake_scorer, capsys, extra, message):
    src = tmp_path / "labelled.csv"
    write_labelled(src, 6)
    assert cli.main(["align", "--input", str(src), "--no-cache", *extra]) == 2
    assert message in capsys.readouterr().err


def test_align_refuses_a_binary_file(tmp_path, fake_scorer, capsys):
    src = tmp_path / "x.csv"
    src.write_bytes(b"\xff\xfe\x00\x00binary")
    assert cli.main(["align", "--input", str(src), "--human", "overall=r"]) == 2
    assert "not a readable UTF-8 CSV" in capsys.readouterr().err


def test_align_unknown_scorer_and_pairwise_checks(capsys):
    assert cli.main(["align", "--bundled", "welivita", "--scorer", "nope"]) == 2
    assert "unknown scorer" in capsys.readouterr().err
    assert cli.main(["pairwise", "--responders", "human/counselchat"]) == 2
    assert "at least two" in capsys.readouterr().err
    assert cli.main(["pairwise", "--judge", "judge/human/counselchat", "--n", "1"]) == 2
    assert "cannot act as a judge" in capsys.readouterr().err


def test_align_leaves_out_rows_the_scorer_was_shown(tmp_path, monkeypatch):
    """A judge is not measured on its own prompt's anchor replies."""
    from scorers.base import Score, Scorer
    from studies.labelled import load_bundled

    drawn = load_bundled("rubric-labels", 30, 0).extra["id"]

    class Shown(Scorer):
        id = "shown"

        def seen_ids(self):
            return frozenset(drawn[:4])

        def _score_batch(self, items):
            return [Score.from_components(self.id, 2.0, 2.0, 2.0) for _ in items]

    monkeypatch.setattr(scorers.registry, "get_scorer", lambda spec, **_: Shown())
    rows = tmp_path / "rows.csv"
    args = ["align", "--bundled", "rubric-labels", "--sample", "30", "--boot", "0"]
    code = cli.main([*args, "--no-cache", "--rows", str(rows)])
    assert code == 0
    with open(rows, encoding="utf-8") as fh:
        ids = [r["id"] for r in csv.DictReader(fh)]
    assert len(ids) == 26 and not set(ids) & set(drawn[:4])
