"""The BERT head: training on a small slice, the shipped head, mismatches, batching."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from scorers.base import ScoreItem
from scorers.bert_head import training as ht
from scorers.bert_head.encoder import Encoder, default_encoder_path, load_encoder
from scorers.bert_head.head import (
    FeatureRecipe,
    HeadMismatchError,
    load_head,
    read_head,
    save_head,
    shipped_weights,
)
from scorers.bert_head.labels import load_labels

WARM = (
    "I'm so sorry. Losing your dad this suddenly, right before your exams, is a lot to "
    "carry, and it makes sense that you can't focus. Would it help to tell me about him?"
)
COLD = "Exams matter. Stop dwelling on it and study harder."
MESSAGE = "My dad died two weeks ago and I have exams next week. I can't focus at all."


def test_training_on_a_small_slice_learns_and_round_trips(tmp_path):
    labels = load_labels(limit=80)
    encoder = load_encoder()
    recipe = FeatureRecipe(use_message=False)
    x = ht.featurize(encoder, recipe, labels)
    y = labels[["cognitive", "emotional", "behavioral"]].to_numpy(dtype=np.float32)
    config = ht.TrainConfig(epochs=30, heads=2, hidden=64)
    nets = ht.train_ensemble(x, y, config)
    train_mse = ht.metrics(ht.predict(nets, x), y)["overall"]["mse"]
    baseline = float(np.mean((y.mean(1) - y.mean()) ** 2))
    assert train_mse < baseline  # it fits the slice better than the mean does

    cv = ht.cross_validate(x, y, ht.TrainConfig(epochs=5, heads=1, hidden=32), folds=2)
    assert set(cv) == {"cognitive", "emotional", "behavioral", "overall"}
    assert all(0 <= row["mse"] <= 4 for row in cv.values())

    card = ht.build_card(encoder, recipe, config, labels, cv, None, None)
    save_head(nets, card, tmp_path / "bert_head.safetensors", tmp_path / "bert_head.json")
    head = read_head(tmp_path / "bert_head.safetensors", tmp_path / "bert_head.json", encoder)
    scores = head.score_many([ScoreItem(r) for r in labels.reply[:5]])
    assert np.allclose([s.cognitive for s in scores], ht.predict(nets, x[:5])[:, 0], atol=1e-4)
    assert all(1 <= s.overall <= 3 and s.spread is not None for s in scores)


def test_head_refuses_another_encoder(tmp_path):
    card = dict(load_head().card, encoder="bert-base-uncased")
    (tmp_path / "bert_head.json").write_text(json.dumps(card))
    with pytest.raises(HeadMismatchError, match="trained on 'bert-base-uncased'"):
        read_head(shipped_weights(), tmp_path / "bert_head.json", load_encoder())


def test_shipped_head_has_a_card_and_ranks_warm_above_cold():
    head = load_head()
    assert head.card["encoder"] == "all-MiniLM-L6-v2"
    assert head.card["cv_metrics"]["overall"]["mse"] < 0.3
    warm, cold = head.score_many([ScoreItem(WARM, MESSAGE), ScoreItem(COLD, MESSAGE)])
    assert warm.ok and cold.ok
    assert warm.emotional > cold.emotional + 0.5 and warm.overall > cold.overall


def test_long_replies_are_read_past_the_window_and_bad_items_do_not_sink_a_batch():
    head = load_head()
    filler = "We can look at your study plan together. " * 120  # far past 256 tokens
    short, long_ = head.score_many([ScoreItem(filler), ScoreItem(filler + " " + WARM)])
    assert short.overall != long_.overall  # the tail of a long reply still counts
    empty, ok = head.score_many([ScoreItem("   "), ScoreItem(WARM)])
    assert empty.status == "unscored" and "empty" in empty.reason and ok.ok


def test_long_replies_are_encoded_window_by_window_to_the_end(monkeypatch):
    from scorers.bert_head import packing

    encoder = Encoder(default_encoder_path(), "window-test", disk_cache=None)  # fresh, no cache
    forward, windows = packing._forward, []

    def spy(model, rows, pad_id, width=0):  # one encoder pass, recording each window's length
        windows.extend(len(seq) for row in rows for seq in row)
        return forward(model, rows, pad_id, width)

    monkeypatch.setattr(packing, "_forward", spy)
    filler = "We can look at your study plan together, one subject at a time. " * 40
    tokens = len(encoder.tokenizer(filler, add_special_tokens=False)["input_ids"])
    size = encoder.window - 2  # room for [CLS] and [SEP]
    assert tokens > 2 * size
    (alone,) = encoder.encode([filler])
    assert len(windows) == math.ceil(tokens / size) >= 3  # more than one window was encoded
    assert sum(windows) - 2 * len(windows) == tokens  # every token, each exactly once

    first_window = encoder.tokenizer.decode(
        encoder.tokenizer(filler, add_special_tokens=False)["input_ids"][:size]
    )
    longer, same_start = encoder.encode([filler + " " + WARM, first_window + " " + COLD])
    assert np.abs(longer - alone).max() > 1e-3  # text after the first window moves the vector
    assert np.abs(same_start - encoder.encode([first_window])[0]).max() > 1e-3


def test_scores_are_batch_independent():
    head = load_head()
    alone = head.score(WARM, MESSAGE)
    batched = head.score_many([ScoreItem(COLD, MESSAGE), ScoreItem(WARM, MESSAGE)])[1]
    assert alone.overall == pytest.approx(batched.overall, abs=1e-5)


def test_grouped_cross_validation_keeps_each_message_in_one_fold(monkeypatch):
    groups = [m for m in "abcdefgh" for _ in range(3)]  # three replies to each message
    x = np.arange(len(groups), dtype=np.float32)[:, None].repeat(2, axis=1)  # row i holds i
    y = np.full((len(groups), 3), 2.0, dtype=np.float32)
    trained_on: list[set[str]] = []

    def fake_train(xt, yt, config):
        trained_on.append({groups[int(i)] for i in xt[:, 0]})
        return []

    monkeypatch.setattr(ht, "train_ensemble", fake_train)
    monkeypatch.setattr(ht, "predict", lambda nets, xs: np.full((len(xs), 3), 2.0, np.float32))
    ht.cross_validate(x, y, ht.TrainConfig(), folds=4, groups=groups)
    assert len(trained_on) == 4
    # each fold trains on whole messages only: the held-out messages are absent entirely
    assert all(len(messages) == 6 for messages in trained_on)
