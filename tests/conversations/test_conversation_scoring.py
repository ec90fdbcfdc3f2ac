"""The empathy head, the CLI and a batch reading the next turn of a conversation.

The conversation model reads a turn against the earlier ones; it lost to reading each turn
alone on real conversations rated by experts, so the default head reads turns alone
(``scorers.bert_head.context.model_ships``) and the model is kept for studies."""

from __future__ import annotations

import pytest

from core.conversation import parse_conversation
from scorers.bert_head.head import head_reading_turns, load_head
from tests.scorers.test_cli_score import score_csv

# Written for this test (not in the training conversations): the seeker says early on that
# breathing apps make things worse; one reply remembers, the other suggests one.
PANIC = parse_conversation(
    "Seeker: I've had panic attacks at work for a month. Breathing apps make it worse for me, "
    "honestly.\n"
    "Supporter: That sounds frightening, especially at work. What happens when one starts?\n"
    "Seeker: My chest gets tight and I hide in the toilets until it passes.\n"
    "Supporter: Hiding until it passes makes sense when it feels that scary.\n"
    "Seeker: Today my manager noticed and asked if I was okay. I froze."
)
REMEMBERS = (
    "It sounds like being seen by your manager, after a month of hiding these attacks, was "
    "its own shock. Since the breathing apps backfire for you, would it help to think through "
    "what you might say to her if she asks again?"
)
FORGETS = (
    "That must have felt so exposing. Next time it starts, try opening a breathing app and "
    "following a slow 4-7-8 rhythm until it passes. Would you be willing to give that a go?"
)


@pytest.fixture(scope="module")
def head():
    return head_reading_turns(with_model=True)


def test_a_turn_that_forgets_an_earlier_turn_scores_clearly_lower_in_context(head):
    remembers = head.score(REMEMBERS, PANIC.message, PANIC.history).overall
    forgets = head.score(FORGETS, PANIC.message, PANIC.history).overall
    assert remembers - forgets >= 0.25  # the head alone, reading the last message, gives ~0.03


def test_a_single_message_scores_as_it_did_before_the_conversation_model(head):
    reply, message = "I'm so sorry about your dad. Would it help to talk about him?", "Dad died."
    with_model = head.score(reply, message)
    saved, head.context = head.context, None
    try:
        without = head.score(reply, message)
    finally:
        head.context = saved
    assert head.context is not None
    assert round(with_model.overall, 4) == round(without.overall, 4)


def test_cli_score_reads_a_conversation_turn_as_the_head_does_by_default_and_keeps_bad_rows(
    tmp_path,
):
    rows = [
        {"id": "1", "conversation": PANIC.transcript(), "reply": REMEMBERS},
        {"id": "2", "conversation": PANIC.transcript(), "reply": FORGETS},
        {"id": "3", "conversation": PANIC.transcript() + "\nSupporter: " + FORGETS, "reply": ""},
        {"id": "4", "conversation": "Seeker: hi\nSupporter:   \nSeeker: x", "reply": "ok"},
    ]
    result, got = score_csv(tmp_path, rows, ["id", "conversation", "reply"])
    assert [r["id"] for r in got] == ["1", "2", "3", "4"]
    overall = [float(r["overall"] or "nan") for r in got]
    alone = load_head()  # the default: the conversation model does not ship (lost to experts)
    assert alone.context is None
    expected = [
        alone.score(reply, PANIC.message, PANIC.history).overall for reply in (REMEMBERS, FORGETS)
    ]
    assert [round(x, 2) for x in overall[:2]] == [round(x, 2) for x in expected]
    assert overall[2] == pytest.approx(overall[1], abs=0.01)  # its last supporter turn, scored
    assert got[3]["status"] == "unscored" and "turn 2 (Supporter) is empty" in result.stderr


def test_a_retrained_conversation_model_never_reads_its_predecessors_cached_scores(head):
    """The score cache keys a reply after earlier turns on the conversation model's version
    too (a single message keeps its key): a retrained model scores afresh."""
    from dataclasses import replace

    from scorers.base import ScoreItem
    from studies.score_cache import item_key

    turns = ScoreItem(REMEMBERS, PANIC.message, PANIC.history)
    single = ScoreItem(REMEMBERS, PANIC.message)
    before = (item_key(head.setting, turns, head.turns_setting), item_key(head.setting, single))
    saved = head.context
    head.context = replace(saved, version=saved.version + "-retrained")
    try:
        after = (item_key(head.setting, turns, head.turns_setting), item_key(head.setting, single))
    finally:
        head.context = saved
    assert before[0] != after[0] and before[1] == after[1]
