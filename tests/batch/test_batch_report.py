"""The batch summary and report on a run folder with known scores."""

from __future__ import annotations

import re

import numpy as np
import pytest
from plotly.offline import get_plotlyjs

from reports.batch import write_report
from studies.batch.plan import BatchQuestion, BatchSettings, plan_rows
from studies.batch.store import RunFolder

QUESTIONS = [BatchQuestion(str(i), f"Question number {i}?") for i in range(12)]
SETTINGS = BatchSettings(
    ("human/counselchat", "fake/high", "fake/low"),
    ("study",),
    ("bert-head",),
    as_written=("human/counselchat",),
)
LEVEL = {"fake/high": 2.8, "fake/low": 1.3}


def make_run(folder, rng):  # type: ignore[no-untyped-def]
    log = RunFolder(folder).open(QUESTIONS, SETTINGS, "local")
    rows = []
    for task in plan_rows(QUESTIONS, SETTINGS):
        row = {k: getattr(task, k) for k in ("question_id", "responder", "strategy", "sample")}
        row.update(settings_hash=task.settings_hash, question=task.question)
        if task.responder == "fake/low" and task.question_id == "0":
            row.update(status="error", error="server error (HTTP 500)")
        else:
            base = LEVEL.get(task.responder, 2.8) + rng.normal(0, 0.1)
            values = np.clip([base, base - 0.1, base + 0.1], 1, 3)
            row.update(status="ok", reply="=SUM(A1)" if task.question_id == "1" else "reply")
            row.update({"bert-head/status": "ok", "bert-head/overall": values.mean()})
            row.update(
                dict(
                    zip(
                        ("bert-head/cognitive", "bert-head/emotional", "bert-head/behavioral"),
                        values,
                        strict=True,
                    )
                )
            )
        if not (task.responder == "fake/high" and task.question_id == "11"):  # never asked
            rows.append(row)
    log.append_many(rows)
    return rows


def test_report_means_tests_failures_and_a_self_contained_page(tmp_path):
    rows = make_run(tmp_path, np.random.default_rng(0))
    report = write_report(tmp_path)
    summary = report.summary.set_index(["responder", "component"])
    high = [r["bert-head/overall"] for r in rows if r["responder"] == "fake/high"]
    assert summary.loc[("fake/high", "overall"), "mean"] == pytest.approx(np.mean(high))
    assert summary.loc[("fake/low", "overall"), "n"] == 11  # the failed row has no score
    low, upper = summary.loc[("fake/high", "overall"), ["ci_low", "ci_high"]]
    assert low < np.mean(high) < upper

    tests = report.tests[report.tests["component"] == "overall"].set_index(["arm_a", "arm_b"])
    assert tests.loc[("fake/high · study", "fake/low · study"), "significant"]
    assert tests.loc[("fake/high · study", "fake/low · study"), "n_questions"] == 10
    apart = tests.loc[("fake/high · study", "fake/low · study")]
    assert apart["diff_low"] < apart["mean_difference"] < apart["diff_high"]
    assert round(apart["mean_difference"], 1) == 1.5 and apart["diff_low"] > 1.3
    assert round(apart["wasserstein"], 1) == 1.5 and apart["cohens_d"] > 5  # far apart
    same = tests.loc[("human/counselchat · as-written", "fake/high · study")]
    assert same["diff_low"] < 0 < same["diff_high"] and abs(same["cohens_d"]) < 0.8
    assert not same["significant"] and same["p_holm"] >= same["p"]

    reasons = dict(zip(report.failures["responder"], report.failures["reason"], strict=True))
    assert report.failures["rows"].sum() == 2 and "HTTP 500" in reasons["fake/low"]
    assert reasons["fake/high"].startswith("not run")
    assert list(report.headline["planned"]) == [12, 12, 12]
    assert list(report.headline["ok"]) == [12, 11, 11]
    page = report.path.read_text(encoding="utf-8")
    assert not re.search(r"<script[^>]*\bsrc=", page)  # plotly.js inlined: opens offline
    bundle = get_plotlyjs()  # 4.8 MB: once for all the charts, not once per chart
    assert page.count(bundle[:5000]) == 1 and len(page) < len(bundle) + 300_000
    assert page.count("<script") >= len(report.figures) and "Plotly.newPlot" in page
    assert (tmp_path / "summary.csv").exists() and (tmp_path / "tests.csv").exists()
    assert "<td>Licensed therapist (CounselChat)</td>" in page  # people's names, not ids
    title = report.figures[0].layout.title.text.replace("<br>", " ")  # wrapped for a phone
    assert title.startswith("Empathy head (MiniLM + trained head) ")
    for term in ("bootstrap", "Cohen", "Wasserstein", "Holm"):  # explained in plain words
        assert term in page
