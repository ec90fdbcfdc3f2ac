"""Cold newcomer walk of Compare (helper h1): the rating form, the rating box, Blind's note and the
therapist's panel for a pasted message, checked on the handlers and the page's wiring.

1. The form kept the last reply's answers when a save moved the menu to the next reply.
2. The rating box needed two clicks to open after a run: the page opened it with an update
   from the server (``open=True``), which Gradio 6 can take as open while the box looks closed.
3. Blind left the Scores captions and help over empty space and did not say why.
4. The therapist's panel kept an empty reply box for a pasted message.
"""

from __future__ import annotations

import gradio as gr

from core.questions import load_questions
from pages.widgets.rating import CLEARED, after_save, blind_updates, rating_box
from pages.widgets.reply_panels import RESPONDER_IDS, ended_boxes, has_answer, started_panels
from pages.widgets.score_area import BLIND_NOTE, score_area

HUMAN = "human/counselchat"
TWO = {"replies": {"a": {"text": "A"}, "b": {"text": "B"}}}


def test_a_save_that_moves_on_empties_the_form_for_the_next_reply() -> None:
    out = after_save(TWO, [], "a", True, "Saved: x rated it 2/1/1.", hidden=3)
    answers = out[-len(CLEARED) :]
    assert out[5]["value"] == "b"  # the menu moved on (3 hidden, the note, rated, menu)
    assert [u["value"] for u in answers] == [None, None, None, None, "", ""]


def test_a_save_that_does_not_move_on_keeps_the_form() -> None:
    for blind, rated in ((False, []), (True, [["a", "A"]])):
        out = after_save(TWO, rated, "b", blind, "Saved: x rated it 2/1/1.", hidden=3)
        assert out[-len(CLEARED) :] == [gr.skip()] * len(CLEARED), blind
    refused = after_save(TWO, [], "a", True, "⚠️ Get replies first", hidden=3)
    assert refused == [gr.skip()] * len(refused)


def test_the_answers_emptied_are_the_forms_own_in_order() -> None:
    with gr.Blocks():
        box = rating_box()
    assert box.answers == [*box.levels, box.safe, box.concern, box.comment]
    assert len(box.answers) == len(CLEARED)


def test_blind_never_sets_the_rating_box_open_from_the_server() -> None:
    """The box is opened in the browser (a click on its heading), so Gradio's idea of it and
    what it shows cannot part: no update of Blind carries ``open``, and none targets the box."""
    for on in (True, False):
        assert all("open" not in update for update in blind_updates(on, 3))
    from pages import compare

    page = compare.build()
    box = next(b for b in page.blocks.values() if getattr(b, "elem_id", None) == "rate-box")
    blind = next(b for b in page.blocks.values() if getattr(b, "elem_id", None) == "rate-blind")
    config = page.get_config_file()
    changes = [
        d
        for d in config["dependencies"]
        if [blind._id, "change"] in [list(t) for t in d["targets"]]
    ]
    assert changes and all(box._id not in d["outputs"] for d in changes)
    assert any(d.get("js") and "rate-box" in d["js"] for d in changes)


def test_blind_hides_every_part_under_the_scores_heading_and_says_why() -> None:
    with gr.Blocks():
        area = score_area("safety help")
    hidden = blind_updates(True, len(area.hidden))
    assert [u["visible"] for u in hidden] == [False] * len(area.hidden) + [True]
    from reports.charts import RADAR_CAPTION

    captions = [part for part in area.hidden if RADAR_CAPTION in str(part.value)]
    assert len(captions) == 2, "both radar captions hide with their charts"
    assert any("safety help" in str(part.value) for part in area.hidden)
    assert area.blind_note.visible is False and "hidden while Blind is ticked" in BLIND_NOTE
    shown = blind_updates(False, len(area.hidden))
    assert [u["visible"] for u in shown] == [True] * len(area.hidden) + [False]


def test_the_last_rating_shows_the_scores_and_hides_the_note() -> None:
    out = after_save(TWO, [["a", "A"]], "b", True, "Saved: x", hidden=2)
    assert [u["visible"] for u in out[:3]] == [True, True, False]


def test_the_therapists_reply_box_folds_away_for_a_pasted_message() -> None:
    question = load_questions()[0].question
    assert has_answer(HUMAN, (question, 0, 0.0))
    assert not has_answer(HUMAN, ("I can't sleep since my mother died.", 0, 0.0))
    assert has_answer("local/qwen2.5-coder-1.5b", ("I can't sleep.", 0, 0.0))
    human = RESPONDER_IDS.index(HUMAN)
    boxes = len(RESPONDER_IDS)
    pasted = started_panels([HUMAN], ("I can't sleep since my mother died.", 0, 0.0))
    assert pasted[human].visible is True  # the panel stays, with its line saying why
    assert pasted[boxes + human]["visible"] is False  # but not its empty reply box
    bundled = started_panels([HUMAN], (question, 0, 0.0))
    assert bundled[boxes + human]["visible"] is True  # the next run's answer shows again


def test_a_reply_box_left_empty_by_an_error_folds_away_when_the_run_ends() -> None:
    lines = {rid: "not selected" for rid in RESPONDER_IDS}
    lines[HUMAN] = "unavailable: only for the bundled CounselChat questions"
    lines["openai/gpt-4o"] = "error: could not reach the server"
    lines["local/qwen2.5-coder-1.5b"] = "stopped: Stop was pressed before this reply began"
    saved = {"replies": {"openai/gpt-4o": {"text": "Half a reply"}}}
    shown = dict(zip(RESPONDER_IDS, ended_boxes(saved, *lines.values()), strict=True))
    assert shown[HUMAN]["visible"] is False
    assert shown["openai/gpt-4o"]["visible"] is True  # something was written: kept
    assert shown["local/qwen2.5-coder-1.5b"]["visible"] is True
