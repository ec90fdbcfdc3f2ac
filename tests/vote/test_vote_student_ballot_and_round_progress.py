"""Issue 30, walk 4, the Vote page (no browser): a round in the address hides the teacher's
round maker; the making of a round shows the page's own line without Gradio's percentage;
Markdown in a reply shows as plain words (its HTML as text); the two pickers carry names a
screen reader reads."""

from __future__ import annotations

from types import SimpleNamespace

import gradio as gr

from studies.votes import rounds as votes_module
from studies.votes.rounds import Entry, create_round

MARKED = "**Be kind to yourself**. Some steps:\n- a *short* walk\n- `sleep` at ten"


def test_a_round_in_the_address_hides_the_round_maker_a_teacher_sees_it_open():
    from pages.widgets.round_maker import teacher_view

    student, teacher = (SimpleNamespace(query_params=q) for q in ({"round": "K7Q2"}, {}))
    assert teacher_view(student).visible is False  # type: ignore[arg-type]
    shown = teacher_view(teacher)  # type: ignore[arg-type]
    assert shown.visible is True and shown.open is True


def test_the_round_makers_line_is_its_only_progress_readout(monkeypatch):
    """Gradio wrote "- 0.0%" after the bar's line (it does for any fraction or pair): the
    Make event shows Gradio's progress on a state only (nothing on screen; an API client still
    gets it); each tick writes the page's line under the buttons."""
    from pages import vote

    deps = vote.demo.config["dependencies"]
    (make,) = [d for d in deps if d.get("api_name") == "create_round"]
    states = {i for i, b in vote.demo.blocks.items() if type(b).__name__ == "State"}
    assert make["show_progress_on"] and set(make["show_progress_on"]) <= states

    def follow(work, progress, shown, **_):  # type: ignore[no-untyped-def]
        yield shown("Writing reply 1 of 4… 3 s (3 s in all)")
        return ["made"]

    monkeypatch.setattr(vote, "follow", follow)
    first, tick, _made = vote.create_following(None, *[None] * 14)  # type: ignore[arg-type]
    assert first[1] == "" and tick[1] == "Writing reply 1 of 4… 3 s (3 s in all)"
    assert [u for i, u in enumerate(tick) if i != 1] == [gr.skip()] * (len(tick) - 1)


def test_a_reply_shows_its_words_without_markdown_marks(vote_folder):
    from pages.widgets.ballot import ballot_updates

    rnd = create_round(
        "I can't sleep.", [Entry("a/x", MARKED), Entry("b/y", "Plain.")], folder=vote_folder
    )
    boxes = ballot_updates(rnd, "voter-1")[1 : 1 + votes_module.MAX_REPLIES]
    texts = {box["value"] for box in boxes if box.get("visible")}
    assert "Be kind to yourself. Some steps:\n• a short walk\n• sleep at ten" in texts
    assert not any("*" in t or "`" in t for t in texts)


def test_html_in_a_reply_stays_text():
    from pages.widgets.ballot import plain_reply

    hostile = '<img src=x onerror="alert(1)"> <script>alert(2)</script>'
    assert plain_reply(hostile) == hostile  # shown as text in a text box: nothing renders


def test_the_pickers_have_ids_their_names_are_given_to():
    from pages import vote
    from pages.widgets.ballot import NAME_PICKERS_JS, PICKERS

    radios = {b.elem_id: b.label for b in vote.demo.blocks.values() if type(b).__name__ == "Radio"}
    assert {k: radios.get(k) for k in PICKERS} == PICKERS
    assert "radiogroup" in NAME_PICKERS_JS and all(name in NAME_PICKERS_JS for name in PICKERS)
    scripts = [d.get("js") for d in vote.demo.config["dependencies"]]
    assert NAME_PICKERS_JS in scripts  # run when the page loads
