"""The encoder's transformer run by ONNX Runtime instead of torch (issue 33).

The graph is exported once from the packaged weights (nothing is downloaded)
into the cache folder, and reused from there. It takes the packed layout of
:mod:`scorers.bert_head.packing` (token ids, a block-diagonal additive
attention mask, position ids) and returns what that layout reads: each
token's last layer joined with the mean of the last four. In fp32 its
vectors are torch's up to float rounding (about 1e-6), so a head trained on
torch's vectors reads them unchanged; ``int8`` quantises the Linear weights
per channel (ONNX Runtime's dynamic quantisation), whose vectors differ and
need a head trained on them.

>>> graph_file(Path("/tmp/c"), "all-MiniLM-L6-v2", "abc", None).name
'all-MiniLM-L6-v2-abc-fp32.onnx'
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np

#: Bump when the exported graph's inputs or outputs change: old files are then not reused.
GRAPH_VERSION = "1"
_EXPORT_LOCK = threading.Lock()


def available() -> bool:
    """Whether ONNX Runtime (and the exporter's ``onnx``) are installed."""
    return all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "onnx"))


def weights_digest(folder: Path) -> str:
    """A short digest of the model folder's files (names and sizes): a changed model exports anew."""
    parts = sorted(f"{p.name}:{p.stat().st_size}" for p in folder.iterdir() if p.is_file())
    return hashlib.sha256(f"{GRAPH_VERSION}|{'|'.join(parts)}".encode()).hexdigest()[:12]


def graph_file(cache_dir: Path, name: str, digest: str, quantize: str | None) -> Path:
    """Where the exported graph of ``name`` lives in the cache folder."""
    return cache_dir / f"{name}-{digest}-{quantize or 'fp32'}.onnx"


class OnnxEncoderModel:
    """An exported encoder: :meth:`states` maps the packed inputs to token vectors."""

    def __init__(self, graph: Path, threads: int) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        # Idle threads sleep instead of spinning: the cores are shared with torch and llama.cpp.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.graph = graph
        self.session = ort.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])

    def states(self, ids: np.ndarray, mask: np.ndarray, positions: np.ndarray) -> np.ndarray:
        """``(rows, width, 2 * hidden)`` token vectors for int64 ``ids``/``positions`` and an
        fp32 additive ``mask`` of shape ``(rows, 1, width, width)``."""
        feeds = {"ids": ids, "mask": mask.astype(np.float32), "positions": positions}
        return self.session.run(None, feeds)[0]


def load_onnx_model(
    folder: Path, name: str, cache_dir: Path, quantize: str | None, threads: int
) -> OnnxEncoderModel:
    """The exported graph of the model in ``folder``, exported (and quantised) on first use."""
    if quantize not in (None, "int8"):
        raise ValueError(f"unknown quantisation {quantize!r}; known: int8")
    target = graph_file(cache_dir / "onnx", name, weights_digest(folder), quantize)
    with _EXPORT_LOCK:
        if not target.exists():
            fp32 = graph_file(cache_dir / "onnx", name, weights_digest(folder), None)
            if not fp32.exists():
                _export(folder, fp32)
            if quantize:
                _quantize(fp32, target)
    return OnnxEncoderModel(target, threads)


def _export(folder: Path, target: Path) -> None:
    """Trace a fresh copy of the model (tracing can leave a model changed) into ``target``."""
    import warnings

    import torch
    from transformers import AutoModel

    model = AutoModel.from_pretrained(str(folder), attn_implementation="eager").eval()
    wrapped = _packed_module(model)
    ids = torch.full((2, 8), 1000, dtype=torch.long)
    positions = torch.arange(8).repeat(2, 1)
    mask = torch.zeros((2, 1, 8, 8))
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_suffix(f".{os.getpid()}.part")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            wrapped,
            (ids, mask, positions),
            str(part),
            input_names=["ids", "mask", "positions"],
            output_names=["states"],
            dynamic_axes={
                "ids": {0: "rows", 1: "width"},
                "positions": {0: "rows", 1: "width"},
                "mask": {0: "rows", 2: "width", 3: "width"},
                "states": {0: "rows", 1: "width"},
            },
            opset_version=17,
            dynamo=False,
        )
    part.replace(target)


def _quantize(source: Path, target: Path) -> None:
    """``source`` with its MatMul weights in int8, one scale per output channel."""
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    logging.getLogger().setLevel(logging.ERROR)  # its "run pre-processing first" advice
    part = target.with_suffix(f".{os.getpid()}.part")
    quantize_dynamic(str(source), str(part), weight_type=QuantType.QInt8, per_channel=True)
    part.replace(target)


def _packed_module(model: Any) -> Any:
    """``model`` as the graph's function: packed inputs in, joined token vectors out."""
    import torch

    from scorers.bert_head.packing import joined_states

    class Packed(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, ids: Any, mask: Any, positions: Any) -> Any:
            return joined_states(self.model, ids, mask, positions)

    return Packed()
