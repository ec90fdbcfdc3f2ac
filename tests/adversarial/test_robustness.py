"""Robustness: changes per perturbation × scorer, the normalising defence, the CLI."""

from __future__ import annotations

import csv

import pytest

from perturbations.registry import resolve
from scorers.base import Score, ScoreItem, Scorer
from scorers.normalize import NormalizedScorer, normalize_text
from studies import robustness as rb
from tests.app.test_cli import run_cli


class CountingScorer(Scorer):
    """Scores by the share of ASCII letters: fragile to homoglyphs, blind to meaning."""

    id = "ascii-share"

    def _score_batch(self, items):
        out = []
        for item in items:
            letters = [c for c in item.reply if c.isalpha()]
            share = sum(c.isascii() for c in letters) / max(len(letters), 1)
            out.append(Score.from_components(self.id, 1 + 2 * share, 2, 2))
        return out


ITEMS = [
    ScoreItem("I'm sorry, that sounds so painful. Try to rest tonight.", "I can't sleep."),
    ScoreItem("You are not alone in this. Would talking to a friend help?", "I feel alone."),
]


def test_changes_and_summary_measure_what_moved():
    perturbations = resolve("greek-homoglyphs,sentence-reorder")
    variants = rb.perturb_items(ITEMS, perturbations, seed=0)
    changes = rb.score_changes(ITEMS, variants, [CountingScorer()])
    assert len(changes) == 4
    report = {(r["perturbation"], r["component"]): r for r in rb.summarise(changes)}
    homo = report[("greek-homoglyphs", "overall")]
    assert homo["mean_change"] < -0.05 and homo["mean_abs_change"] == pytest.approx(
        -homo["mean_change"]
    )
    assert report[("sentence-reorder", "overall")]["mean_abs_change"] == 0.0
    assert report[("greek-homoglyphs", "emotional")]["mean_change"] == 0.0
    assert homo["n"] == 2 and homo["unscored"] == 0


def test_normalising_defence_undoes_cheap_attacks():
    text = ITEMS[0].reply
    for pid in ("greek-homoglyphs", "invisible-chars"):
        assert normalize_text(resolve(pid)[0](text, seed=0, intensity=1.0).text) == text
    for pid in ("leetspeak", "punctuation-repeat"):  # case and one mark may differ
        variant = normalize_text(resolve(pid)[0](text, seed=0, intensity=1.0).text)
        assert variant.lower().replace("!", ".") == text.lower()
    guarded = NormalizedScorer(CountingScorer())
    variant = resolve("greek-homoglyphs")[0](text, seed=0, intensity=1.0)
    assert guarded.score(variant.text).overall == pytest.approx(guarded.score(text).overall)
    assert guarded.id == "ascii-share+normalize"


def test_lab_gives_every_perturbation_and_scorer():
    originals, rows = rb.perturb_one(
        ITEMS[0].reply, ITEMS[0].message, resolve("all"), [CountingScorer()], seed=2
    )
    assert set(originals) == {"ascii-share"} and len(rows) == 12
    assert all(set(r.changes) == {"ascii-share"} for r in rows)
    assert {r.variant.seed for r in rows} == {2}


def test_empty_variants_are_unscored_not_counted():
    changes = rb.score_changes(
        [ScoreItem("I'm so sorry. That sounds hard.")],
        rb.perturb_items([ScoreItem("I'm so sorry. That sounds hard.")], resolve("strip-empathy")),
        [CountingScorer()],
    )
    (row,) = [r for r in rb.summarise(changes) if r["component"] == "overall"]
    assert row["n"] == 0 and row["unscored"] == 1


@pytest.mark.slow
def test_cli_perturb_and_robustness(tmp_path):
    src = tmp_path / "in.csv"
    with src.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["message", "reply"])
        writer.writeheader()
        writer.writerows({"message": i.message, "reply": i.reply} for i in ITEMS)
    out = tmp_path / "variants.csv"
    result = run_cli(
        "perturb",
        "--input",
        str(src),
        "--perturbations",
        "all",
        "--seed",
        "0",
        "--output",
        str(out),
        "--rewriter",
        "none",
    )
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 24 and {"perturbation", "text", "method", "seed", "reply"} <= set(rows[0])

    report = tmp_path / "report.csv"
    result = run_cli(
        "robustness",
        "--input",
        str(src),
        "--scorers",
        "bert-head,bert-head+normalize",
        "--seed",
        "0",
        "--output",
        str(report),
    )
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(report.open(encoding="utf-8")))
    assert len(rows) == 12 * 2 * 4
    assert {r["scorer"] for r in rows} == {"bert-head", "bert-head+normalize"}
    assert "judge-injection" in result.stdout


def test_the_report_says_a_rule_shortening_may_fall_and_an_llm_one_should_hold():
    before, after = Score.from_components("s", 2, 2, 2), Score.from_components("s", 2, 1, 2)
    rule = rb.summarise([rb.Change(0, "shortened", "s", before, after, "rule (no LLM rewriter)")])
    llm = rb.summarise([rb.Change(0, "shortened", "s", before, after, "llm:local/x")])
    assert rule[0]["expected"].startswith("fall allowed") and llm[0]["expected"] == "hold"


class TurnCounter(Scorer):
    """Scores a reply by how many turns came before it (to see the conversation arrive)."""

    id = "turns"

    def _score_batch(self, items):
        return [Score.from_components(self.id, 1 + min(len(i.history), 2), 1, 1) for i in items]


def test_a_lab_reply_in_a_conversation_is_perturbed_as_its_next_turn():
    from core.conversation import parse_conversation

    conv = parse_conversation("Seeker: I lost my job.\nSupporter: Oh no.\nSeeker: I'm scared.")
    originals, rows = rb.perturb_one(
        "That sounds frightening.",
        conv.message,
        resolve("greek-homoglyphs"),
        [TurnCounter()],
        history=conv.history,
    )
    assert originals["turns"].cognitive == 3  # two earlier turns reached the scorer
    assert rows[0].changes["turns"].after.cognitive == 3  # and the variant kept them
