"""Joining model chunks: verified, cached, and corrupt files refused."""

from __future__ import annotations

import hashlib
import sys

import pytest

from responders.model_files import ModelFileError, SplitModel, ensure_model_file


@pytest.fixture
def chunks(tmp_path, monkeypatch):
    """Three tiny chunk packages importable as fakechunk1..3."""
    data = [b"alpha-" * 100, b"beta-" * 50, b"gamma"]
    for i, blob in enumerate(data, start=1):
        pkg = tmp_path / "site" / f"fakechunk{i}"
        pkg.mkdir(parents=True)
        (pkg / "part.bin").write_bytes(blob)
        (pkg / "__init__.py").write_text(
            "from pathlib import Path\n"
            "def get_part_path():\n    return str(Path(__file__).parent / 'part.bin')\n"
        )
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    yield data, tmp_path / "site"
    for i in range(1, 4):
        sys.modules.pop(f"fakechunk{i}", None)


def spec(data: list[bytes], sha: str | None = None) -> SplitModel:
    whole = b"".join(data)
    return SplitModel(
        "m.gguf", "fakechunk", 3, len(whole), sha or hashlib.sha256(whole).hexdigest()
    )


def test_chunks_are_joined_in_order_and_verified(chunks, tmp_path):
    data, _ = chunks
    path = ensure_model_file(spec(data), tmp_path / "cache")
    assert path.read_bytes() == b"".join(data)
    assert path.with_suffix(".verified").exists()
    assert ensure_model_file(spec(data), tmp_path / "cache") == path  # cached


def test_corrupt_chunk_is_refused_with_the_fix(chunks, tmp_path):
    data, site = chunks
    (site / "fakechunk2" / "part.bin").write_bytes(b"tampered")
    with pytest.raises(ModelFileError, match=r"corrupt.*pip install --force-reinstall"):
        ensure_model_file(spec(data), tmp_path / "cache")
    assert not (tmp_path / "cache" / "models" / "m.gguf").exists()
    assert not list((tmp_path / "cache" / "models").glob("*.partial"))


def test_damaged_cached_file_is_rebuilt(chunks, tmp_path):
    data, _ = chunks
    path = ensure_model_file(spec(data), tmp_path / "cache")
    path.write_bytes(b"x" * len(b"".join(data)))  # same size, new mtime
    assert ensure_model_file(spec(data), tmp_path / "cache").read_bytes() == b"".join(data)


def test_missing_chunk_package_names_it(chunks, tmp_path):
    missing = SplitModel("m.gguf", "nochunk", 2, 1, "0" * 64)
    with pytest.raises(ModelFileError, match=r"pip install nochunk1==0\.2\.0"):
        ensure_model_file(missing, tmp_path / "cache")
    assert not missing.installed()
