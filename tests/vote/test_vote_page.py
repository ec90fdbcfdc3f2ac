"""Vote page driven headlessly: make a round, two sessions vote, reveal, results."""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from gradio_client import Client

from core.questions import load_questions
from core.visitors import ensure_visitor
from responders import registry
from studies.votes import rounds as votes_module
from studies.votes.log import VoteLog
from studies.votes.rounds import Entry, create_round, load_round
from tests.conftest import CHROMIUM, ScriptedResponder, browser_page

LOCAL = "local/qwen2.5-coder-1.5b"
NO_KEYS = ("", "", "", "")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    """Votes in a temporary folder; the local model replaced by a scripted one."""
    folder = tmp_path_factory.mktemp("votes")
    patch = pytest.MonkeyPatch()
    settings = dataclasses.replace(votes_module.SETTINGS, votes_dir=folder)
    patch.setattr(votes_module, "SETTINGS", settings)
    fake = ScriptedResponder(chunks=["That sounds ", "exhausting. I'm here with you."])
    patch.setitem(registry._CACHE, LOCAL, fake)
    yield folder
    patch.undo()


@pytest.fixture(scope="module")
def url(folder) -> Iterator[str]:
    from pages import vote

    page = vote.build()
    page.queue().launch(prevent_thread_lock=True, quiet=True, server_name="127.0.0.1")
    try:
        yield page.local_url
    finally:
        page.close()


def ballot(outputs: tuple) -> tuple[str, list[str], list[str]]:
    """The round header, the visible reply texts and the letters offered."""
    header, *rest = outputs
    boxes, most = rest[: votes_module.MAX_REPLIES], rest[votes_module.MAX_REPLIES]
    texts = [b["value"] for b in boxes if b.get("visible")]
    assert [b.get("label") for b in boxes if b.get("visible")] == [
        f"Reply {letter}" for letter in "ABCDEFGH"[: len(texts)]
    ]
    return header, texts, [choice[0] for choice in most["choices"]]


def test_make_a_round_vote_from_two_sessions_reveal_and_results(url, folder):
    question = load_questions()[3]
    teacher = Client(url, verbose=False)
    code, share, _voter, *shown = teacher.predict(
        question.choice_label, "", [LOCAL], ["study"], "", ["bert-head"], 11, 64, 0.7, "teacher",
        *NO_KEYS, api_name="/create_round",
    )  # fmt: skip
    assert code in share and "link below" in share
    from pages import vote

    asked = SimpleNamespace(
        headers={"host": "lab.example.org"}, url=SimpleNamespace(scheme="https")
    )
    box, qr = vote.round_link(code, asked)  # type: ignore[arg-type]
    assert box["value"] == f"https://lab.example.org/vote?round={code}" and box["visible"]
    assert "(data:image/png;base64," in qr  # the QR code of that link
    rnd = load_round(code, folder)
    assert sorted(rnd.sources) == ["human/counselchat", "scripted/fake"] and rnd.seed == 11
    assert question.question in shown[0]
    assert "counselchat" not in json.dumps(shown[:-1]).lower()  # sources hidden before the vote

    reveals = []
    for session, (most, least) in enumerate([("A", "B"), ("B", "A")]):
        student = Client(url, verbose=False)
        # A browser keeps the visitor id the server issued it; a client sends it back.
        voter = ensure_visitor(None)
        notice, kept_voter, *shown_now = student.predict(
            code.lower(), voter, api_name="/open_round"
        )
        assert kept_voter == voter  # the id the browser keeps is the one it sent
        header, texts, letters = ballot(tuple(shown_now))
        assert notice == ""
        assert letters == ["A", "B"]
        assert sorted(texts) == sorted(e.text for e in rnd.entries) and "already" not in header
        reason = "=HYPERLINK(1)" if session == 0 else "kind"
        reveals.append(student.predict(voter, most, least, reason, api_name="/vote"))
        again = student.predict(voter, least, most, "", api_name="/vote")
        # A second press keeps the reveal on screen, with the first vote (issue 30, newcomer walk).
        assert "already voted" in again and again.endswith(reveals[-1])
        header, _, _ = ballot(tuple(student.predict(code, voter, api_name="/open_round")[2:]))
        assert "already voted" in header
    for reveal in reveals:
        assert "Licensed therapist (CounselChat)" in reveal and "scripted/fake" in reveal
        assert "**most** empathetic" in reveal and "Empathy head" in reveal
        assert "unscored" not in reveal and "safety screen" in reveal
    rows = VoteLog(folder).read()
    assert len(rows) == 2 and {r["round"] for r in rows} == {code}
    assert rows[0]["voter"] != rows[1]["voter"] and rows[0]["reason"] == "=HYPERLINK(1)"

    chart, ranking, agreement, status, path = teacher.predict(code, api_name="/results")
    assert "2 sources" in status
    assert '<td class="lead lead-end">Licensed therapist (CounselChat)</td>' in ranking
    assert '<td class="lead lead-end">scripted/fake</td>' in ranking
    assert [t["name"] for t in json.loads(chart["plot"])["data"]] == [
        "least empathetic",
        "most empathetic",
    ]
    assert (
        '<td class="lead lead-end">Empathy head (MiniLM + trained head)</td>'
        '<td class="figure" data-label="votes">2</td>'
    ) in agreement
    with open(path, encoding="utf-8") as fh:
        assert fh.readline().strip() == "source,score,ci_low,ci_high,most_share,least_share,n"


