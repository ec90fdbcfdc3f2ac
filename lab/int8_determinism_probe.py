"""Can an int8 encoder give every text the same vector whatever shares its pass? (issue 33)

ONNX Runtime's dynamic quantisation scales activations per tensor, so an int8 vector
depends on the texts packed beside it (the reason the int8 head did not ship). Two ways
round it, measured against the shipped fp32 graph on the head bench's texts (55 distinct
bundled answers, their sentences and their questions):

- static int8 (QDQ, MinMax calibration on 100 other bundled answers and questions, per
  channel weights, symmetric activations, MatMuls only): fixed scales;
- dynamic int8 with one text a pass (nothing beside it);
- dynamic int8 with one activation scale per token instead of per tensor
  (``lab/int8_per_token.py`` rewrites the dynamic graph).

Prints, for each form and each layout (packed end to end, or bucketed: a row of its own
for each text, padded to its length rounded up; ``scorers.bert_head.packing``), the time
to encode every text at once and one a pass, the largest change a text's vector shows
when encoded alone rather than with the others, and its cosine to fp32 packed.
Nothing here ships; the quantised graphs go to a temporary folder.

    nice python lab/int8_determinism_probe.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from config import SETTINGS
from core.questions import load_questions
from lab.int8_per_token import per_token_graph
from scorers.bert_head.encoder import Encoder, load_encoder
from scorers.bert_head.features import split_sentences
from scorers.bert_head.onnx_model import OnnxEncoderModel, graph_file, weights_digest


def distinct(start: int, stop: int) -> list[tuple[str, str]]:
    """Bundled (answer, question) pairs with distinct answers, ``start`` to ``stop``."""
    seen: set[str] = set()
    pairs = []
    for q in load_questions():
        if q.answer not in seen:
            seen.add(q.answer)
            pairs.append((q.answer, q.question))
    return pairs[start:stop]


def encoder(graph: Path | None, layout: str = "packed") -> Encoder:
    """A cold ONNX encoder (no disk cache) laid out as ``layout``, on ``graph`` when given."""
    shipped = load_encoder()
    fresh = Encoder(shipped.path, shipped.name, disk_cache=None, runtime="onnx", layout=layout)
    if graph is not None:
        fresh.model = OnnxEncoderModel(graph, SETTINGS.local_threads)
    return fresh


def quantise(fp32: Path, folder: Path, calibration: list[str]) -> dict[str, Path]:
    """The dynamic and the static int8 graphs of ``fp32`` in ``folder``."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_dynamic,
        quantize_static,
    )

    base, feeds = encoder(None), []
    graph = base.model

    class Recorder:  # the packed inputs the encoder builds, kept for calibration
        def states(self, ids: np.ndarray, mask: np.ndarray, positions: np.ndarray) -> np.ndarray:
            feeds.append({"ids": ids, "mask": mask.astype(np.float32), "positions": positions})
            return graph.states(ids, mask, positions)

    base.model = Recorder()
    base._encode_uncached(calibration, 8)

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.fed = iter(feeds)

        def get_next(self) -> dict | None:
            return next(self.fed, None)

    out = {
        "dynamic int8": folder / "dynamic.onnx",
        "static int8": folder / "static.onnx",
        "per-token int8": folder / "per-token.onnx",
    }
    quantize_dynamic(
        str(fp32), str(out["dynamic int8"]), weight_type=QuantType.QInt8, per_channel=True
    )
    per_token_graph(out["dynamic int8"], out["per-token int8"])
    quantize_static(
        str(fp32),
        str(out["static int8"]),
        Reader(),
        quant_format=QuantFormat.QDQ,
        per_channel=True,
        weight_type=QuantType.QInt8,
        activation_type=QuantType.QInt8,
        calibrate_method=CalibrationMethod.MinMax,
        op_types_to_quantize=["MatMul"],
        extra_options={"ActivationSymmetric": True},
    )
    return out


def measure(
    name: str, graph: Path | None, texts: list[str], reference: np.ndarray, layout: str
) -> None:
    """Print one form's times, its change from batch mates and its cosine to fp32 packed."""
    enc = encoder(graph, layout)
    start = time.perf_counter()
    packed = np.stack(enc._encode_uncached(texts, 32))
    middle = time.perf_counter()
    alone = np.stack([enc._encode_uncached([t], 32)[0] for t in texts])
    end = time.perf_counter()
    norms = np.linalg.norm(packed, axis=1) * np.linalg.norm(reference, axis=1)
    cosine = np.sum(packed * reference, axis=1) / norms
    print(
        f"{name:14s} {layout:8s} all at once {middle - start:.2f} s, one a pass "
        f"{end - middle:.2f} s; "
        f"largest change from batch mates {float(np.abs(alone - packed).max()):.1e}; "
        f"cosine to fp32 min {cosine.min():.3f} mean {cosine.mean():.3f}"
    )


def main() -> None:
    import logging

    logging.getLogger().setLevel(logging.ERROR)  # the quantiser's pre-processing advice
    shipped = load_encoder()
    fp32 = graph_file(SETTINGS.cache_dir / "onnx", shipped.name, weights_digest(shipped.path), None)
    encoder(None)  # exports the fp32 graph when it is not there yet
    pairs = distinct(0, 55)
    texts = [a for a, _ in pairs] + [s for a, _ in pairs for s in split_sentences(a)]
    texts += [q for _, q in pairs]
    calibration = [t for pair in distinct(60, 160) for t in pair]
    calibration += [s for a, _ in distinct(60, 160) for s in split_sentences(a)]
    reference = np.stack(encoder(None)._encode_uncached(texts, 32))
    print(f"{len(texts)} texts")
    with tempfile.TemporaryDirectory() as folder:
        graphs = quantise(fp32, Path(folder), calibration)
        for layout in ("packed", "bucketed"):
            for name, graph in (("fp32", None), *graphs.items()):
                measure(name, graph, texts, reference, layout)


if __name__ == "__main__":
    main()
