"""Blind votes: rounds, the vote log under load, the ranking and its intervals."""

from __future__ import annotations

import csv
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from config import ROOT
from core.csvlog import CsvLogError
from core.textinput import InputError, clean_text
from studies.votes.log import FIELDS, AlreadyVoted, VoteLog, cast_vote, read_votes
from studies.votes.rounds import Entry, ballot, create_round, list_rounds, load_round, save_round
from studies.votes.tally import VoteDataError, parse_votes, scorer_agreement, summarize
from tests.split_writes import at_once

TRUE_ORDER = ["model/best", "model/good", "model/poor", "model/worst"]
INJECTIONS = [
    '=HYPERLINK("http://evil.example","click")',
    "+1+1",
    "-2+3",
    "@SUM(A1:A9)",
    "\tstarts with a tab",
    "x\tthen a tab",
    "＝1+1 (full-width)",
    "'already quoted",
    'quotes " and, commas\nand a newline',
    "שלום — مرحبا — 你好 — 👩‍👩‍👧 — e\u0301",
]


def make_round(folder, n: int = 4, seed: int = 7):
    entries = [Entry(f"src/{i}", f"reply number {i}", {"temperature": 0.7}) for i in range(n)]
    return create_round("I can't sleep since the move.", entries, seed=seed, folder=folder)


def letter_of(rnd, voter: str, source: str) -> str:
    return next(letter for letter, s in ballot(rnd, voter) if s == source)


def test_round_is_saved_and_survives_a_restart(tmp_path):
    rnd = make_round(tmp_path)
    assert len(rnd.code) == 4 and (tmp_path / "rounds" / f"{rnd.code}.json").is_file()
    again = load_round(f"?round={rnd.code.lower()}", tmp_path)
    assert again == rnd and again.entries[0].settings == {"temperature": 0.7}
    assert [r.code for r in list_rounds(tmp_path)] == [rnd.code]
    save_round(
        type(rnd)(**{**rnd.__dict__, "scores": {"bert-head": {"src/0": {"overall": 2.0}}}}),
        tmp_path,
    )
    assert load_round(rnd.code, tmp_path).scores["bert-head"]["src/0"]["overall"] == 2.0


def test_orders_differ_between_voters_but_not_within_one(tmp_path):
    rnd = make_round(tmp_path, n=5)
    orders = {tuple(s for _, s in ballot(rnd, f"voter-{i}")) for i in range(30)}
    assert len(orders) > 5
    assert ballot(rnd, "v") == ballot(load_round(rnd.code, tmp_path), "v")
    assert [letter for letter, _ in ballot(rnd, "v")] == list("ABCDE")


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([Entry("a", "one")], "2 to 8 replies"),
        ([Entry("a", "one"), Entry("a", "two")], "its own source"),
        ([Entry("a|b", "one"), Entry("c", "two")], "its own source"),
        ([Entry("a", "one"), Entry("b", "  \x00 ")], "reply from b is empty"),
    ],
)
def test_bad_rounds_are_refused_clearly(tmp_path, entries, message):
    with pytest.raises(InputError, match=message):
        create_round("a message", entries, folder=tmp_path)
    with pytest.raises(InputError, match="no round"):
        load_round("ZZZZ", tmp_path)
    with pytest.raises(InputError, match="not a round code"):
        load_round("../../etc/passwd", tmp_path)


def test_a_vote_records_sources_in_the_order_shown(tmp_path):
    rnd = make_round(tmp_path)
    order = [s for _, s in ballot(rnd, "s1")]
    row = cast_vote(rnd, "s1", "B", "D", "B listens", folder=tmp_path)
    assert row["shown"] == "|".join(order) and row["most"] == order[1]
    assert row["least"] == order[3]
    (stored,) = VoteLog(tmp_path).read()
    assert list(stored) == list(FIELDS) and stored["reason"] == "B listens"
    assert stored["round"] == rnd.code and stored["app_version"]


