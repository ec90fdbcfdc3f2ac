"""The conversation model and its one parser: every pasted form, and clear refusals."""

from __future__ import annotations

import json

import pytest

from core.conversation import SEEKER, SUPPORTER, parse_conversation
from core.textinput import InputError

FIVE_TURNS = (
    "Seeker: My mum has dementia and I look after her alone.\n"
    "Supporter: That is a lot to carry on your own.\n"
    "Seeker: My brother lives abroad and never calls.\n"
    "Supporter: It sounds lonely as well as tiring.\n"
    "Seeker: Tonight she didn't know who I was."
)


@pytest.mark.parametrize(
    ("seeker", "supporter"),
    [("Seeker", "Supporter"), ("User", "Assistant"), ("client", "THERAPIST"), ("Me", "You")],
)
def test_every_speaker_pair_reads_as_seeker_and_supporter(seeker, supporter):
    text = FIVE_TURNS.replace("Seeker:", f"{seeker}:").replace("Supporter:", f"{supporter}:")
    conv = parse_conversation(text)
    assert [t.role for t in conv.turns] == [SEEKER, SUPPORTER] * 2 + [SEEKER]
    assert conv.message == "Tonight she didn't know who I was."
    assert conv.history[0].text == "My mum has dementia and I look after her alone."


def test_json_and_lines_give_the_same_conversation_and_round_trip():
    conv = parse_conversation(FIVE_TURNS)
    assert parse_conversation(conv.to_json()) == conv
    assert parse_conversation(conv.transcript()) == conv
    as_content = json.dumps([{"role": t.role, "content": t.text} for t in conv.turns])
    assert parse_conversation(as_content) == conv


def test_a_plain_message_is_one_seeker_turn_even_with_a_colon_inside():
    conv = parse_conversation("I told my boss: no more overtime.\nNow I'm scared.")
    assert conv.is_single and conv.message.startswith("I told my boss: no more")


def test_lines_without_a_speaker_continue_the_turn_above_and_same_speakers_join():
    conv = parse_conversation(
        "Seeker: first line\nsecond line\nSeeker: more\nSupporter: ok\nUser: hi"
    )
    assert conv.turns[0].text == "first line\nsecond line\nmore"
    assert len(conv.turns) == 3


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Seeker: I'm tired.\nSupporter: Why?", "ends with the supporter's turn"),
        ("Seeker: I'm tired.\nSupporter:   \nSeeker: hello", "turn 2 (Supporter) is empty"),
        ('[{"role": "user", "text": ""}]', "Turn 1 of the conversation is empty"),
        ('[{"role": "narrator", "text": "x"}]', "speaker 'narrator'"),
        ("[1, 2]", "must be a list of"),
        ("Seeker: " + "a" * 20_000, "the limit is"),
        ("\x00\x01  ", "empty"),
        (
            "\n".join(f"Seeker: {i}\nSupporter: {i}" for i in range(30)) + "\nSeeker: x",
            "limit is 40",
        ),
    ],
)
def test_bad_conversations_get_a_message_that_says_what_to_fix(text, says):
    with pytest.raises(InputError, match=None) as info:
        parse_conversation(text)
    assert says in str(info.value)


def test_a_conversation_may_end_on_the_supporter_when_no_reply_is_wanted():
    conv = parse_conversation("Seeker: hi\nSupporter: hello", want_reply=False)
    assert conv.turns[-1].role == SUPPORTER and not conv.ends_with_seeker


def test_carrying_a_conversation_on_empties_the_boxes_so_a_second_press_adds_nothing():
    import gradio as gr

    from pages.widgets.conversation import carry_on

    saved = {"replies": {"local/x": {"text": "That sounds lonely."}}}
    text, chosen, next_turn, note = carry_on("I moved abroad.", saved, "local/x", "It is.")
    assert parse_conversation(text).message == "It is." and "3 turns" in note
    with pytest.raises(gr.Error, match="Pick the reply"):
        carry_on(text, saved, chosen, next_turn)
    with pytest.raises(gr.Error, match="has no reply on screen"):
        carry_on(text, saved, "human/counselchat", "more")


def test_a_long_plain_message_is_refused_with_the_message_limit_in_its_own_words() -> None:
    """Newcomer walk: 20,000 plain characters were "the conversation … the limit is 12,000",
    so a visitor who cut to 11,000 was refused again (a single message's limit is 8,000)."""
    from config import SETTINGS

    limit = SETTINGS.max_message_chars
    with pytest.raises(InputError, match=rf"^The message is .* the limit is {limit:,}\."):
        parse_conversation("x" * (limit + 500))
    with pytest.raises(InputError, match=r"^The message is empty"):
        parse_conversation("  ")
    turns = f"Seeker: {'y' * (limit - 1000)}\nSupporter: I hear you.\nSeeker: {'z' * 1500}"
    assert parse_conversation(turns).message.startswith("zzz")  # turns: the longer limit


def test_the_compare_page_says_why_it_cannot_carry_on_beside_the_button() -> None:
    """Newcomer walk: a refusal raised an error that covered both boxes with red pills."""
    import gradio as gr

    from pages.compare import build

    page = build()
    (wired,) = [f for f in page.fns.values() if f.name == "carry_on"]
    out = wired.fn("I lost my job.", {"replies": {}}, None, "more")
    assert out[3] == "⚠️ Pick the reply to keep as the supporter's turn."
    assert all(isinstance(o, type(gr.skip())) for o in out[:3])
