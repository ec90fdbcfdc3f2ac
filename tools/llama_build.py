"""Is the installed llama.cpp build one this machine can run safely?

A build tuned to the CPU (``-march=native``) on a processor that advertises
AMX compiles llama.cpp's AMX matrix kernels in, and on the virtual machines
this project runs on they die with a general protection fault at the first
``ldtilecfg`` (seen in CI as a segmentation fault in the middle of the
tests). ``make setup`` builds without AMX (``-mno-amx-int8``) and calls
this check; exit status 1 means the installed build has the AMX kernels and
must be rebuilt.

    python tools/llama_build.py     # prints what it found; exit 1 if AMX is compiled in

>>> has_amx_kernels(b"...ggml_backend_amx_mul_mat...")
True
"""

from __future__ import annotations

import sys
from pathlib import Path

#: Present only when the AMX kernels are compiled in (ggml-cpu/amx/mmq.cpp).
AMX_SYMBOL = b"ggml_backend_amx_mul_mat"


def has_amx_kernels(library: bytes) -> bool:
    """Whether a libggml-cpu image holds the AMX kernels."""
    return AMX_SYMBOL in library


def cpu_libraries() -> list[Path]:
    """The installed llama.cpp CPU backend libraries (empty when not installed)."""
    import importlib.util

    spec = importlib.util.find_spec("llama_cpp")
    if spec is None or not spec.origin:
        return []
    return sorted(Path(spec.origin).parent.glob("lib/libggml-cpu*.so*"))


def main() -> int:
    libraries = cpu_libraries()
    with_amx = [p for p in libraries if has_amx_kernels(p.read_bytes())]
    if with_amx:
        print(f"llama.cpp was built with AMX kernels ({with_amx[0].name}): rebuild without them")
        return 1
    print(f"llama.cpp build: {len(libraries)} CPU libraries, no AMX kernels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
