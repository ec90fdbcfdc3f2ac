"""Newcomer walk (issue 51, point 5): carrying a conversation on, on the Compare page.

"Keep this reply as the supporter's turn" listed all six responders, those that never replied
too, and started empty even when one reply was on screen; the "Added: … 7 turns" line stayed
after the message box was typed over. Now the menu lists only the responders with a reply on
screen, picks the only (or the first) one once replies come, and the line goes when the
message changes by hand.
"""

from __future__ import annotations

import gradio as gr

from pages.widgets.conversation import ADDED, carried_note, carry_choices, carry_on
from pages.widgets.reply_panels import RESPONDER_IDS

LOCAL, HUMAN = RESPONDER_IDS[:2]  # the panels' order: the local model first
SKIP = type(gr.skip())


def _ids(menu: gr.Dropdown) -> list[str]:
    return [rid for _, rid in menu.choices]


def test_the_menu_lists_only_the_replies_on_screen_and_picks_the_only_one() -> None:
    assert HUMAN != LOCAL and len(RESPONDER_IDS) == 6
    saved = {"replies": {LOCAL: {"text": ""}, HUMAN: {"text": "That sounds hard."}}}
    menu = carry_choices(saved, None)
    assert _ids(menu) == [HUMAN]  # the local model wrote nothing (stopped, or an error)
    assert menu.value == HUMAN  # the only reply, picked: no empty menu to open first


def test_the_first_reply_is_picked_and_a_choice_still_on_screen_stays() -> None:
    saved = {"replies": {HUMAN: {"text": "I hear you."}, LOCAL: {"text": "Hm."}}}
    assert _ids(carry_choices(saved, None)) == [LOCAL, HUMAN]  # in the panels' order
    assert carry_choices(saved, None).value == LOCAL
    assert carry_choices(saved, HUMAN).value == HUMAN
    nothing = carry_choices({"replies": {}}, HUMAN)
    assert _ids(nothing) == [] and nothing.value is None


def test_the_page_starts_with_no_responder_offered_and_refills_after_each_run() -> None:
    from pages.compare import build

    page = build()
    (menu,) = [
        b
        for b in page.blocks.values()
        if getattr(b, "label", "") == "Keep this reply as the supporter's turn"
    ]
    assert menu.choices == [] and menu.value is None  # no reply on screen yet
    refills = [f for f in page.fns.values() if f.fn is carry_choices]
    assert [o._id for f in refills for o in f.outputs] == [menu._id, menu._id]
    runs = {f._id: f.api_name for f in page.fns.values()}
    assert sorted(runs[f.trigger_after] for f in refills) == ["compare", "rescore"]


def test_the_added_line_goes_when_the_message_changes_and_stays_while_it_holds_it() -> None:
    saved = {"replies": {LOCAL: {"text": "That sounds lonely."}}}
    text, _, _, note = carry_on("I moved abroad.", saved, LOCAL, "It is.")
    assert note == ADDED.format(turns=3)
    assert isinstance(carried_note(text, note), SKIP)  # the box holds what the line says
    assert carried_note("My exams are soon.", note) == ""  # a bundled question replaced it
    assert carried_note(text + "\nSupporter: x\nSeeker: y", note) == ""


def test_typing_in_the_message_box_empties_the_added_line() -> None:
    """Typing may keep the turns' count (a word changed): the box's input event empties the
    line whatever it says, and a change by a pick is checked by :func:`carried_note`."""
    from pages.compare import build

    page = build()
    (note,) = [
        o for f in page.fns.values() if f.name == "carry_on" for o in f.outputs[3:]
    ]  # the line under the button
    message = next(f.inputs[0] for f in page.fns.values() if f.name == "carry_on")
    wired = {
        (event, f.fn is carried_note or f.fn() == "")
        for f in page.fns.values()
        for block, event in f.targets
        if block == message._id and [o._id for o in f.outputs] == [note._id]
    }
    assert wired == {("input", True), ("change", True)}
