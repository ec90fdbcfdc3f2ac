"""Resonance: embedding cosine, the judge in both orders, ranking the bank, metrics, the CLI."""

from __future__ import annotations

import csv
import json
import zlib

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import f1_score

import cli
from core.stories import load_stories
from scorers import resonance as res
from scorers.resonance import EmbeddingResonance, JudgeResonance, Pair, cosine_to_scale
from studies import resonance as rs
from tests.stories.test_stories import FakeJudge

A = "I failed my driving test twice and felt like an idiot, but passed on the third try."
B = "My mother got sick last winter; I moved back home to look after her."


def similarity(event: int, emotion: int, moral: int, empathy: int) -> str:
    return json.dumps(
        {"rationale": "r", "event": event, "emotion": emotion, "moral": moral, "empathy": empathy}
    )


class WordEncoder:
    """A fake encoder: bag of words over a tiny vocabulary, twice (two 'poolings')."""

    VOCAB = ("test", "failed", "mother", "sick", "home", "passed", "dog", "lost")

    def encode(self, texts):
        rows = []
        for text in texts:
            words = text.lower().replace(",", " ").replace(".", " ").split()
            vec = [float(sum(w.startswith(v) for w in words)) for v in self.VOCAB]
            rows.append(vec + [9.0] * len(vec))  # the second pooling must be ignored
        return np.asarray(rows, dtype=np.float32)


