"""Adversarial page and flag buttons, driven headlessly through gradio_client."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator

import pytest
from gradio_client import Client

from core import flags as flagging
from core.flags import FIELDS, FlagLog
from core.questions import load_questions
from perturbations.registry import PERTURBATIONS
from tests.conftest import app_client

pytestmark = pytest.mark.slow
SECRET = "sk-typed-into-the-page-000111222333"


@pytest.fixture(scope="module")
def flag_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    folder = tmp_path_factory.mktemp("flags")
    patch = pytest.MonkeyPatch()
    patch.setattr(flagging, "SETTINGS", dataclasses.replace(flagging.SETTINGS, flag_dir=folder))
    yield folder
    patch.undo()


@pytest.fixture(scope="module")
def client(flag_dir) -> Iterator[Client]:
    with app_client() as c:
        yield c


def test_flag_from_the_compare_page_lands_with_every_field(client, flag_dir):
    question = load_questions()[7]
    client.predict(
        question.question,
        ["human/counselchat"],
        ["bert-head"],
        "Be kind.",
        64,
        0.3,
        SECRET,
        "",
        "",
        "",
        api_name="/compare",
    )
    status = client.predict(
        f"interesting; my key {SECRET}", SECRET, "", "", "", api_name="/flag_human"
    )
    assert "Flagged" in status
    (row,) = FlagLog(flag_dir).read()
    assert row["page"] == "compare" and row["responder_id"] == "human/counselchat"
    assert row["message"] == question.question and row["reply"] == question.answer
    assert (
        row["system_prompt"] == "Be kind."
        and row["max_tokens"] == "64"
        and row["temperature"] == "0.3"
    )
    (score,) = json.loads(row["scores"])
    assert (
        score["scorer_id"] == "bert-head" and score["status"] == "ok" and 1 <= score["overall"] <= 3
    )
    assert row["note"] == "interesting; my key [redacted]"
    assert SECRET not in (flag_dir / "flags.csv").read_text(encoding="utf-8")
    assert list(row) == list(FIELDS)


def test_flagging_before_running_says_so(client):
    assert "Nothing to flag" in client.predict("", "", "", "", "", api_name="/flag_local")


def test_adversarial_lab_table_and_flag(client, flag_dir):
    reply = (
        "I can feel the thoroughness of your emotional pain. It makes sense that you feel "
        "stuck. Could you try one small step tomorrow, like a short walk?"
    )
    table, chart, _picker = client.predict(
        reply,
        "I feel stuck since the breakup.",
        list(PERTURBATIONS),
        ["bert-head", "bert-head+normalize"],
        0,
        "rules only",
        api_name="/lab",
    )
    for pid in PERTURBATIONS:
        assert f"<b>{pid}</b>" in table
    assert "<mark>" in table and "unscored" not in table
    traces = json.loads(chart["plot"])["data"]
    assert [t["name"] for t in traces] == ["bert-head", "bert-head+normalize"]
    assert len(traces[0]["x"]) == 11

    before = len(FlagLog(flag_dir).read())
    status = client.predict("leetspeak", "digits everywhere", api_name="/flag_lab_row")
    assert "Flagged" in status
    row = FlagLog(flag_dir).read()[before]
    assert row["page"] == "adversarial" and row["perturbation_id"] == "leetspeak"
    assert row["perturbation_seed"] == "0" and row["perturbation_method"] == "rule"
    assert row["original_reply"] == reply and row["reply"] != reply
    assert {s["scorer_id"] for s in json.loads(row["scores"])} == {
        "bert-head",
        "bert-head+normalize",
    }


def test_robustness_report_from_the_page(client):
    heatmap, table, path = client.predict(
        5, ["bert-head", "bert-head+normalize"], 0, api_name="/robustness"
    )
    assert len(table["data"]) == 11 * 2 * 4
    assert json.loads(heatmap["plot"])["data"][0]["type"] == "heatmap"
    with open(path, encoding="utf-8") as fh:
        assert fh.readline().startswith("perturbation,scorer,component")


def test_bad_lab_input_is_a_clear_message(client):
    with pytest.raises(Exception, match="empty"):
        client.predict("  ", "", ["leetspeak"], ["bert-head"], 0, "rules only", api_name="/lab")
