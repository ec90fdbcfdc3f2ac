"""Held-out-style cross-validation (issue 20): grouped folds and the int8 encoder."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorers.bert_head import folds
from scorers.bert_head.labels import load_labels


@pytest.fixture(scope="module")
def labels() -> pd.DataFrame:
    return load_labels()


def _tested_once(splits: list, n: int) -> bool:
    seen = np.concatenate([test for _, test in splits])
    return sorted(seen.tolist()) == list(range(n))


def test_message_folds_never_split_a_messages_replies(labels):
    splits = folds.splits(labels, "message")
    groups = folds.message_groups(labels)
    assert len(splits) == 5 and _tested_once(splits, len(labels))
    for train, test in splits:
        assert not set(groups[train]) & set(groups[test])
        # balanced by source family: every family is tested in every fold
        assert set(labels.source.map(folds.source_family)[test]) == {
            "counselchat",
            "epitome",
            "styled",
            "welivita",
        }
    # the bundled labels do hold messages with several replies, so plain K-fold splits them
    plain = folds.splits(labels, "kfold")
    assert any(set(groups[tr]) & set(groups[te]) for tr, te in plain)


def test_source_folds_leave_one_family_out(labels):
    family = labels.source.map(folds.source_family).to_numpy()
    splits = folds.splits(labels, "source")
    assert len(splits) == 4 and _tested_once(splits, len(labels))
    for train, test in splits:
        assert len(set(family[test])) == 1 and family[test][0] not in set(family[train])


def test_unknown_view_is_refused(labels):
    with pytest.raises(ValueError, match="unknown view"):
        folds.splits(labels, "random")


def test_out_of_fold_trains_on_its_own_rows_and_their_variants_only():
    x = np.arange(6.0)[:, None]
    y = np.repeat(x, 3, axis=1)
    seen: list[set[float]] = []

    def fit(xt, yt):  # type: ignore[no-untyped-def]
        seen.append(set(xt[:, 0].tolist()))
        return lambda xs: np.zeros((len(xs), 3))

    extra = (x + 100, y, np.arange(6))  # variant of row i is 100 + i
    splits = [
        (np.array([0, 1, 2]), np.array([3, 4, 5])),
        (np.array([3, 4, 5]), np.array([0, 1, 2])),
    ]
    pred = folds.out_of_fold(x, y, fit, splits, extra)
    assert seen == [{0, 1, 2, 100, 101, 102}, {3, 4, 5, 103, 104, 105}]
    assert not np.isnan(pred).any()


def test_int8_encoder_is_close_to_fp32_but_cached_apart(tmp_path):
    from scorers.bert_head.encoder import Encoder, default_encoder_path
    from scorers.bert_head.head import HeadMismatchError, load_head, read_head, shipped_weights

    path, texts = default_encoder_path(), ["I'm so sorry about your dad.", "Study harder."]
    fp32 = Encoder(path, "all-MiniLM-L6-v2", disk_cache=tmp_path / "v.sqlite")
    int8 = Encoder(path, "all-MiniLM-L6-v2", disk_cache=tmp_path / "v.sqlite", quantize="int8")
    a, b = fp32.encode(texts), int8.encode(texts)
    cos = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    # about 0.94 on these two; the accuracy cost is measured by the grouped CV (scorer card)
    assert cos.min() > 0.9 and not np.allclose(a, b)
    assert fp32._key(texts[0]) != int8._key(texts[0])
    from scorers.bert_head.head import HEADS

    # whichever the shipped head reads, the other encoder is refused
    other = fp32 if load_head().card.get("encoder_quantize") == "int8" else int8
    with pytest.raises(HeadMismatchError, match="quantised"):
        read_head(shipped_weights(), HEADS["bert-head"][1], other)
