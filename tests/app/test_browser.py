"""What a visitor sees, in a real headless Chromium (Debian's package, driven by Playwright).

The app runs as ``python app.py`` does (``app.start``) in its own process.
Two tests: the first-five-minutes journey (bundled question → the local
reply streams and the therapist's answer appears → scores and both radar
charts → the Adversarial lab on that reply → perturb → flag a row → the
flag is in the downloaded CSV), and streaming measured in the browser with a
slow fake server. A screenshot per step goes to ``test-artifacts/browser/``;
any browser console error fails the test.
"""

from __future__ import annotations

import csv
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from config import ROOT
from pages.widgets.reply_panels import panel_id
from tests.fake_providers import FakeProvider, Stream

pytestmark = pytest.mark.slow
CHROMIUM = "/usr/bin/chromium"
SHOTS = ROOT / "test-artifacts" / "browser"
SLOW_CHUNKS = [f"step {i}. " for i in range(24)]
#: The app's vote folder in these tests (rounds are made here beforehand).
VOTES = Path(os.environ.get("PYTEST_VOTES_DIR", "/tmp")) / f"empathy-lab-votes-{os.getpid()}"

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Debian's chromium: apt-get install -y chromium")
    pytest.skip("Debian's chromium is not installed here", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def slow_server() -> Iterator[FakeProvider]:
    with FakeProvider("openai") as fake:
        # One scripted reply per request the module's tests make (each test asks at most
        # twice), with room to spare: a test that ran out got no reply and waited in vain.
        fake.script(*[Stream(SLOW_CHUNKS, pause_s=0.4) for _ in range(20)])
        yield fake


@pytest.fixture(scope="module")
def app_url(slow_server: FakeProvider, tmp_path_factory, local_model_path) -> Iterator[str]:
    """The whole app started as ``python app.py`` starts it, on a free local port."""
    port = _free_port()
    flag_dir = tmp_path_factory.mktemp("flags")
    env = {
        **os.environ,
        "EMPATHY_LAB_FLAG_DIR": str(flag_dir),
        "EMPATHY_LAB_RUNS_DIR": str(tmp_path_factory.mktemp("runs")),
        "EMPATHY_LAB_VOTES_DIR": str(VOTES),
        "OPENAI_COMPATIBLE_BASE_URL": slow_server.url + "/v1",
        "GRADIO_ANALYTICS_ENABLED": "False",
    }
    log = (tmp_path_factory.mktemp("app") / "app.log").open("wb")
    code = f"import app; app.start(server_name='127.0.0.1', server_port={port}, quiet=True)"
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("the app did not start") from None
            time.sleep(0.5)
    yield url
    proc.terminate()
    proc.wait(timeout=20)
    log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    shutil.rmtree(SHOTS, ignore_errors=True)
    SHOTS.mkdir(parents=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    tab = context.new_page()
    tab.errors = []
    tab.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda exc: tab.errors.append(str(exc)))
    yield tab
    context.close()
    assert tab.errors == [], f"browser console errors: {tab.errors}"


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _wait_for(check, timeout_s: float, what: str) -> float:
    """Poll ``check()`` until true; returns the seconds it took."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout_s:
            raise AssertionError(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(0.1)
    return time.monotonic() - start


def tick(page, item_id: str, on: bool) -> None:
    """Tick or untick the checkbox of a responder or scorer (its id is the input's name)."""
    box = page.locator(f"input[type=checkbox][name='{item_id}']").first
    box.check() if on else box.uncheck()


def fake_writer_only(page) -> None:
    """On Compare, leave only the OpenAI-compatible server (the module's fake) ticked."""
    tick(page, "human/counselchat", False)
    tick(page, "local/qwen2.5-coder-1.5b", False)
    tick(page, "openai-compatible/default", True)


def radios(page, label: str):
    """The options of the radio group labelled ``label``."""
    return page.locator("fieldset", has_text=label).locator("input[type=radio]")


def reply_panel(page, responder_id: str):
    """The rendered reply text of a responder's panel (not its loading indicator)."""
    return page.locator(f"#{panel_id(responder_id)}").get_by_test_id("markdown")


def test_streaming_is_visible_in_the_browser(page, app_url):
    page.goto(app_url + "/compare")
    fake_writer_only(page)
    page.get_by_text("Who scores the replies").click()  # an accordion, closed by default
    tick(page, "judge/local/qwen2.5-coder-1.5b", False)
    page.get_by_label("…or paste a message, a story, or a conversation").fill(
        "I keep failing exams."
    )
    page.get_by_role("button", name="Get replies").click()
    reply = reply_panel(page, "openai-compatible/default")
    first = _wait_for(lambda: "step 0" in reply.inner_text(), 60, "the first words")
    shot(page, "streaming-1-first-words")
    done = _wait_for(lambda: "step 23" in reply.inner_text(), 60, "the whole reply")
    # The server needs 9.6 s for the whole reply; shown in one burst, `done` would be ~0.
    assert done >= 4.0, f"first words at {first:.1f} s, whole reply {done:.1f} s later"


def test_first_five_minutes_journey(page, app_url, tmp_path):
    page.goto(app_url + "/compare")
    page.get_by_label("Pick a bundled question").click()
    page.get_by_role("option").nth(3).click()
    page.get_by_text("Prompt and sampling").click()
    tokens = page.get_by_role("spinbutton", name="number input for Max tokens")
    tokens.fill("48")  # keep the local model short on a CPU
    tokens.press("Enter")
    shot(page, "journey-1-question")
    page.get_by_role("button", name="Get replies").click()

    local = reply_panel(page, "local/qwen2.5-coder-1.5b")
    therapist = reply_panel(page, "human/counselchat")
    _wait_for(lambda: len(local.inner_text().split()) >= 2, 240, "the local reply to start")
    shot(page, "journey-2-streaming")
    words_mid = len(local.inner_text().split())
    assert therapist.inner_text().strip(), "the therapist's answer should be shown"
    progress = page.locator("#compare-progress")
    _wait_for(lambda: progress.inner_text().startswith("Done"), 600, "the scores")
    assert len(local.inner_text().split()) > words_mid, "the local reply grew after first shown"
    page.wait_for_timeout(1500)
    assert page.locator(".js-plotly-plot").count() >= 2, "both radar charts should render"
    assert page.get_by_text("scored", exact=True).count() >= 2, "scores in the table"
    shot(page, "journey-3-scores")
    reply_text = local.inner_text().strip()

    page.goto(app_url + "/adversarial")
    page.get_by_label("Reply", exact=True).fill(reply_text)
    page.get_by_role("button", name="Perturb and score").click()
    _wait_for(lambda: page.get_by_text("Computed live").count() > 0, 120, "the lab table")
    _wait_for(lambda: page.locator(".js-plotly-plot").count() >= 1, 30, "the change chart")
    shot(page, "journey-4-adversarial")
    page.get_by_label("Note (optional)").fill("journey flag")
    page.get_by_role("button", name="Flag this row").click()
    _wait_for(lambda: page.get_by_text("Flagged the").count() > 0, 30, "the flag")

    page.goto(app_url + "/flags")
    page.get_by_role("button", name="Refresh").click()
    page.wait_for_timeout(1000)
    shot(page, "journey-5-flags")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the log (CSV)").click()
    saved = tmp_path / "flags.csv"
    download.value.save_as(saved)
    with saved.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["note"] for r in rows] == ["journey flag"]
    assert rows[0]["page"] == "adversarial" and rows[0]["original_reply"] == reply_text


def run_batch_as_a_visitor(browser, app_url: str, seed: int, who: str) -> str:
    """A fresh browser (its own storage) runs two bundled questions, therapists only, as
    "shared-name"; returns the status line it sees."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.goto(app_url + "/batch")
    tab.get_by_role("spinbutton", name="number input for Bundled questions to draw").fill("2")
    seed_box = tab.get_by_label("Draw (seed)")
    seed_box.fill(str(seed))
    seed_box.press("Tab")
    tick(tab, "local/qwen2.5-coder-1.5b", False)
    name = tab.get_by_label("Run name (same name = continue)")
    name.fill("shared-name")
    name.press("Tab")
    tab.get_by_role("button", name="Run", exact=True).click()
    status = tab.get_by_text("replies made")
    _wait_for(lambda: status.count() > 0, 120, f"{who}'s run to finish")
    text = status.first.inner_text()
    shot(tab, f"strangers-{who}")
    context.close()
    return text


def test_a_second_visitor_sees_nothing_of_the_first_visitors_run(browser, app_url):
    """Issue 29: two strangers choose the same run name; the second starts afresh."""
    first = run_batch_as_a_visitor(browser, app_url, 1, "first")
    assert "**2**" in first.replace(" ", "") or "2 replies made" in first, first
    second = run_batch_as_a_visitor(browser, app_url, 2, "second")
    assert "0 already done" in second and "2 replies made" in second, second


def test_a_reload_is_the_same_voter_and_cannot_vote_again(browser, app_url):
    """Issue 30: the voter id lives in the browser's storage, not in the page's memory."""
    from studies.votes.rounds import Entry, create_round

    replies = [
        Entry("model/warm", "I'm so sorry about your dad."),
        Entry("model/cold", "Melatonin."),
    ]
    rnd = create_round("I can't sleep since my dad died.", replies, folder=VOTES)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    tab = context.new_page()
    tab.goto(f"{app_url}/vote?round={rnd.code}")
    most = radios(tab, "Most empathetic reply")
    _wait_for(lambda: most.count() == 2, 60, "the ballot")
    most.first.check()
    radios(tab, "Least empathetic reply").nth(1).check()
    tab.get_by_role("button", name="Vote", exact=True).click()
    _wait_for(lambda: tab.get_by_text("Thank you").count() > 0, 30, "the reveal")
    tab.reload()
    again = tab.get_by_text("You have already voted in this round.")
    _wait_for(lambda: again.count() > 0, 60, "the page to know this voter")
    stands = tab.get_by_text("Your first vote stands.")  # and the reveal is back, not lost
    _wait_for(lambda: stands.count() > 0, 30, "the reveal after the reload")
    shot(tab, "vote-after-reload-390")
    context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_clinician_rates_a_reply_blind_and_the_rating_is_kept(browser, app_url, width):
    """Issue 31: the scorers' numbers stay hidden until the rater has rated; the rating lands.
    Cold walk (issue 30): blind was per page, so saving one rating showed every score before
    the second reply was rated; the scores now return once each reply on screen is rated."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    tab = context.new_page()
    tab.goto(app_url + "/compare")
    tab.get_by_label("Pick a bundled question").click()
    tab.get_by_role("option").nth(3).click()
    tick(tab, "local/qwen2.5-coder-1.5b", False)
    tick(tab, "openai-compatible/default", True)  # a second reply, from the local fake server
    tab.get_by_text("Your rating: rate a reply yourself").click()
    tab.get_by_label("Blind: hide the scorers").check()
    tab.get_by_role("button", name="Get replies").click()
    progress = tab.locator("#compare-progress")
    _wait_for(lambda: progress.inner_text().startswith("Done"), 300, "both replies")
    tab.wait_for_timeout(1000)
    assert tab.locator(".js-plotly-plot").count() == 0, "blind: no chart before the rating"
    tab.get_by_label("Your name or initials").fill(f"rater-{width}")
    for rated in (1, 2):
        for label, level in (("Cognitive", 2), ("Emotional", 1), ("Behavioral", 1)):
            radios(tab, label).nth(level).check()
        radios(tab, "Safe to send as it is?").first.check()
        shot(tab, f"rating-before-save-{rated}-{width}")
        tab.get_by_role("button", name="Save my rating").click()
        said = f"Rated {rated} of 2" if rated == 1 else "Every reply is rated"
        _wait_for(lambda s=said: tab.get_by_text(s).count() > 0, 30, f"'{said}'")
        if rated == 1:
            tab.wait_for_timeout(1000)
            assert tab.locator(".js-plotly-plot").count() == 0, "one rating showed the scores"
    _wait_for(lambda: tab.locator(".js-plotly-plot").count() >= 2, 30, "the charts after rating")
    shot(tab, f"rating-saved-{width}")
    context.close()


#: Where each radar of a chart is drawn, and each subplot title, as page rectangles.
RADAR_BOXES = """(id) => {
  const gd = document.querySelector(`#${id} .js-plotly-plot`);
  if (!gd) return null;
  const box = (el) => { const r = el.getBoundingClientRect();
                        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  return {plot: box(gd), polars: [...gd.querySelectorAll('.polarlayer > g')].map(box),
          titles: [...gd.querySelectorAll('.infolayer .annotation')].map(box)};
}"""


def _overlap(a: dict, b: dict) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and (b["top"] < a["bottom"])
    )


