"""Issue 30: a message typed or pasted over a picked bundled question emptied neither the
picker nor the therapist's tick, so the page still claimed the bundled question. Now the
picker follows the message box, and the therapist is unticked once the message is no
bundled question (their answer exists only for one, and is never given for another text).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.conversation import asked
from core.questions import load_questions
from pages.widgets.reply_panels import PEOPLE, after_edit, picked_question
from responders.base import ResponderUnavailable
from responders.registry import get_responder
from tests.conftest import CHROMIUM, browser_page

HUMAN, LOCAL = "human/counselchat", "local/qwen2.5-coder-1.5b"
QUESTION, OTHER = load_questions()[3], load_questions()[5]


def test_the_therapist_is_the_person_whose_answer_needs_a_bundled_question():
    assert PEOPLE == [HUMAN]


def test_picking_a_question_fills_the_message_and_ticks_the_therapist_once():
    assert picked_question(QUESTION.choice_label, [LOCAL]) == (QUESTION.question, [LOCAL, HUMAN])
    assert picked_question(QUESTION.choice_label, [HUMAN]) == (QUESTION.question, [HUMAN])


def test_emptying_the_picker_leaves_the_message_and_the_ticks():
    message, ticks = picked_question(None, [LOCAL])
    assert message == ticks == {"__type__": "update"}  # gr.skip()


def test_the_picked_question_itself_changes_nothing_spacing_and_case_aside():
    assert after_edit(QUESTION.question, QUESTION.choice_label, [LOCAL, HUMAN]) is None
    spaced = "  " + QUESTION.question.upper().replace(" ", "  ") + "\n"
    assert after_edit(spaced, QUESTION.choice_label, [LOCAL, HUMAN]) is None


@pytest.mark.parametrize(
    "typed",
    [
        "I haven't slept since my mother died.",  # pasted over it
        QUESTION.question + " And my boss shouts at me.",  # added to it
        QUESTION.question[:-10],  # cut short
        "",  # emptied
        f"Seeker: {QUESTION.question}\nSupporter: I hear you.\nSeeker: Still stuck.",
    ],
    ids=["pasted", "added-to", "cut", "emptied", "conversation"],
)
def test_a_message_that_is_no_bundled_question_empties_the_picker_and_unticks_the_therapist(
    typed,
):
    assert after_edit(typed, QUESTION.choice_label, [LOCAL, HUMAN]) == (None, [LOCAL])


def test_another_bundled_question_is_named_by_the_picker_and_keeps_the_ticks():
    assert after_edit(OTHER.question, QUESTION.choice_label, [LOCAL, HUMAN]) == (
        OTHER.choice_label,
        [LOCAL, HUMAN],
    )


def test_with_nothing_picked_the_visitors_own_ticks_stay():
    assert after_edit("My own words.", None, [LOCAL, HUMAN]) is None


@pytest.mark.parametrize(
    "message",
    [
        "I haven't slept since my mother died.",
        QUESTION.question + " And my boss shouts at me.",
        f"Seeker: {QUESTION.question}\nSupporter: I hear you.\nSeeker: Still stuck.",
    ],
    ids=["pasted", "added-to", "conversation"],
)
def test_the_therapist_never_answers_a_message_that_is_not_the_bundled_one(message):
    with pytest.raises(ResponderUnavailable, match="bundled CounselChat question"):
        get_responder(HUMAN).generate(asked(message))


def test_the_therapist_answers_the_bundled_question_spacing_and_case_aside():
    generation = get_responder(HUMAN).generate("  " + QUESTION.question.lower())
    assert "".join(generation) == QUESTION.answer


@pytest.fixture(scope="module")
def compare_url() -> Iterator[str]:
    from pages import compare
    from tests.conftest import served

    with served(compare.build()) as address:
        yield address


@pytest.mark.slow
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_in_the_browser_a_pasted_message_empties_the_picker_and_unticks_the_therapist(
    compare_url,
):
    from playwright.sync_api import expect

    with browser_page(1280, 900) as tab:
        tab.goto(compare_url)
        picker = tab.get_by_label("Pick a bundled question")
        therapist = tab.locator(f"input[type=checkbox][name='{HUMAN}']")
        therapist.uncheck()
        picker.click()
        tab.get_by_role("option").nth(3).click()
        message = tab.locator("textarea").first
        expect(message).to_have_value(QUESTION.question, timeout=10_000)
        expect(therapist).to_be_checked(timeout=10_000)  # picking ticks the therapist
        expect(picker).to_have_value(QUESTION.choice_label)
        message.fill("I haven't slept since my mother died.")
        expect(picker).to_have_value("", timeout=10_000)
        expect(therapist).not_to_be_checked()
        expect(message).to_have_value("I haven't slept since my mother died.")
        # An example conversation's picker lets go once a bundled question replaces it.
        conversations = tab.get_by_label("…or pick an example conversation")
        conversations.click()
        tab.get_by_role("option").first.click()
        expect(message).to_have_value(re.compile(r"^Seeker: "), timeout=10_000)
        picked = conversations.input_value()
        assert picked
        picker.click()
        tab.get_by_role("option").nth(3).click()
        expect(message).to_have_value(QUESTION.question, timeout=10_000)
        expect(conversations).to_have_value("", timeout=10_000)
