"""Numpy's BLAS held to one thread while the head's small matrices are multiplied.

The encoder runs on torch's thread pool; the head's numpy matmuls wake
numpy's own BLAS threads, which then spin beside torch's on the same cores
and slow the next encoder pass (a quarter of the scoring time on 2 cores,
issue 20). The head's matrices are small: one thread is as quick for them.

>>> import numpy as np
>>> with one_blas_thread():
...     int((np.ones((2, 3)) @ np.ones((3, 2)))[0, 0])
3
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

#: One block at a time: the limit is process-wide, and two threads restoring it
#: out of order would leave BLAS on one thread for good. The blocks take milliseconds.
_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _controller() -> Any:
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # scikit-learn brings it; without it BLAS keeps its threads
        return None
    return ThreadpoolController()


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """Within the block, the BLAS libraries loaded in this process use one thread."""
    controller = _controller()
    if controller is None:
        yield
        return
    with _LOCK, controller.limit(limits=1, user_api="blas"):
        yield
