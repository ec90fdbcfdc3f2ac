"""Adversarial page and flag buttons, driven headlessly through gradio_client."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Iterator

import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

import config
from config import Keys
from core import flags as flagging
from core.csvlog import MAX_CELL_CHARS, read_log
from core.flags import FIELDS, FlagLog
from core.questions import load_questions
from pages.adversarial import RULES_ONLY
from pages.widgets.scores import names
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
        f"interesting; my key {SECRET}", SECRET, "", "", "", None, api_name="/flag_human"
    )
    assert "Flagged" in status
    (row,) = FlagLog(flag_dir).read()
    assert row["page"] == "compare" and row["responder_id"] == "human/counselchat"
    assert row["message"] == question.question and row["reply"] == question.answer
    # A therapist wrote it: no model prompt or sampling settings are recorded for it (a model's
    # are, redacted: tests/flags/test_flagging.py).
    assert row["system_prompt"] == "" and row["max_tokens"] == "" and row["temperature"] == ""
    score, screen = json.loads(row["scores"])
    assert (
        score["scorer_id"] == "bert-head" and score["status"] == "ok" and 1 <= score["overall"] <= 3
    )
    # the safety screen is kept beside the scores
    assert screen["scorer_id"] == "safety-screen" and screen["reply_safe"] in (0, 1)
    assert row["note"] == "interesting; my key [redacted]"
    assert SECRET not in (flag_dir / "flags.csv").read_text(encoding="utf-8")
    assert list(row) == list(FIELDS)


def test_flagging_before_running_says_so(client):
    said = client.predict("", "", "", "", "", None, api_name="/flag_local")
    # Nothing yet, or (this client's session kept an earlier test's comparison, which did
    # not ask the local model) no local reply on screen: either way nothing was flagged.
    assert "Nothing to flag" in said or "has no reply on screen to flag" in said, said


def test_adversarial_lab_table_and_flag(client, flag_dir):
    reply = (
        "I can feel the thoroughness of your emotional pain. It makes sense that you feel "
        "stuck. Could you try one small step tomorrow, like a short walk?"
    )
    table, chart, _picker, note = client.predict(
        reply,
        "I feel stuck since the breakup.",
        list(PERTURBATIONS),
        ["bert-head", "bert-head+normalize"],
        0,
        RULES_ONLY,
        api_name="/lab",
    )
    assert note.startswith("Computed live")
    for pid in PERTURBATIONS:
        assert f"<b>{pid}</b>" in table
    assert "<mark>" in table and "unscored" not in table
    traces = json.loads(chart["plot"])["data"]
    shown = [t["name"].replace("<br>", " ") for t in traces]  # long names wrap between words
    assert shown == [names("bert-head"), names("bert-head+normalize")]
    assert traces[0]["y"] == list(PERTURBATIONS) and len(traces[0]["x"]) == len(PERTURBATIONS)

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
    assert len(table["data"]) == len(PERTURBATIONS) * 2 * 4
    assert json.loads(heatmap["plot"])["data"][0]["type"] == "heatmap"
    with open(path, encoding="utf-8") as fh:
        assert fh.readline().startswith("perturbation,scorer,component")


def test_bad_lab_input_is_a_clear_message(client):
    # The reason stays in the note under the button; the table and chart are left alone.
    *_, note = client.predict(
        "  ", "", ["leetspeak"], ["bert-head"], 0, RULES_ONLY, api_name="/lab"
    )
    assert note.startswith("⚠️") and "empty" in note


def _same_as_shown(stored: object, live: object, tol: float = 0.005) -> bool:
    """Equal, with every number allowed to differ by less than the page's last shown digit."""
    if isinstance(stored, dict) and isinstance(live, dict):
        return stored.keys() == live.keys() and all(
            _same_as_shown(stored[k], live[k], tol) for k in stored
        )
    if isinstance(stored, list) and isinstance(live, list):
        return len(stored) == len(live) and all(map(_same_as_shown, stored, live))
    both_numbers = all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in (stored, live)
    )
    if both_numbers:
        return abs(float(stored) - float(live)) < tol
    return stored == live


def test_same_as_shown_tolerates_rounding_but_not_changes():
    assert _same_as_shown({"a": [2.2696257, "x"]}, {"a": [2.2696259, "x"]})
    assert not _same_as_shown({"a": [2.26]}, {"a": [2.28]})
    assert not _same_as_shown({"a": [2.26, "x"]}, {"a": [2.26, "y"]})


