"""A pasted conversation with a speaker the app does not know is refused with what to write,
never silently misread: a friend's line credited to the supporter, a parent's to the seeker,
or a whole exchange between "Person A" and "Person B" read as one plain message."""

from __future__ import annotations

import pytest

from core.conversation import parse_conversation
from core.questions import load_questions
from core.textinput import InputError

MISREAD = {
    "a friend between the supporter and the seeker": (
        "Seeker: I lost my job.\nSupporter: I'm so sorry.\nFriend: just get another one\n"
        "Seeker: Is that all there is to say?",
        "Line 3 starts with “Friend:”",
    ),
    "a parent in the middle": (
        "Seeker: I feel like a failure.\nSupporter: What happened?\nMum: you always do this\n"
        "Seeker: She's right, isn't she?",
        "Line 3 starts with “Mum:”",
    ),
    "an unknown first speaker": (
        "Friend: are you ok?\nSeeker: no\nSupporter: tell me more\nSeeker: I can't sleep",
        "Line 1 starts with “Friend:”",
    ),
    "two people with made-up names": (
        "Person A: I feel awful.\nPerson B: why?\nPerson A: everything is falling apart.",
        "Line 1 starts with “Person A:”",
    ),
}


@pytest.mark.parametrize("pasted,said", MISREAD.values(), ids=list(MISREAD))
def test_an_unknown_speaker_is_named_with_what_to_write(pasted, said):
    with pytest.raises(InputError) as refused:
        parse_conversation(pasted)
    message = str(refused.value)
    assert message.startswith(said) and "Seeker:" in message and "Supporter:" in message


@pytest.mark.parametrize(
    "plain",
    [
        "My mum said: you never listen. I feel low.",
        "I feel low.\nEDIT: thanks everyone\nUpdate: a bit better today",
        "It is 3:00 and I can't sleep.",
        "Mum: she is the one I can't talk to. I feel alone.",
    ],
)
def test_a_plain_message_with_a_colon_stays_a_message(plain):
    assert parse_conversation(plain).is_single


def test_no_bundled_question_is_taken_for_a_conversation():
    for question in load_questions():
        assert parse_conversation(question.question).is_single
