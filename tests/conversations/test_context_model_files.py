"""The conversation model's files: the shipped tree ensemble loads without pickle and only
with the types named as trusted; a ridge model still reads as before."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scorers.bert_head.context import (
    MEASURES,
    ContextModel,
    TreeContextModel,
    read_context_model,
)


def test_the_shipped_model_is_the_tree_ensemble_and_scores_within_the_scale():
    model = read_context_model()
    assert isinstance(model, TreeContextModel) and model.version.startswith("head-context-trees")
    out = model.predict(np.full((2, 3), 2.0), np.zeros((2, len(MEASURES))))
    assert out.shape == (2, 3) and ((out >= 1) & (out <= 3)).all()


def test_a_tree_model_survives_saving_and_reading(tmp_path: Path):
    from sklearn.ensemble import ExtraTreesRegressor

    rng = np.random.default_rng(0)
    x, y = rng.random((40, 3 + len(MEASURES))), 1 + 2 * rng.random((40, 3))
    model = TreeContextModel(ExtraTreesRegressor(5, random_state=0).fit(x, y), "t-1")
    model.save(tmp_path / "m.json")
    again = read_context_model(tmp_path / "m.json")
    assert isinstance(again, TreeContextModel) and again.version == "t-1"
    head, found = x[:, :3], x[:, 3:]
    assert np.allclose(again.predict(head, found), model.predict(head, found))


def test_a_tree_file_with_an_untrusted_type_is_refused(tmp_path: Path):
    import skops.io
    from sklearn.preprocessing import FunctionTransformer

    skops.io.dump(FunctionTransformer(json.dumps), tmp_path / "m.skops")  # not a tree
    note = {"version": "x", "measures": MEASURES, "kind": "trees", "file": "m.skops"}
    (tmp_path / "m.json").write_text(json.dumps(note), encoding="utf-8")
    with pytest.raises(Exception, match=r"[Uu]ntrusted"):
        read_context_model(tmp_path / "m.json")


def test_a_ridge_model_still_reads(tmp_path: Path):
    k = 3 + len(MEASURES)
    ridge = ContextModel(np.zeros(k), np.ones(k), np.zeros((3, k)), np.full(3, 2.5), "r-1")
    ridge.save(tmp_path / "r.json")
    again = read_context_model(tmp_path / "r.json")
    assert isinstance(again, ContextModel) and again.version == "r-1"
    assert np.allclose(again.predict(np.ones((1, 3)), np.ones((1, len(MEASURES)))), 2.5)
