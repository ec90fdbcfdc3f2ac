"""Head speed (issue 20): packed encoder passes, one encoder call per batch, BLAS threads."""

from __future__ import annotations

import numpy as np
import pytest

from scorers.base import ScoreItem
from scorers.bert_head import packing
from scorers.bert_head.encoder import Encoder, default_encoder_path
from scorers.bert_head.features import FeatureRecipe, pool_sentences, split_sentences
from scorers.bert_head.head import load_head

MESSAGE = "My dad died two weeks ago and I have exams next week. I can't focus at all."
REPLIES = [
    "I'm so sorry. Losing your dad this suddenly is a lot to carry. Would it help to talk?",
    "Exams matter. Stop dwelling on it and study harder.",
    "We can look at your study plan together, one subject at a time. " * 40,  # 3 windows
    "?!",
    "Okay.",
]


@pytest.fixture(scope="module")
def encoders() -> tuple[Encoder, Encoder]:
    """(packed, padded) fresh encoders with no disk cache."""
    path = default_encoder_path()
    return Encoder(path, "packed", layout="packed"), Encoder(path, "padded", layout="padded")


def test_pack_rows_places_every_sequence_once_within_the_width():
    lengths = [7, 3, 250, 9, 1, 40, 300, 12, 12, 5]
    rows = packing.pack_rows(lengths, width=256)
    assert sorted(i for row in rows for i in row) == list(range(len(lengths)))
    assert all(sum(lengths[i] for i in row) <= 256 for row in rows if len(row) > 1)
    assert len(rows) == 3  # 300 alone; 250 + 5 + 1; the rest share one row
    assert packing.layout(lengths, pack=False) == [[i] for i in (6, 2, 5, 7, 8, 3, 0, 9, 1, 4)]


def test_packed_vectors_match_padded_ones_and_take_fewer_rows(encoders, monkeypatch):
    packed, padded = encoders
    texts = [*REPLIES, *split_sentences(REPLIES[0]), MESSAGE]
    rows: dict[str, int] = {"packed": 0, "padded": 0}
    names = {id(packed.model): "packed", id(padded.model): "padded"}
    forward = packing._forward

    def spy(model, batch, pad_id, width=0):
        rows[names[id(model)]] += len(batch)
        return forward(model, batch, pad_id, width)

    monkeypatch.setattr(packing, "_forward", spy)
    a, b = packed.encode(texts), padded.encode(texts)
    assert a.shape == b.shape == (len(texts), packed.dim)
    assert np.abs(a - b).max() < 1e-5
    assert np.abs(a[0] - a[1]).max() > 1e-2  # different texts still differ
    assert rows["packed"] < rows["padded"] == len(texts) + 2  # the long reply has 3 windows


def test_a_batch_reaches_the_encoder_in_one_call_with_the_same_features(encoders, monkeypatch):
    packed, _ = encoders
    packed._cache.clear()
    items = [ScoreItem(r, MESSAGE) for r in REPLIES] + [ScoreItem(REPLIES[0])]
    recipe = FeatureRecipe(pooling="sentences", interaction=True, use_message=True)
    calls = []
    encode = packed.encode
    monkeypatch.setattr(packed, "encode", lambda texts: calls.append(texts) or encode(texts))
    features = recipe.build(packed, items)
    assert len(calls) == 1
    # The same features from separate calls, as the head read them before issue 20.
    packed._cache.clear()
    sentences = [split_sentences(i.reply) for i in items]
    replies = encode([i.reply for i in items])
    flat = encode([s for group in sentences for s in group])
    message = encode([i.message or "" for i in items])
    cos = (replies * message).sum(1) / (
        np.linalg.norm(replies, axis=1) * np.linalg.norm(message, axis=1) + 1e-9
    )
    expected = np.hstack(
        [
            replies,
            *pool_sentences(flat, sentences),
            message,
            replies * message,
            np.abs(replies - message),
            cos[:, None],
        ]
    )
    assert features.shape == expected.shape
    assert np.abs(features - expected).max() < 1e-5


def test_shipped_head_scores_the_same_packed_or_padded(encoders):
    packed, padded = encoders
    head = load_head()
    items = [ScoreItem(r, MESSAGE) for r in REPLIES]
    original = head.encoder
    try:
        scores = {}
        for encoder in (packed, padded):
            encoder._cache.clear()
            head.encoder = encoder
            scores[encoder.name] = [s.components() for s in head.score_many(items)]
    finally:
        head.encoder = original
    for a, b in zip(scores["packed"], scores["padded"], strict=True):
        for name, value in a.items():
            assert value == pytest.approx(b[name], abs=1e-4)


def test_blas_runs_on_one_thread_inside_the_head_block_only():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from scorers.bert_head.threads import one_blas_thread

    def blas_threads() -> list[int]:
        return [
            i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"
        ]

    before = blas_threads()
    with one_blas_thread():
        assert all(n == 1 for n in blas_threads())
    assert blas_threads() == before


def test_bucketed_vectors_match_padded_ones_and_never_move_with_batch_mates(encoders):
    """Issue 33: each text in a row of its own, padded to its length rounded up, sharing a
    pass only with texts of that width, gets the padded layout's vectors, and on ONNX
    Runtime (the app's) exactly the same bits whatever else is encoded beside it."""
    _, padded = encoders
    path = default_encoder_path()
    texts = [*REPLIES, *split_sentences(REPLIES[0]), MESSAGE]
    bucketed = Encoder(path, "bucketed", runtime="onnx", layout="bucketed")
    together = bucketed.encode(texts)
    assert np.abs(together - padded.encode(texts)).max() < 1e-5
    for k, text in enumerate(texts):
        bucketed._cache.clear()
        assert np.array_equal(bucketed.encode([text])[0], together[k]), text


def test_auto_packs_a_small_call_in_one_pass_and_buckets_a_large_one(monkeypatch):
    """A pass costs about 2 ms on 2 cores: a reply's few sentences go in one packed pass;
    a batch's hundreds of texts are bucketed (attention across long packed rows cost more)."""
    encoder = Encoder(default_encoder_path(), "auto", runtime="onnx")
    assert encoder.layout == "auto"  # the default
    passes: list[int] = []
    forward = packing._forward

    def spy(model, batch, pad_id, width=0):
        passes.append(len(batch))
        return forward(model, batch, pad_id, width)

    monkeypatch.setattr(packing, "_forward", spy)
    encoder.encode([*split_sentences(REPLIES[0]), MESSAGE])
    assert len(passes) == 1
    passes.clear()
    many = [f"Sentence {k} about the day that went wrong at work again." for k in range(60)]
    encoder.encode([*many, REPLIES[2]])
    assert len(passes) >= 2 and max(passes) > 1  # bucketed: the long windows pass apart


def test_buckets_hold_one_width_each_within_the_token_budget():
    lengths = [3, 17, 5, 20, 40, 16, 300]
    passes = packing.buckets(lengths, tokens=48)
    assert sorted(i for p in passes for i in p) == list(range(len(lengths)))
    for p in passes:
        widths = {packing.bucket_width(lengths[i]) for i in p}
        assert len(widths) == 1 and (len(p) == 1 or len(p) * widths.pop() <= 48)
