"""Two strangers on one public server, in real headless Chromium: visitor A types a key, gets a
reply, flags it with a note naming herself, rates it and votes with a reason; visitor B, in a
fresh browser, reads none of it. Nothing A typed is kept in A's browser storage, and the run
history page holds nothing. Screenshots go to ``/tmp/two_visitors/``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import config
from core.flags import FlagLog
from core.questions import load_questions
from core.ratings import RatingLog
from studies.votes.log import VoteLog
from studies.votes.rounds import Entry, create_round
from tests.conftest import CHROMIUM, require_chromium

pytestmark = pytest.mark.slow
SHOTS = Path("/tmp/two_visitors")
HUMAN, LOCAL = "human/counselchat", "local/qwen2.5-coder-1.5b"
TOKEN = "operator-token-8812"
#: What A types: a key that does not look like one, and notes that name her.
A_KEY = "typedkey-RUNHIST-998877"
A_NOTE = "Jane Roe, 12 Elm Street, 555-0100: I feel hopeless too"
A_COMMENT = "Jane's comment: this helped me at 3am"
A_REASON = "Jane's reason: B listens"
PICKED = 3

require_chromium()


@pytest.fixture(scope="module")
def public_app(vote_folder: Path) -> Iterator[tuple[str, str]]:
    """The whole app on 127.0.0.1 as a public server with an operator token; a vote round."""
    import app as app_module
    from pages.widgets.launch import launch_options

    patch = pytest.MonkeyPatch()
    patch.setattr(config, "SETTINGS", dataclasses.replace(config.SETTINGS, public=True,
                                                          admin_token=TOKEN))  # fmt: skip
    rnd = create_round("I feel alone.", [Entry("a/x", "one"), Entry("b/y", "two")], seed=3,
                       folder=vote_folder)  # fmt: skip
    demo = app_module.build_app()
    demo.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1",
                        **launch_options())  # fmt: skip
    try:
        yield demo.local_url.rstrip("/"), rnd.code
    finally:
        demo.close()
        patch.undo()


def as_visitor_a(tab, url: str, code: str) -> None:  # type: ignore[no-untyped-def]
    """A: a key typed, the therapist's reply to a bundled question, flagged, rated, a vote."""
    from playwright.sync_api import expect

    tab.goto(f"{url}/compare")
    tab.get_by_text("API keys (kept in this browser session only)").click()
    tab.get_by_role("textbox", name=config.KEY_ENV_VARS[0]).fill(A_KEY)
    tab.get_by_label("Pick a bundled question").click()
    tab.get_by_role("option").nth(PICKED).click()
    expect(tab.locator("textarea").first).to_have_value(load_questions()[PICKED].question)
    tab.locator(f"input[type=checkbox][name='{LOCAL}']").uncheck()
    tab.get_by_text("Who scores the replies").click()
    tab.locator("input[type=checkbox][name='bert-head']").uncheck()
    tab.get_by_role("button", name="Get replies").click()
    expect(tab.locator("#compare-progress")).to_contain_text("Done.", timeout=60_000)
    tab.get_by_placeholder("Why flag it? (optional)").first.fill(A_NOTE)
    tab.get_by_role("button", name="Flag this reply").first.click()
    expect(tab.get_by_text("Flagged.")).to_be_visible(timeout=20_000)
    tab.get_by_text("Your rating: rate a reply yourself").click()
    tab.get_by_label("Your name or initials").fill("=Jane")
    for group in tab.locator("#rate-box fieldset").all()[:3]:
        group.get_by_text("2", exact=True).click()
    tab.get_by_label("Comment (optional)").fill(A_COMMENT)
    tab.get_by_role("button", name="Save my rating").click()
    expect(tab.get_by_text("Saved:")).to_be_visible(timeout=20_000)
    tab.screenshot(path=str(SHOTS / "a-compare.png"), full_page=True)
    tab.goto(f"{url}/vote?round={code}")
    for picker, letter in (("Most", "A"), ("Least", "B")):
        group = tab.get_by_role("radiogroup", name=f"{picker} empathetic reply")
        group.get_by_role("radio", name=letter, exact=True).check()
    tab.get_by_label("Why? (optional, a sentence)").fill(A_REASON)
    tab.get_by_role("button", name="Vote", exact=True).click()
    expect(tab.get_by_text("**most** empathetic").or_(tab.get_by_text("most empathetic")).first
           ).to_be_visible(timeout=20_000)  # fmt: skip
    tab.wait_for_timeout(1_000)
    tab.screenshot(path=str(SHOTS / "a-vote.png"), full_page=True)


def storage(tab) -> str:  # type: ignore[no-untyped-def]
    return tab.evaluate("() => JSON.stringify({...localStorage, ...sessionStorage})")


def test_b_reads_none_of_what_a_typed(public_app):
    from playwright.sync_api import expect, sync_playwright

    url, code = public_app
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            a = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            as_visitor_a(a, url, code)
            kept = storage(a)
            for typed in (A_KEY, A_NOTE, A_COMMENT, A_REASON, "Jane Roe"):
                assert typed not in kept  # nothing A typed sits in her browser's storage
            assert "run-history" not in kept
            # What A did was written, with her owner tag.
            assert [r["note"] for r in FlagLog().read() if r["visitor"]][-1] == A_NOTE
            assert [r["comment"] for r in RatingLog().read() if r["visitor"]][-1] == A_COMMENT
            assert [r["rater"] for r in RatingLog().read() if r["visitor"]][-1] == "=Jane"
            assert any(r["reason"] == A_REASON for r in VoteLog().read())

            b = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            b.goto(f"{url}/flags")
            expect(b.get_by_text("0 flagged case(s) of yours")).to_be_visible(timeout=30_000)
            assert A_NOTE not in b.content() and "Jane" not in b.content()
            b.screenshot(path=str(SHOTS / "b-flags.png"), full_page=True)
            b.goto(f"{url}/vote?round={code}")
            b.get_by_role("tab", name="Results").click()
            b.get_by_role("button", name="Show results").click()
            expect(b.get_by_text("2 sources")).to_be_visible(timeout=30_000)  # counts: public
            assert A_REASON not in b.content()
            b.screenshot(path=str(SHOTS / "b-vote-results.png"), full_page=True)
            assert A_KEY not in storage(b) and A_NOTE not in storage(b)
        finally:
            browser.close()
    assert httpx.get(f"{url}/gradio_api/runs").status_code == 404


def test_b_as_a_caller_of_the_api_gets_none_of_as_rows(public_app):
    from gradio_client import Client

    url, _code = public_app
    b = Client(url, verbose=False)
    table, status, download = b.predict(200, None, api_name="/latest_flags")
    assert "of yours" in status
    assert A_NOTE not in json.dumps(table) and download is None
    notice, *_ = b.predict("bert-head", "ratings-here", None, "", "1:3", 0, 0,
                               "", "", "", "", None, api_name="/align")  # fmt: skip
    assert "No ratings made here yet" in notice and A_COMMENT not in notice