def test_second_vote_from_one_session_is_refused_even_at_once(tmp_path, monkeypatch):
    rnd = make_round(tmp_path)
    slow_read = VoteLog.read

    def read_then_pause(self):  # widen the gap between "has this session voted?" and the append
        rows = slow_read(self)
        time.sleep(0.05)
        return rows

    monkeypatch.setattr(VoteLog, "read", read_then_pause)
    cast_vote(rnd, "s1", "A", "B", folder=tmp_path)
    with pytest.raises(AlreadyVoted, match="already voted"):
        cast_vote(rnd, "s1", "C", "D", folder=tmp_path)
    outcomes: list[str] = []
    start = threading.Barrier(8)

    def vote() -> None:
        start.wait()
        try:
            cast_vote(rnd, "s2", "A", "B", folder=tmp_path)
            outcomes.append("ok")
        except AlreadyVoted:
            outcomes.append("refused")

    threads = [threading.Thread(target=vote) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok"] + ["refused"] * 7
    assert len(VoteLog(tmp_path).read()) == 2
    cast_vote(make_round(tmp_path), "s1", "A", "B", folder=tmp_path)  # another round is fine


@pytest.mark.parametrize(
    ("most", "least", "message"),
    [("A", "A", "must be different"), ("A", "", "Pick the most"), ("Z", "A", "Pick the most")],
)
def test_bad_picks_are_refused(tmp_path, most, least, message):
    with pytest.raises(InputError, match=message):
        cast_vote(make_round(tmp_path), "s1", most, least, folder=tmp_path)
    assert VoteLog(tmp_path).read() == []


def test_an_overlong_reason_is_refused_and_nothing_written(tmp_path):
    with pytest.raises(InputError, match="one or two sentences"):
        cast_vote(make_round(tmp_path), "s1", "A", "B", "x" * 5000, folder=tmp_path)
    assert not VoteLog(tmp_path).path.exists()


@pytest.mark.parametrize("reason", INJECTIONS)
def test_formula_reasons_round_trip_and_are_inert(tmp_path, reason):
    cast_vote(make_round(tmp_path), "s1", "A", "B", reason, folder=tmp_path)
    (row,) = VoteLog(tmp_path).read()
    assert row["reason"] == clean_text(reason, what="reason")  # trimmed, NFC, else unchanged
    with VoteLog(tmp_path).path.open(encoding="utf-8", newline="") as fh:
        raw = next(iter(csv.DictReader(fh)))
    assert not raw["reason"].startswith(("=", "+", "-", "@", "\t", "＝"))


def test_many_threads_vote_at_once_and_every_row_is_intact(tmp_path):
    rnd = make_round(tmp_path, n=5)

    def work(t: int) -> None:
        for i in range(15):
            cast_vote(rnd, f"t{t}-{i}", "A", "E", f"reason t{t}-{i} " + "y" * 1500, folder=tmp_path)

    assert at_once(work, 8) == []
    rows = VoteLog(tmp_path).read()
    assert sorted(r["voter"] for r in rows) == sorted(
        f"t{t}-{i}" for t in range(8) for i in range(15)
    )
    for row in rows:
        order = [s for _, s in ballot(rnd, row["voter"])]
        assert row["shown"] == "|".join(order) and (row["most"], row["least"]) == (
            order[0],
            order[4],
        )
        assert row["reason"] == f"reason {row['voter']} " + "y" * 1500


WRITER = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from studies.votes.rounds import load_round
from studies.votes.log import cast_vote
folder = Path({folder!r})
rnd = load_round({code!r}, folder)
for i in range(30):
    cast_vote(rnd, f"p{{sys.argv[1]}}-{{i}}", "B", "A", "z" * 1500 + sys.argv[1], folder=folder)
"""


def test_two_processes_and_threads_vote_at_once(tmp_path):
    rnd = make_round(tmp_path)
    script = WRITER.format(root=str(ROOT), folder=str(tmp_path), code=rnd.code)
    procs = [subprocess.Popen([sys.executable, "-c", script, str(p)]) for p in range(2)]
    threads = [
        threading.Thread(
            target=cast_vote, args=(rnd, f"t-{i}", "A", "B"), kwargs={"folder": tmp_path}
        )
        for i in range(20)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(p.wait(timeout=180) == 0 for p in procs)
    rows = VoteLog(tmp_path).read()
    assert len(rows) == 80
    by_process = [r for r in rows if r["voter"].startswith("p")]
    assert sorted(r["voter"] for r in by_process) == sorted(
        f"p{p}-{i}" for p in range(2) for i in range(30)
    )
    assert all(r["reason"] == "z" * 1500 + r["voter"][1] for r in by_process)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda t: t + 'a,b,"unterminated\n', r"line \d+"),
        (lambda t: t + "only,three,fields\r\n", r"line 4: 3 fields, expected 8"),
        (lambda t: t.replace("first", "fir\x00st"), "line 2: contains a NUL"),
    ],
    ids=["unterminated-quote", "short-row", "nul-byte"],
)
def test_damaged_log_names_the_bad_line(tmp_path, damage, message):
    rnd = make_round(tmp_path)
    cast_vote(rnd, "s1", "A", "B", "first", folder=tmp_path)
    cast_vote(rnd, "s2", "A", "B", "second", folder=tmp_path)
    path = VoteLog(tmp_path).path
    path.write_text(damage(path.read_text(encoding="utf-8")), encoding="utf-8", newline="")
    with pytest.raises(CsvLogError, match=message):
        read_votes(path)


def simulate(n_votes: int, seed: int) -> list[dict[str, str]]:
    """Best–worst votes from a known order: strengths 1.5, 0.5, -0.5, -1.5."""
    rng = np.random.default_rng(seed)
    strength = dict(zip(TRUE_ORDER, [1.5, 0.5, -0.5, -1.5], strict=True))
    rows = []
    for i in range(n_votes):
        shown = list(rng.permutation(TRUE_ORDER))
        weights = np.exp([strength[s] for s in shown])
        most = shown[rng.choice(len(shown), p=weights / weights.sum())]
        rest = [s for s in shown if s != most]
        weights = np.exp([-strength[s] for s in rest])
        least = rest[rng.choice(len(rest), p=weights / weights.sum())]
        rows.append(
            {"round": "R", "voter": f"v{i}", "shown": "|".join(shown), "most": most, "least": least}
        )
    return rows


def test_ranking_recovers_a_known_order_and_intervals_shrink():
    small = summarize(simulate(40, seed=1), resamples=200)
    large = summarize(simulate(600, seed=2), resamples=200)
    assert [r.source for r in large] == TRUE_ORDER
    assert all(r.ci_low <= r.score <= r.ci_high for r in large)
    small_width = np.mean([r.ci_high - r.ci_low for r in small])
    large_width = np.mean([r.ci_high - r.ci_low for r in large])
    assert large_width < 0.6 * small_width, (small_width, large_width)
    assert large[0].ci_low > large[-1].ci_high  # best and worst are told apart
    best = large[0]
    assert best.most_share > 0.4 and best.least_share < 0.1 and best.n == 600


def test_shares_and_counts():
    rows = [
        {"round": "R", "voter": "1", "shown": "a|b|c", "most": "a", "least": "c"},
        {"round": "R", "voter": "2", "shown": "c|a|b", "most": "a", "least": "b"},
        {"round": "S", "voter": "1", "shown": "a|b", "most": "b", "least": "a"},
    ]
    results = {r.source: r for r in summarize(rows, resamples=50)}
    assert (results["a"].most, results["a"].least, results["a"].n) == (2, 1, 3)
    assert results["a"].most_share == pytest.approx(2 / 3, abs=1e-4)
    assert results["c"].least_share == 0.5
    only_s = summarize(rows, "s", resamples=10)
    assert {r.source for r in only_s} == {"a", "b"} and only_s[0].source == "b"


def test_bad_survey_rows_are_named():
    rows = [
        {"round": "R", "voter": "1", "shown": "a|b", "most": "a", "least": "b"},
        {"round": "R", "voter": "2", "shown": "a|b", "most": "x", "least": "b"},
    ]
    with pytest.raises(VoteDataError, match="vote row 3: most 'x'"):
        parse_votes(rows)


def test_scorer_agreement(tmp_path):
    rnd = make_round(tmp_path, n=3)
    scores = {
        s: {"overall": x, "status": "ok"} for s, x in zip(rnd.sources, [3.0, 2.0, 1.0], strict=True)
    }
    rnd = type(rnd)(**{**rnd.__dict__, "scores": {"head": scores}})
    votes = parse_votes(
        [
            {
                "round": rnd.code,
                "voter": "1",
                "shown": "src/0|src/1|src/2",
                "most": "src/0",
                "least": "src/2",
            },
            {
                "round": rnd.code,
                "voter": "2",
                "shown": "src/2|src/1|src/0",
                "most": "src/1",
                "least": "src/2",
            },
        ]
    )
    (agreement,) = scorer_agreement(votes, {rnd.code: rnd})
    assert (agreement.scorer, agreement.votes) == ("head", 2)
    assert agreement.top_match == 0.5 and agreement.bottom_match == 1.0
    assert agreement.chance == pytest.approx(1 / 3, abs=1e-3)


class LengthScorer:
    """A fake scorer: longer replies score higher; or unavailable."""

    def __init__(self, scorer_id: str, reason: str | None = None) -> None:
        self.id, self.reason = scorer_id, reason

    def unavailable_reason(self) -> str | None:
        return self.reason

    def score_many(self, items):
        from scorers.base import Score

        return [Score.from_components(self.id, 1, 1, min(3, len(i.reply) / 5)) for i in items]


def test_scores_are_saved_with_the_round_and_unavailable_ones_say_why(tmp_path, monkeypatch):
    from scorers import registry as scorer_registry
    from studies.votes.setup import score_round

    fakes = {"length": LengthScorer("length"), "judge/x": LengthScorer("judge/x", "needs KEY")}
    monkeypatch.setattr(scorer_registry, "get_scorer", lambda sid, **_: fakes[sid])
    rnd = score_round(make_round(tmp_path, n=3), ["length", "judge/x"], folder=tmp_path)
    saved = load_round(rnd.code, tmp_path).scores
    assert saved["length"]["src/0"]["status"] == "ok" and saved["length"]["src/0"]["overall"] > 1
    assert saved["judge/x"]["src/1"] == {**saved["judge/x"]["src/1"], "status": "unscored"}
    assert "needs KEY" in saved["judge/x"]["src/1"]["reason"]
    cast_vote(
        rnd, "s1", letter_of(rnd, "s1", "src/0"), letter_of(rnd, "s1", "src/2"), folder=tmp_path
    )
    votes = parse_votes(VoteLog(tmp_path).read())
    (agreement,) = scorer_agreement(votes, {rnd.code: rnd})  # the unscored judge is left out
    assert agreement.scorer == "length" and agreement.votes == 1


def test_too_few_voters_read_as_too_few_not_as_a_settled_interval():
    """Two votes once showed "+1.52 to +1.52": now no interval until five voters."""
    from reports.votes import ranking_rows
    from studies.votes.tally import MIN_VOTERS

    def rows(n: int) -> list[dict[str, str]]:
        return [
            {"round": "R", "voter": f"v{i}", "shown": "a|b|c", "most": "a", "least": "c"}
            for i in range(n)
        ]

    few = ranking_rows(summarize(rows(2), resamples=50))
    assert all("not enough votes yet" in row[3] for row in few)
    enough = ranking_rows(summarize(rows(MIN_VOTERS + 1), resamples=50))
    assert all(" to " in row[3] and "not enough" not in row[3] for row in enough)


def test_least_empathetic_picks_move_the_ranking():
    """Same most-picks; who is picked least decides the order of the others."""
    from studies.votes.tally import parse_votes

    base = [{"round": "R", "voter": f"v{i}", "shown": "a|b|c", "most": "a"} for i in range(6)]
    least_c = {
        r.source: r.score for r in summarize([{**r, "least": "c"} for r in base], resamples=0)
    }
    least_b = {
        r.source: r.score for r in summarize([{**r, "least": "b"} for r in base], resamples=0)
    }
    assert least_c["b"] > least_c["c"] and least_b["c"] > least_b["b"]
    assert parse_votes([{**base[0], "least": "b"}])[0].least == "b"


def test_the_reveal_table_has_short_headers_and_names_its_scorers_below(tmp_path):
    """Issue 30: the reveal's headers were whole scorer names, squeezed one letter a line on
    a phone; they are short words now, the names in the note, the voter's pick third."""
    from dataclasses import replace

    from reports.vote_reveal import reveal_markdown
    from studies.votes.log import cast_vote

    rnd = create_round(
        "I can't sleep.", [Entry("a/x", "One."), Entry("b/y", "Two.")], folder=tmp_path
    )
    scores = {s: {"a/x": {"overall": 2.0}} for s in ("bert-head", "judge/local/qwen2.5-coder-1.5b")}
    rnd = replace(rnd, scores=scores)
    row = cast_vote(rnd, "v", "A", "B", "", folder=tmp_path)
    text = reveal_markdown(rnd, "v", row)
    header = next(line for line in text.splitlines() if line.startswith("| reply"))
    words = header.strip("| ").replace("|", " ").split()
    assert header.split(" | ")[:3] == ["| reply", "written by", "your vote"]
    assert max(len(w) for w in words) <= 7, header  # no long name squeezed into a column
    assert "Score 1: Empathy head (MiniLM + trained head); score 2: LLM judge" in text
    assert 'class="scroll-cue"' in text  # "swipe sideways", shown on a phone only


def test_the_reveal_credits_a_model_that_wrote_three_replies_once(tmp_path):
    """Issue 30: three replies by the local model put its credit line under the reveal three
    times (read as three identical judge lines); each credit is shown once, naming its replies."""
    from reports.vote_reveal import reveal_markdown
    from studies.votes.log import cast_vote

    model = "Qwen2.5-Coder-1.5B-Instruct (Apache-2.0 upstream), Q4_K_M, run locally"
    entries = [Entry(f"local/qwen#{s}", f"Reply {s}.", attribution=model) for s in "xyz"]
    entries.append(Entry("human/counselchat", "The therapist's.", attribution="Answer by Dr T"))
    rnd = create_round("I can't sleep.", entries, folder=tmp_path)
    row = cast_vote(rnd, "v", "A", "B", "", folder=tmp_path)
    text = reveal_markdown(rnd, "v", row)
    assert text.count(model) == 1 and text.count("Answer by Dr T") == 1
    therapist = next(letter for letter, s in ballot(rnd, "v") if s == "human/counselchat")
    assert f"<small>Reply {therapist}: Answer by Dr T</small>" in text
    qwen = ", ".join(sorted(set("ABCD") - {therapist}))
    assert f"<small>Replies {qwen}: {model}</small>" in text


def test_the_reveal_says_a_few_tenths_mean_little():
    """Cold walk 4: a student read 2.64 / 2.45 / 1.97 as a ranking the Trust page says the
    head cannot give."""
    from reports.vote_reveal import score_key

    said = score_key(["bert-head"])
    assert "a few tenths between two replies mean little" in said and "Trust page" in said
