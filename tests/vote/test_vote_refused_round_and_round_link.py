"""Newcomer walk, Vote page: a refused round leaves the round on screen marked as the earlier
one; the round's link has a copy button; a student's round link folds the teacher's
controls away (a teacher without a round sees them open).

The browser test takes screenshots at 1280x900 and 390x844 into ``test-artifacts/newcomer/``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from gradio_client import Client

from config import ROOT
from responders import registry
from studies.votes import rounds as votes_module
from studies.votes.rounds import Entry, create_round
from tests.conftest import ScriptedResponder

LOCAL = "local/qwen2.5-coder-1.5b"
NO_KEYS = ("", "", "", "")
CHROMIUM = "/usr/bin/chromium"
SHOTS = ROOT / "test-artifacts" / "newcomer"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Rounds and votes in a temporary folder; the local model replaced by a scripted one."""
    folder = tmp_path_factory.mktemp("votes")
    patch = pytest.MonkeyPatch()
    patch.setattr(
        votes_module, "SETTINGS", dataclasses.replace(votes_module.SETTINGS, votes_dir=folder)
    )
    patch.setitem(registry._CACHE, LOCAL, ScriptedResponder(chunks=["I'm ", "here with you."]))
    yield folder
    patch.undo()


@pytest.fixture(scope="module")
def url(folder: Path) -> Iterator[str]:
    from pages import vote

    page = vote.build()
    page.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1")
    try:
        yield page.local_url
    finally:
        page.close()


def make(client: Client, message: str) -> tuple:
    """Make a keyless round of the local model, two ways, no scorer."""
    return client.predict(
        None, message, [LOCAL], ["study", "reader-persona"], "", [], 3, 64, 0.7, "teacher",
        *NO_KEYS, api_name="/create_round",
    )  # fmt: skip


def test_a_refused_round_marks_the_round_on_screen_as_the_earlier_one(url, folder):
    rnd = create_round("I feel alone.", [Entry("a/x", "one"), Entry("b/y", "two")], folder=folder)
    client = Client(url, verbose=False)
    client.predict(rnd.code, "v1", api_name="/open_round")
    _code, share, _voter, header, *_ = make(client, "   ")
    assert share.startswith("⚠️")
    assert f"Still showing round {rnd.code}; the new round was not made:" in header, header
    assert "I feel alone." in header  # still the round's message below the note
    notice, _voter, header, *_ = client.predict("zzzz", "v1", api_name="/open_round")
    assert "no round ZZZZ" in notice
    assert f"Still showing round {rnd.code}; round ZZZZ was not opened:" in header, header
    made_code, share, _voter, header, *_ = make(client, "Nobody calls me any more.")
    assert "Round code" in share and "Still showing" not in header  # gone with the next round
    assert f"Round {made_code}" in header


def test_a_refusal_with_no_round_on_screen_changes_nothing_there(url):
    client = Client(url, verbose=False)
    _code, share, _voter, header, *_ = make(client, "")
    assert share.startswith("⚠️") and "Still showing" not in (header or "")


def test_the_rounds_link_has_a_copy_button(folder):
    from pages import vote

    page = vote.build()
    boxes = [
        c
        for c in page.config["components"]
        if c["props"].get("label") == "The round's link for students"
    ]
    assert len(boxes) == 1 and boxes[0]["props"]["buttons"] == ["copy"]
    asked = SimpleNamespace(
        headers={"host": "lab.example.org"}, url=SimpleNamespace(scheme="https")
    )
    link, qr = vote.round_link("K7Q2", asked)  # type: ignore[arg-type]
    assert link["value"] == "https://lab.example.org/vote?round=K7Q2" and link["visible"]
    assert "(data:image/png;base64," in qr
    assert vote.round_link("", asked)[0]["visible"] is False  # type: ignore[arg-type]


def test_a_round_in_the_address_folds_the_teachers_controls_away():
    from pages.widgets.round_maker import teacher_view

    student, teacher = (SimpleNamespace(query_params=q) for q in ({"round": "K7Q2"}, {}))
    assert teacher_view(student).open is False  # type: ignore[arg-type]
    assert teacher_view(teacher).open is True  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_teacher_and_student_views_in_a_browser(url, folder, width, height):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed here")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": width, "height": height})
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        tab = context.new_page()
        # A teacher, no round in the address: the controls are open; make a round.
        tab.goto(url)
        models = tab.get_by_text("Models that reply")
        models.wait_for(timeout=30_000)
        tab.screenshot(path=str(SHOTS / f"vote-teacher-open-{width}.png"))
        tab.get_by_label("Message (or paste your own)").fill("Nobody calls me any more.")
        tab.get_by_label("Empathy head (MiniLM + trained head)", exact=True).uncheck()
        tab.get_by_role("button", name="Make the round").click()
        # The copy button sits inside the box's label, so the box is found through it.
        labelled = tab.locator("label", has_text="The round's link for students")
        link = labelled.locator("textarea")
        link.wait_for(timeout=120_000)
        address = link.input_value()
        assert "/vote?round=" in address
        labelled.get_by_role("button", name="Copy").click()
        tab.wait_for_timeout(300)
        assert tab.evaluate("navigator.clipboard.readText()") == address
        link.scroll_into_view_if_needed()
        tab.screenshot(path=str(SHOTS / f"vote-teacher-link-{width}.png"))
        # The same message refused: the round on screen is marked as the earlier one.
        tab.get_by_label("Message (or paste your own)").fill("")
        tab.get_by_role("button", name="Make the round").click()
        note = tab.get_by_text("the new round was not made")
        note.wait_for(timeout=30_000)
        note.scroll_into_view_if_needed()
        tab.screenshot(path=str(SHOTS / f"vote-refused-{width}.png"))
        # A student types the code on a page opened without one: Open folds the controls.
        code = address.rsplit("=", 1)[1]
        tab.goto(url)
        models.wait_for(timeout=30_000)
        tab.get_by_label("Round code").fill(code.lower())
        tab.get_by_role("button", name="Open round").click()
        models.wait_for(state="hidden", timeout=30_000)
        # A student opens the link: the ballot alone, no teacher's controls (issue 30, walk 4).
        tab.goto(f"{url}?round={code}")  # the page alone here; /vote in the whole app
        heading = tab.get_by_text(f"Round {code}")
        heading.wait_for(timeout=30_000)
        tab.wait_for_timeout(800)
        tab.screenshot(path=str(SHOTS / f"vote-student-{width}.png"))
        assert not tab.get_by_text("Models that reply").is_visible()
        assert tab.get_by_text("Make a new round (teachers)").count() == 0  # a teacher: /vote
        assert heading.bounding_box()["y"] < height  # the ballot starts on the first screen
        browser.close()
