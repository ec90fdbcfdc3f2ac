"""The head's encoder run by ONNX Runtime (issue 33): the same vectors, exported once."""

from __future__ import annotations

import json

import numpy as np
import pytest

from config import SETTINGS
from scorers.bert_head.encoder import Encoder, default_encoder_path, load_encoder
from scorers.bert_head.head import HeadMismatchError, load_head

TEXTS = [
    "I'm so sorry. Losing your dad this suddenly is a lot to carry.",
    "We can look at your study plan together, one subject at a time. " * 40,  # 3 windows
    "Okay.",
    "Je suis là pour toi.",
]


@pytest.fixture(scope="module")
def both() -> tuple[Encoder, Encoder]:
    path = default_encoder_path()
    return Encoder(path, "torch-side"), Encoder(path, "onnx-side", runtime="onnx")


def test_onnx_vectors_are_torchs_up_to_rounding(both) -> None:
    torch_side, onnx_side = both
    a, b = torch_side.encode(TEXTS), onnx_side.encode(TEXTS)
    assert a.shape == b.shape == (len(TEXTS), torch_side.dim)
    assert np.abs(a - b).max() < 1e-4


def test_the_app_runs_the_encoder_on_onnx_and_the_shipped_head_reads_it() -> None:
    encoder = load_encoder()
    assert encoder.runtime == "onnx"
    head = load_head("bert-head")
    assert head.encoder.runtime == "onnx"
    assert 1.0 <= head.score("I hear you, that sounds so hard.", "I feel alone.").overall <= 3.0


def test_the_graph_is_exported_once_and_reused(both) -> None:
    folder = SETTINGS.cache_dir / "onnx"
    graphs = {p: p.stat().st_mtime_ns for p in folder.glob("onnx-side-*.onnx")}
    assert len(graphs) == 1
    Encoder(default_encoder_path(), "onnx-side", runtime="onnx")
    assert {p: p.stat().st_mtime_ns for p in folder.glob("onnx-side-*.onnx")} == graphs


def test_a_head_trained_on_torch_int8_refuses_onnx_int8(tmp_path) -> None:
    from scorers.bert_head.head import HEAD_CARD, HEAD_WEIGHTS, read_head

    card = json.loads(HEAD_CARD.read_text(encoding="utf-8"))
    card |= {"encoder_quantize": "int8", "encoder_runtime": "torch"}
    (tmp_path / "card.json").write_text(json.dumps(card), encoding="utf-8")
    int8 = Encoder(default_encoder_path(), card["encoder"], quantize="int8", runtime="onnx")
    with pytest.raises(HeadMismatchError, match="int8"):
        read_head(HEAD_WEIGHTS, tmp_path / "card.json", int8)