#: A visitor id this server issued (what a browser keeps and sends back).
V1 = ensure_visitor(None)


def test_bad_votes_and_codes_are_clear_messages(url, folder):
    rnd = create_round("I feel alone.", [Entry("a/x", "one"), Entry("b/y", "two")], folder=folder)
    client = Client(url, verbose=False)
    # Every refusal stays beside its button as a lasting notice (no toast, no red badges).
    assert "no round ZZZZ" in client.predict("ZZZZ", V1, api_name="/open_round")[0]
    with pytest.raises(Exception, match=r"Open or create a round first|not in the list"):
        client.predict(V1, "A", "B", "", api_name="/vote")  # Gradio refuses a letter not offered
    client.predict(rnd.code, V1, api_name="/open_round")
    assert "must be different" in client.predict(V1, "A", "A", "", api_name="/vote")
    _code, share, *_ = client.predict(
        None, "A message nobody bundled.", [LOCAL], ["study"], "", [], None, 64, 0.7, V1,
        *NO_KEYS, api_name="/create_round",
    )  # fmt: skip
    assert share.startswith("⚠️") and "at least two replies" in share


def test_a_keyless_round_has_four_replies_a_teachers_among_them(folder):
    """The local model three ways, the therapist, and a pasted reply: five, no key needed."""
    from studies.votes.setup import make_round

    question = load_questions()[3]
    rnd, problems = make_round(
        question.question,
        [LOCAL],
        strategies=["study", "chain-of-empathy", "reader-persona"],
        teacher_replies="Label: blunt\nJust get on with it.",
        folder=folder,
        max_tokens=64,
    )
    assert not problems and len(rnd.entries) == 5
    assert sorted(rnd.sources) == [
        "human/counselchat",
        "scripted/fake#chain-of-empathy",
        "scripted/fake#reader-persona",
        "scripted/fake#study",
        "teacher/blunt",
    ]


def test_a_shared_link_opens_its_round(folder):
    from pages import vote

    rnd = create_round("I feel alone.", [Entry("a/x", "one"), Entry("b/y", "two")], folder=folder)
    request = SimpleNamespace(query_params={"round": rnd.code.lower()})
    code, voter, current, header, *_ = vote.on_load("", request)  # type: ignore[arg-type]
    assert code == current == rnd.code and voter and f"Round {rnd.code}" in header
    skipped = vote.on_load("", SimpleNamespace(query_params={}))  # type: ignore[arg-type]
    assert len(skipped) == 4 + votes_module.MAX_REPLIES + 3


# Newcomer findings on the Make button and the reply boxes.

THREE_WAYS = ["study", "chain-of-empathy", "reader-persona"]


def making(url: str, message: str):  # type: ignore[no-untyped-def]
    """Start making a round of the local model's three ways (no therapist: not bundled)."""
    return Client(url, verbose=False).submit(
        None, message, [LOCAL], THREE_WAYS, "", [], 5, 64, 0.7, "teacher",
        *NO_KEYS, api_name="/create_round",
    )  # fmt: skip