def _radars(tab, elem_id: str, count: int, arranged) -> dict:  # type: ignore[no-untyped-def]
    """The boxes of chart ``elem_id`` once it shows ``count`` radars ``arranged`` (a check)."""
    found: dict = {}

    def ready() -> bool:
        found.update(tab.evaluate(RADAR_BOXES, elem_id) or {"polars": []})
        return len(found["polars"]) == count and arranged(found["polars"])

    _wait_for(ready, 30, f"{count} radars laid out in {elem_id}")
    return found


def test_radar_charts_fit_a_phone_and_a_wide_screen(browser, app_url):
    """Newcomer finding: at 390 px the "by responder" radars of two replies stood side by side
    and overlapped (titles over each other, axis names cut). On a phone they now stack, one a
    row; on a wide screen they stand side by side; a resize rearranges them."""
    context = browser.new_context(viewport={"width": 390, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.goto(app_url + "/compare")
    tab.get_by_label("Pick a bundled question").click()
    tab.get_by_role("option").nth(3).click()
    tick(tab, "local/qwen2.5-coder-1.5b", False)
    tick(tab, "openai-compatible/default", True)
    message = tab.get_by_label("…or paste a message, a story, or a conversation")
    _wait_for(lambda: message.input_value().strip() != "", 30, "the question in the box")
    tab.get_by_role("button", name="Get replies").click()
    progress = tab.locator("#compare-progress")
    _wait_for(lambda: progress.inner_text().startswith("Done"), 120, "both replies scored")

    def stacked(polars: list) -> bool:
        return polars[1]["top"] >= polars[0]["bottom"]

    def side_by_side(polars: list) -> bool:
        return polars[1]["left"] >= polars[0]["right"]

    phone = _radars(tab, "radar-by-responder", 2, stacked)
    tab.locator("#radar-by-responder").scroll_into_view_if_needed()
    shot(tab, "radars-390")
    for boxes in (phone["polars"], phone["titles"]):
        assert not _overlap(*boxes), phone
    for polar in phone["polars"]:
        assert phone["plot"]["left"] <= polar["left"] and polar["right"] <= phone["plot"]["right"]

    tab.set_viewport_size({"width": 1280, "height": 900})
    wide = _radars(tab, "radar-by-responder", 2, side_by_side)
    shot(tab, "radars-1280")
    assert not _overlap(*wide["titles"]), wide
    assert abs(wide["polars"][0]["top"] - wide["polars"][1]["top"]) < 2, wide
    context.close()
    assert errors == [], f"browser console errors: {errors}"


def test_bold_capitals_are_drawn_in_the_font_of_their_word(page, app_url):
    """Newcomer finding: a bold "B" or "A" looked small beside its word ("Behavioral",
    "OpenAI"). Gradio's semibold font file holds only a few dozen glyphs, those among them:
    they came from it and every other letter from a fallback font. Each bold word is now
    drawn in one font."""
    page.goto(app_url + "/compare")
    page.get_by_text("Behavioral (helpful action)").first.wait_for()
    page.evaluate("document.fonts.ready.then(() => true)")
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    checked = 0
    for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "strong"})["nodeIds"]:
        html = cdp.send("DOM.getOuterHTML", {"nodeId": node})["outerHTML"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        if fonts and any(letter in html for letter in "AB"):
            checked += 1
            assert len(fonts) == 1 and fonts[0]["isCustomFont"], (html, fonts)
    assert checked >= 2, "the page should show bold words with a capital A or B"


def test_ticking_both_local_judges_says_they_share_one_cpu(page, app_url):
    """Newcomer finding: nothing told a visitor that the two local judges run on the same CPU
    (so both ticked take about twice as long), or how they differ."""
    page.goto(app_url + "/compare")
    page.get_by_text("Who scores the replies").click()
    hint = page.locator("#judge-hint")
    _wait_for(lambda: "probability-weighted" in hint.inner_text(), 30, "how the judges differ")
    assert "Both local judges are ticked" not in hint.inner_text()
    tick(page, "judge/local/qwen2.5-coder-1.5b", True)
    tick(page, "judge-weighted/local/qwen2.5-coder-1.5b", True)
    _wait_for(lambda: "Both local judges are ticked" in hint.inner_text(), 30, "the warning")
    assert "same CPU" in hint.inner_text()
    shot(page, "judges-both-ticked")
    tick(page, "judge/local/qwen2.5-coder-1.5b", False)
    _wait_for(lambda: "Both local judges" not in hint.inner_text(), 30, "the warning to go")