class HashEncoder:
    """A fake encoder: hashed bag of words (every word counts), twice."""

    def encode(self, texts):
        rows = np.zeros((len(texts), 128), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                rows[i, zlib.crc32(word.encode()) % 64] += 1.0
        rows[:, 64:] = 9.0
        return rows


def test_cosine_mapping_is_monotone_and_clipped():
    values = [cosine_to_scale(c) for c in np.linspace(-1, 1, 21)]
    assert values == sorted(values) and values[0] == 1.0 and values[-1] == 4.0
    assert cosine_to_scale(0.0) == 1.0 and cosine_to_scale(2 / 3) == 3.0


def test_embedding_uses_the_story_cosine_and_aspect_texts_when_given():
    method = EmbeddingResonance(WordEncoder())
    same, apart, mixed = method.rate_pairs(
        [
            Pair(A, A),
            Pair(A, B),
            Pair(A, B, {"event": ("lost dog", "lost dog"), "moral": ("test", "mother")}),
        ]
    )
    assert same.values == dict.fromkeys(res.ASPECTS, 4.0)
    assert apart.values == dict.fromkeys(res.ASPECTS, 1.0)  # no shared words: cosine 0
    assert mixed.values["event"] == 4.0 and mixed.values["moral"] == 1.0
    assert mixed.values["emotion"] == mixed.values["empathy"] == 1.0
    assert same.order_gap is None and same.status == "ok"


def test_embedding_marks_bad_pairs_unscored_and_keeps_the_rest():
    ratings = EmbeddingResonance(WordEncoder()).rate_pairs(
        [Pair("", B), Pair(A, "x" * 7_000), Pair(A, A)]
    )
    assert [r.status for r in ratings] == ["unscored", "unscored", "ok"]
    assert "first story is empty" in ratings[0].reason and "6,000" in ratings[1].reason


def _order_judge(first_is_a: str, first_is_b: str) -> FakeJudge:
    """Answers ``first_is_a`` when story A is quoted first, else ``first_is_b``."""
    return FakeJudge(
        answer=lambda msg, _: (
            first_is_a if msg.index("driving") < msg.index("mother") else first_is_b
        )
    )


def test_judge_rates_both_orders_averages_them_and_reports_the_gap():
    responder = _order_judge(similarity(4, 3, 2, 4), similarity(2, 3, 2, 2))
    rating = JudgeResonance(responder).rate_pair(Pair(A, B))
    assert len(responder.prompts) == 2
    first, second = (p for p, _ in responder.prompts)
    assert first.index("driving") < first.index("mother")
    assert second.index("mother") < second.index("driving")
    assert rating.values == {"event": 3.0, "emotion": 3.0, "moral": 2.0, "empathy": 3.0}
    assert rating.order_gap == pytest.approx(1.0) and rating.position_bias
    assert rating.orders[0]["event"] == 4 and rating.orders[1]["event"] == 2
    assert responder.prompts[0][1].schema()["properties"]["event"]["enum"] == [1, 2, 3, 4]


def test_a_small_order_gap_gives_no_warning_and_one_bad_order_is_unscored():
    steady = JudgeResonance(_order_judge(similarity(3, 3, 3, 3), similarity(3, 3, 2, 3)))
    rating = steady.rate_pair(Pair(A, B))
    assert rating.order_gap == pytest.approx(0.25) and not rating.position_bias
    opposed = JudgeResonance(_order_judge(similarity(4, 1, 2, 2), similarity(2, 3, 2, 2)))
    assert opposed.rate_pair(Pair(A, B)).order_gap == pytest.approx(1.0)  # |±2| both count
    broken = JudgeResonance(_order_judge(similarity(3, 3, 3, 3), "no idea"))
    rating = broken.rate_pair(Pair(A, B))
    assert rating.status == "unscored" and "B then A" in rating.reason and "no idea" in rating.raw


def test_pair_metrics_match_scipy_and_sklearn_with_bins_at_2_5():
    rng = np.random.default_rng(0)
    labels = rng.integers(1, 5, 30).astype(float)
    predicted = np.clip(labels + rng.normal(0, 0.8, 30), 1, 4)
    m = rs.pair_metrics(predicted, labels)
    assert m["pearson_r"] == pytest.approx(stats.pearsonr(predicted, labels).statistic)
    assert m["spearman_rho"] == pytest.approx(stats.spearmanr(predicted, labels).statistic)
    assert m["mse"] == pytest.approx(np.mean((predicted - labels) ** 2))
    assert m["macro_f1"] == pytest.approx(
        f1_score(labels >= 2.5, predicted >= 2.5, average="macro")
    )
    # 2.4 and 2.6 fall on different sides of the bin edge: 2 is low, 3 is high
    assert rs.pair_metrics([2.4, 2.6, 1, 4], [2, 3, 1, 4])["macro_f1"] == 1.0
    assert rs.pair_metrics([2.6, 2.4, 1, 4], [2, 3, 1, 4])["macro_f1"] < 1.0


def test_find_resonant_ranks_the_bank_and_excludes_the_query():
    bank = load_stories()
    query = bank[5]
    fake = EmbeddingResonance(HashEncoder())
    matches = rs.find_resonant(query.story, fake, top=3, embedding=fake)
    assert matches[0].story.story_id == query.story_id  # itself is the closest
    assert matches[0].rating.value("empathy") == 4.0
    others = rs.find_resonant(query.story, fake, top=3, exclude_id=query.story_id, embedding=fake)
    assert query.story_id not in [m.story.story_id for m in others]
    empathy = [m.rating.value("empathy") for m in others]
    assert empathy == sorted(empathy, reverse=True) and len(others) == 3


def test_find_resonant_with_a_judge_reranks_the_shortlist():
    judge = JudgeResonance(FakeJudge(answer=lambda msg, _: similarity(2, 2, 2, 2)))
    matches = rs.find_resonant(
        A, judge, top=2, shortlist=3, embedding=EmbeddingResonance(HashEncoder())
    )
    assert len(matches) == 2 and len(judge.responder.prompts) == 6  # 3 candidates × 2 orders
    assert all(m.rating.order_gap == 0 for m in matches)


def test_a_judge_that_rates_the_shortlist_differently_decides_its_order():
    embedding = EmbeddingResonance(HashEncoder())
    by_embedding = rs.find_resonant(A, embedding, top=3, embedding=embedding)
    favourite = by_embedding[-1].story  # the embedding's third choice
    mark = favourite.story[:60]

    def answer(prompt: str, _system: str) -> str:
        return similarity(4, 4, 4, 4) if mark in prompt else similarity(1, 1, 1, 1)

    judge = JudgeResonance(FakeJudge(answer=answer))
    matches = rs.find_resonant(A, judge, top=3, shortlist=3, embedding=embedding)
    assert matches[0].story.story_id == favourite.story_id
    assert matches[0].rating.value("empathy") == 4.0
    assert {m.story.story_id for m in matches} == {m.story.story_id for m in by_embedding}


def test_cli_resonance_with_labels_prints_metrics(tmp_path, monkeypatch, capsys):
    responder = _order_judge(similarity(4, 3, 2, 4), similarity(2, 3, 2, 2))
    method = JudgeResonance(responder)
    monkeypatch.setattr("commands.resonance._method", lambda *_: method)
    source = tmp_path / "pairs.csv"
    rows = [
        {"story_a": A, "story_b": B, "human_empathy": "3"},
        {"story_a": A, "story_b": "", "human_empathy": "1"},
        {"story_a": A + " again", "story_b": B + " again", "human_empathy": "4"},
    ]
    with source.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    out = tmp_path / "out.csv"
    assert cli.main(["resonance", "--method", "judge/x/y", "--input", str(source),
                     "--output", str(out)]) == 0  # fmt: skip
    rated = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [r["status"] for r in rated] == ["ok", "unscored", "ok"]
    assert rated[0]["order_gap"] == "1.000" and rated[0]["position_bias"] == "yes"
    assert rated[1]["empathy"] == "" and "second story is empty" in rated[1]["reason"]
    captured = capsys.readouterr()
    (metric,) = [json.loads(x) for x in captured.out.splitlines()]
    assert metric["aspect"] == "empathy" and metric["n"] == 2
    assert "order gap: mean 1.000 over 2 pairs" in captured.err


def test_cli_resonance_embedding_and_bad_input(tmp_path):
    pairs = tmp_path / "pairs.csv"
    assert cli.main(["resonance-pairs", "--pairs", "3", "--seed", "1", "--output", str(pairs)]) == 0
    rows = list(csv.DictReader(pairs.open(encoding="utf-8")))
    assert len(rows) == 3 and {"story_a", "story_b", "event_a", "moral_b"} <= set(rows[0])
    out = tmp_path / "out.csv"
    assert cli.main(["resonance", "--input", str(pairs), "--output", str(out)]) == 0
    rated = list(csv.DictReader(out.open(encoding="utf-8")))
    assert all(1 <= float(r["empathy"]) <= 4 for r in rated) and "order_gap" not in rated[0]
    bad = tmp_path / "bad.csv"
    bad.write_text("story,x\nhello,1\n", encoding="utf-8")
    assert cli.main(["resonance", "--input", str(bad), "--output", str(out)]) == 2
    assert cli.main(["resonance", "--method", "bert-head", "--input", str(pairs),
                     "--output", str(out)]) == 2  # fmt: skip


@pytest.mark.slow
def test_local_judge_rates_a_tiny_pair_in_both_orders():
    method = res.get_resonance_method("judge/local/qwen2.5-coder-1.5b")
    rating = method.rate_pair(Pair("My dog died.", "I lost my cat last year."))
    assert rating.ok, rating.reason
    assert all(1 <= rating.value(a) <= 4 for a in res.ASPECTS) and rating.order_gap >= 0
