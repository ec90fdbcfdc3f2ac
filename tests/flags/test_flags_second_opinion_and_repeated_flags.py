"""Newcomer walk, flags from the Compare page: a repeated flag is said so and not written
twice; the LLM safety judge's second opinion is kept in the flag row and shown on Flags."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from gradio_client import Client

from core import flags as flagging
from core.flags import FlagLog, FlagRecord
from core.questions import load_questions
from core.tables import read_csv
from pages import flags as flags_page
from pages.compare_updates import _moment_updates
from pages.widgets.flag_reply import flag_shown_reply
from responders.base import GenerationSettings, Reply
from scorers.safety.judge import SafetyOpinion
from studies.comparison import Comparison, Panel
from studies.comparison_record import record, rows, write_record

NO_KEYS = ("", "", "", "")
HUMAN = "human/counselchat"


@pytest.fixture
def flag_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(
        flagging, "SETTINGS", dataclasses.replace(flagging.SETTINGS, flag_dir=tmp_path)
    )
    return tmp_path


def judged(
    reply_safe: int | None, concerns: tuple[str, ...] = (), reason: str = ""
) -> tuple[Comparison, dict]:
    """What the Compare page keeps after a run whose second opinion said ``reply_safe``."""
    reply = Reply(HUMAN, "answer", "I can't sleep.", GenerationSettings(), text="Just sleep more.")
    opinion = SafetyOpinion("judge/local/x", 1, reply_safe, concerns, reason)
    panel = Panel(HUMAN, "done", reply.text, reply=reply)
    shown = Comparison({HUMAN: panel}, {}, 0, opinions={HUMAN: opinion})
    return shown, _moment_updates(shown, 1.0, with_scores=False, final=True)[-1]


def test_a_second_opinion_is_kept_in_the_flag_row_and_shown_on_the_flags_page(flag_dir):
    _, saved = judged(0, ("missed-risk", "dismissive"), "=HYPERLINK(no help offered)")
    assert flag_shown_reply(HUMAN, saved, "") == "Flagged. It is in the Flags tab."
    (row,) = FlagLog(flag_dir).read()
    (entry,) = json.loads(row["scores"])
    assert entry["second_opinion_safe"] == 0
    assert entry["second_opinion_concerns"] == "missed-risk;dismissive"
    assert entry["second_opinion_judge"] == "judge/local/x"
    view, _ = flags_page.latest_rows(5)
    assert view[0][-1] == "Second opinion (LLM safety judge): not safe (missed risk, dismissive)"
    # Still formula-safe: no cell of the file starts like a formula.
    text = (flag_dir / "flags.csv").read_text(encoding="utf-8")
    assert "\n=" not in text and ",=" not in text


def test_an_unavailable_second_opinion_says_why_and_a_safe_one_says_so(flag_dir):
    _, unavailable = judged(None, reason="the judge's answer could not be read")
    _, safe = judged(1)
    assert flags_page._opinion_verdict(unavailable["scores"][HUMAN][0]).startswith("unavailable")
    said = flags_page.readable_scores(json.dumps(safe["scores"][HUMAN]))
    assert said == "Second opinion (LLM safety judge): no concern found"


def test_the_comparison_download_names_the_second_opinion_as_the_flag_log_does(tmp_path):
    shown, _ = judged(0, ("missed-risk",))
    csv_path, _ = write_record(tmp_path, shown)
    (row,) = read_csv(csv_path)
    assert row["second_opinion_safe"] == "0" and row["second_opinion_concerns"] == "missed-risk"
    assert rows(record(shown))[0]["second_opinion_safe"] == 0


def test_the_comparison_download_keeps_an_uncertain_screen_as_uncertain(tmp_path):
    """The page said "uncertain: read it yourself"; the CSV held only reply_safe's lean."""
    from scorers.safety import SafetyResult

    shown, _ = judged(1)
    shown.safety[HUMAN] = SafetyResult(1, ("x",), 0, ("missed-risk",), reason="uncertain: (x)")
    (row,) = read_csv(write_record(tmp_path, shown)[0])
    assert row["safety_verdict"] == "uncertain" and row["reply_safe"] == "0"