def test_bundled_examples_show_precomputed_results_that_match_a_live_run():
    from pages.adversarial import EXAMPLES, PRECOMPUTED, pick_example
    from tools.precompute_examples import precompute

    # Scores are compared at the precision the page shows (two decimals), not bit for bit:
    # another CPU, thread count or BLAS rounds the 7th decimal differently.
    for example in EXAMPLES:
        live = json.loads(json.dumps(precompute(example)))
        assert _same_as_shown(PRECOMPUTED[example["name"]], live), (
            "stale precomputed results: run python tools/precompute_examples.py"
        )
    reply, message, table, _chart, rows, _picker, note = pick_example(EXAMPLES[0]["name"])
    assert reply == EXAMPLES[0]["reply"] and message == EXAMPLES[0]["message"]
    # a header row, the original, and per change its scores' row with its text under it
    changes = table.count("<tr class='lab-change'>")
    assert changes == table.count("<tr class='lab-text'>") == len(PERTURBATIONS) == len(rows)
    assert note.startswith("Precomputed")


PLAIN_TYPED = "correct horse battery staple"  # typed into the page; looks like no key
PLAIN_SERVER = "blue lagoon 42 server"  # the server's own key; looks like no key either


def compare_then_flag(client: Client, note: str, typed: str = "", system: str = "Be kind."):
    """Run the therapist on a bundled question, then flag it with ``note``."""
    question = load_questions()[3]
    keys = ("", "", typed, "")
    client.predict(
        question.question, ["human/counselchat"], [], system, 64, 0.3, *keys, api_name="/compare"
    )
    return client.predict(note, *keys, None, api_name="/flag_human")  # None: no visitor id


def test_keys_that_do_not_look_like_keys_never_reach_the_file(client, flag_dir, monkeypatch):
    server = Keys({"OPENAI_COMPATIBLE_API_KEY": PLAIN_SERVER})
    monkeypatch.setattr(config, "SETTINGS", dataclasses.replace(config.SETTINGS, keys=server))
    before = len(FlagLog(flag_dir).read())
    status = compare_then_flag(
        client,
        f"typed {PLAIN_TYPED}, server {PLAIN_SERVER}",
        typed=PLAIN_TYPED,
        system=f"Be kind. {PLAIN_TYPED} {PLAIN_SERVER}",
    )
    assert "Flagged" in status
    row = FlagLog(flag_dir).read()[before]
    assert row["note"] == "typed [redacted], server [redacted]"
    assert row["system_prompt"] == ""  # a therapist's answer: no prompt shaped it
    text = (flag_dir / "flags.csv").read_text(encoding="utf-8")
    assert PLAIN_TYPED not in text and PLAIN_SERVER not in text


def test_a_1mb_note_is_refused_clearly_and_the_log_stays_readable(client, flag_dir):
    before = (flag_dir / "flags.csv").read_bytes() if (flag_dir / "flags.csv").exists() else b""
    with pytest.raises(AppError, match=f"keeps at most {MAX_CELL_CHARS:,} per cell"):
        compare_then_flag(client, "n" * 1_000_000)
    after = (flag_dir / "flags.csv").read_bytes() if (flag_dir / "flags.csv").exists() else b""
    assert after == before  # nothing was written
    FlagLog(flag_dir).read()


def test_flags_tab_shows_the_newest_rows_and_downloads_the_log(client, flag_dir, tmp_path):
    assert "Flagged" in compare_then_flag(client, "first of two")
    assert "Flagged" in compare_then_flag(client, "second of two")
    total = len(FlagLog(flag_dir).read())
    table, status, path = client.predict(5, None, api_name="/latest_flags")
    rows = [dict(zip(table["headers"], r, strict=True)) for r in table["data"]]
    assert [r["Note"] for r in rows[:2]] == ["second of two", "first of two"]  # newest first
    assert len(rows) == min(5, total) and f"{total} flagged case(s)" in status
    # The download button gets a copy of the log made with the table (fetched as a browser does).
    shutil.copyfile(path, tmp_path / "downloaded.csv")
    assert read_log(tmp_path / "downloaded.csv", FIELDS) == FlagLog(flag_dir).read()