def test_the_bar_says_which_reply_and_for_how_long_while_the_model_writes(url, monkeypatch):
    """A reply takes minutes on 2 cores: the bar names the reply under way and moves every
    second with its time (it used to change only when a reply was finished)."""
    # 2.8 s a reply: the client polls the bar, and at 1.4 s a reply CI once saw no poll land
    # inside the second reply (2026-11-27).
    slow = ScriptedResponder(chunks=["I hear ", "you. ", "That is ", "hard."], pause_s=0.7)
    monkeypatch.setitem(registry._CACHE, LOCAL, slow)
    job = making(url, "Nobody calls me any more.")
    seen: list[tuple[int | None, int | None, str]] = []
    while not job.done():
        for unit in job.status().progress_data or []:
            seen.append((unit.index, unit.length, unit.desc or ""))
        time.sleep(0.1)
    assert "Round code" in job.result()[1]
    timed = {
        desc
        for _, _, desc in seen
        if re.fullmatch(r"writing reply [123] of 3(, [0-9]+ words)? · [1-9] s", desc)
    }
    assert timed, f"no step was shown with its time so far: {sorted(set(seen))}"
    steps = {(i, n, d.split(" · ")[0].split(",")[0]) for i, n, d in seen}
    assert (1, 3, "writing reply 2 of 3") in steps
    assert any(re.search(r"of 3, [1-9] words · ", d) for _, _, d in seen)  # news mid-reply


def test_stop_ends_the_making_and_saves_no_round(url, folder, monkeypatch):
    """Stop (here the client's cancel, which Stop's event does too) ends the making once the
    reply under way is written: no later reply is asked for and no round is saved."""
    from pages import vote

    page = vote.build()
    make = next(d for d in page.config["dependencies"] if d.get("api_name") == "create_round")
    assert page.fns[make["id"]].tracks_progress  # Gradio hands the handler its progress bar
    stops = [d for d in page.config["dependencies"] if make["id"] in d["cancels"]]
    assert stops, "Stop must cancel the making itself, not the step after it"
    # 4 s a reply: the cancel must land while the first is still being written (at 1.6 s a
    # loaded CI machine let the first finish and the second begin before it landed)
    slow = ScriptedResponder(chunks=["Stay ", "with ", "it, ", "please."], pause_s=1.0)
    monkeypatch.setitem(registry._CACHE, LOCAL, slow)
    before = sorted(p.name for p in (folder / "rounds").glob("*.json"))
    job = making(url, "I can't stop worrying.")
    while not (job.status().progress_data or job.done()):
        time.sleep(0.05)
    job.cancel()
    time.sleep(6)  # a reply takes 4 s: without a real stop the second is asked for
    assert len(slow.calls) == 1
    assert sorted(p.name for p in (folder / "rounds").glob("*.json")) == before


@pytest.mark.slow
@pytest.mark.parametrize("width", [390, 1280])
def test_a_long_reply_is_shown_whole_on_a_phone_and_a_desktop(url, folder, width):
    """A read-only box cannot be scrolled by touch: each reply box grows to its whole text
    (it stopped at 24 lines, cutting a long reply off on a 390 px phone)."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed here")

    paragraph = "Moving somewhere new can make everything feel unfamiliar at once. " * 4
    long = "\n\n".join(f"Part {i}: {paragraph}" for i in range(1, 9)) + "\n\nTHE LAST LINE."
    entries = [Entry("a/x", long), Entry("b/y", "A short reply.")]
    rnd = create_round("I feel so alone since my move.", entries, folder=folder)
    with browser_page(width, 844) as tab:
        tab.goto(f"{url}?round={rnd.code}")
        tab.get_by_text(f"Round {rnd.code}").wait_for(timeout=30_000)
        tab.wait_for_timeout(500)
        measure = "t => [t.value.slice(-14), t.scrollHeight, t.clientHeight]"
        boxes = [tab.get_by_label(f"Reply {letter}").evaluate(measure) for letter in "AB"]
    assert sorted(b[0] for b in boxes) == ["A short reply.", "THE LAST LINE."]
    for end, full, shown in boxes:
        assert full <= shown + 2, f"the reply ending {end!r} shows {shown} of {full} px"