def test_the_same_reply_flagged_again_for_the_same_reason_is_not_written_twice(flag_dir):
    _, saved = judged(1)
    assert flag_shown_reply(HUMAN, saved, "too cold") == "Flagged. It is in the Flags tab."
    again = flag_shown_reply(HUMAN, saved, "  too cold ")
    assert again.startswith("Already in the flag log") and len(FlagLog(flag_dir).read()) == 1
    other = flag_shown_reply(HUMAN, saved, "gives advice nobody asked for")
    assert "additional flag" in other and "2 times" in other
    assert [r["note"] for r in FlagLog(flag_dir).read()] == [
        "too cold",
        "gives advice nobody asked for",
    ]


# The same through the page, as a visitor's browser calls it.


@pytest.fixture(scope="module")
def page_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("flags")
    patch = pytest.MonkeyPatch()
    patch.setattr(flagging, "SETTINGS", dataclasses.replace(flagging.SETTINGS, flag_dir=folder))
    from pages import compare

    page = compare.build()
    page.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1")
    try:
        yield page.local_url, folder
    finally:
        page.close()
        patch.undo()


def test_the_compare_pages_flag_button_says_when_the_flag_is_already_in_the_log(page_url):
    url, folder = page_url
    client = Client(url, verbose=False)
    question = load_questions()[2].question
    client.predict(question, [HUMAN], [], "", 64, 0.3, *NO_KEYS, api_name="/compare")
    first = client.predict("not warm", *NO_KEYS, None, api_name="/flag_human")
    second = client.predict("not warm", *NO_KEYS, None, api_name="/flag_human")
    third = client.predict("", *NO_KEYS, None, api_name="/flag_human")
    assert first == "Flagged. It is in the Flags tab."
    assert second.startswith("Already in the flag log"), second
    assert "additional flag" in third
    assert [r["note"] for r in FlagLog(folder).read()] == ["not warm", ""]


def test_a_therapists_answer_is_logged_without_a_models_prompt_or_settings():
    """Cold walk: the flag log gave the therapist's answer a system prompt, 640 tokens and
    temperature 0.7, as if a model had written it."""
    from responders.registry import get_responder

    question = load_questions()[3]
    human = get_responder(HUMAN).generate(question.question, system="Be kind.", max_tokens=640)
    "".join(human)
    record = FlagRecord.from_reply("compare", human.reply.to_dict(), [])
    assert human.reply.text and record.system_prompt == "" and record.max_tokens is None
    assert record.temperature is None
    model = Reply("openai/gpt-4o", "gpt-4o", "m", GenerationSettings("Be kind.", 640), text="t")
    assert model.to_dict()["max_tokens"] == 640 and model.to_dict()["system"] == "Be kind."


def test_the_scores_table_shows_the_second_opinion_beside_an_uncertain_screen():
    """Cold walk 3: the second opinion said "not safe" in the panel while the table kept
    only the screen's "uncertain" as if that were the whole answer."""
    from scorers.safety.result import SafetyResult

    shown, _ = judged(0, ("missed-risk",))
    close = SafetyResult(1, ("x",), 0, ("missed-risk",), reason="uncertain: read it (close)")
    from scorers.base import Score

    scores = {(HUMAN, "bert-head"): Score.from_components("bert-head", 2, 2, 2)}
    shown = dataclasses.replace(shown, safety={HUMAN: close}, scores=scores)
    updates = _moment_updates(shown, 1.0, with_scores=True, final=True)
    from pandas.io.formats.style import Styler

    table = next(u for u in updates if isinstance(u, Styler)).data
    assert list(table["Safety screen"]) == [
        "uncertain: read it yourself (leans not safe: missed risk); second opinion: not safe"
    ]
