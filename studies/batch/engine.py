"""Running a batch's rows: local threads (default) or Ray tasks, one scheduler for both.

The :class:`Scheduler` keeps at most ``concurrency`` rows in flight, and at
most a provider's own limit for each provider (the local model answers one
call at a time per process). A stop flag is honoured between rows: no new
row starts, the rows in flight finish and are stored (they are paid for).
Finished rows are written in plan order; rows that finish early wait in
memory for the rows before them, and anything waiting is written when the run
ends, is stopped or fails.

With ``engine="ray"`` each row runs :func:`studies.batch.row.run_row` as a
``ray.remote`` task; each worker process loads its own copy of the local
model, and the driver alone writes to the store.

>>> limits = provider_limits("local", 8)
>>> limits["local"], limits["openai"]
(1, 8)

The time left (:mod:`studies.batch.eta`) comes from this run's own rows:
seconds per row of each provider, measured from submit to result.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

from config import DEFAULT_MAX_TOKENS, ROOT
from core.csvlog import CsvLog
from core.progress import Progress
from responders.registry import responder_classes
from studies.batch.eta import RowClock, eta_text
from studies.batch.plan import RowTask
from studies.batch.row import run_row, task_row


def provider_limits(engine: str, concurrency: int) -> defaultdict[str, int]:
    """How many rows of each provider may run at once: on local threads, at most what each
    responder class declares (``max_parallel``); elsewhere the run's concurrency."""
    limits: defaultdict[str, int] = defaultdict(lambda: concurrency)
    if engine == "local":
        for provider, cls in responder_classes().items():
            most = cls.max_parallel
            if most is not None:
                limits[provider] = min(most, concurrency)
    return limits


class ThreadEngine:
    """Rows on a pool of threads in this process."""

    name = "local"

    def __init__(self, concurrency: int) -> None:
        self._pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="batch")

    def submit(self, task: RowTask, args: tuple[Any, ...]) -> Future[dict[str, object]]:
        return self._pool.submit(run_row, task, *args)

    def wait(self, handles: Sequence[Any], timeout: float) -> list[Any]:
        return list(wait(handles, timeout=timeout, return_when=FIRST_COMPLETED).done)

    def result(self, handle: Future[dict[str, object]]) -> dict[str, object]:
        return handle.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True)


class RayEngine:
    """Rows as Ray tasks on a local Ray instance or a cluster (``ray://host:10001``)."""

    name = "ray"

    def __init__(self, address: str | None, concurrency: int) -> None:
        try:
            import ray
        except ImportError:
            raise ValueError("the Ray engine needs ray: pip install 'ray[default]'") from None
        self._ray = ray
        if not ray.is_initialized():
            ray.init(**ray_init_options(address, concurrency))
        self._remote = ray.remote(num_cpus=1, max_retries=0)(run_row)

    def submit(self, task: RowTask, args: tuple[Any, ...]) -> Any:
        return self._remote.remote(*ray_task_args(task, args))

    def wait(self, handles: Sequence[Any], timeout: float) -> list[Any]:
        ready, _ = self._ray.wait(list(handles), num_returns=1, timeout=timeout)
        if ready:  # take every other finished one too
            ready, _ = self._ray.wait(list(handles), num_returns=len(handles), timeout=0)
        return ready

    def result(self, handle: Any) -> dict[str, object]:
        return self._ray.get(handle)

    def close(self) -> None:
        """Leave Ray running: the caller (or the process exit) shuts it down."""


#: Never shipped to a Ray cluster: secrets, what users made, caches, history.
RAY_EXCLUDES = [
    ".env",
    "*.env",
    ".git",
    "runs",
    "flagged",
    ".cache",
    "test-artifacts",
    "**/__pycache__",
    "bench/results",
]


def ray_task_args(task: RowTask, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row's arguments as sent to a Ray worker: the keys are left out.

    ``args`` is ``(scorer ids, keys, responder factory)``; a worker reads its
    keys from its own environment (:mod:`config`), so no key travels.
    """
    scorers, _keys, make_responder = args
    return (task, scorers, None, make_responder)


def is_remote(address: str | None) -> bool:
    """Whether ``address`` names a cluster other than a Ray instance started here.

    >>> is_remote(None), is_remote("local"), is_remote("ray://10.0.0.5:10001")
    (False, False, True)
    """
    return bool(address) and address != "local"


def ray_init_options(
    address: str | None, concurrency: int, allow_remote: bool | None = None
) -> dict[str, Any]:
    """``ray.init`` options: this project's code shipped to the workers; local CPUs capped.

    A remote cluster is refused unless the operator allowed it
    (``EMPATHY_LAB_RAY_ALLOW_REMOTE=1``); its upload leaves out :data:`RAY_EXCLUDES`.
    """
    from config import SETTINGS

    allowed = SETTINGS.ray_allow_remote if allow_remote is None else allow_remote
    if is_remote(address):
        if not allowed:
            raise ValueError(
                f"the Ray cluster {address} is not a local instance: set "
                "EMPATHY_LAB_RAY_ALLOW_REMOTE=1 on the server to send work there "
                "(keys never travel: the cluster's workers need their own)"
            )
        env = {"working_dir": str(ROOT), "excludes": list(RAY_EXCLUDES)}
        return {"address": address, "runtime_env": env, "ignore_reinit_error": True}
    return {
        "num_cpus": concurrency,
        "include_dashboard": False,
        "ignore_reinit_error": True,
        "runtime_env": {"env_vars": {"PYTHONPATH": str(ROOT)}},
    }


def make_engine(engine: str, *, address: str | None, concurrency: int) -> Any:
    """The engine named ``engine`` (``local`` or ``ray``)."""
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    if engine == "local":
        return ThreadEngine(concurrency)
    if engine == "ray":
        return RayEngine(address, concurrency)
    raise ValueError(f"unknown engine {engine!r}; known: local, ray")


class OrderedWriter:
    """Writes finished rows to the store in plan order (see the module docstring)."""

    def __init__(self, log: CsvLog, order: Sequence[int], secrets: Sequence[str]) -> None:
        self.log, self.order, self.secrets = log, list(order), list(secrets)
        self.waiting: dict[int, dict[str, object]] = {}
        self.position = 0

    def add(self, index: int, row: dict[str, object]) -> None:
        # A run made before a column existed keeps its columns: newer cells are left out.
        self.waiting[index] = {k: v for k, v in row.items() if k in self.log.fields}
        ready = []
        while self.position < len(self.order) and self.order[self.position] in self.waiting:
            ready.append(self.waiting.pop(self.order[self.position]))
            self.position += 1
        if ready:
            self.log.append_many(ready, self.secrets)

    def flush(self) -> None:
        """Write every waiting row (a stop or a failure left gaps before them)."""
        rows = [self.waiting.pop(i) for i in sorted(self.waiting, key=self.order.index)]
        if rows:
            self.log.append_many(rows, self.secrets)


class Scheduler:
    """Feeds rows to an engine within the limits, collects them, reports progress."""

    def __init__(
        self,
        engine: Any,
        log: CsvLog,
        *,
        concurrency: int,
        stop: threading.Event,
        progress: Progress,
        secrets: Sequence[str] = (),
        max_tokens: int = DEFAULT_MAX_TOKENS,
    ) -> None:
        self.engine, self.log, self.concurrency = engine, log, concurrency
        self.limits = provider_limits(engine.name, concurrency)
        self.stop, self.progress, self.secrets = stop, progress, secrets
        self.counts: Counter[str] = Counter(done=0, failed=0, not_run=0)
        self.busy: Counter[str] = Counter()
        self.inflight: dict[Any, RowTask] = {}
        self.started: dict[Any, float] = {}
        self.clock = RowClock(self.limits, max_tokens)  # its guess before a first reply
        self.left: Counter[str] = Counter()

    def run(self, todo: Sequence[RowTask], total: int, args: tuple[Any, ...]) -> Counter[str]:
        """Run ``todo`` (rows of a plan of ``total``); returns done/failed/not_run counts."""
        self.total, self.skipped, self.t0 = total, total - len(todo), time.monotonic()
        pending = list(todo)
        self.left = Counter(t.provider for t in todo)
        writer = OrderedWriter(self.log, [t.index for t in todo], self.secrets)
        self._report()
        try:
            while pending or self.inflight:
                if self.stop.is_set() and pending:
                    self.counts["not_run"] += len(pending)
                    self.left.subtract(t.provider for t in pending)
                    pending.clear()
                pending = self._fill(pending, args)
                self._collect(writer, timeout=0.5)
        except BaseException:
            self.stop.set()  # stop starting rows; the ones in flight are paid for: keep them
            self.counts["not_run"] += len(pending)
            while self.inflight:
                self._collect(writer, timeout=1.0, report=False)
            raise
        finally:
            writer.flush()
            self.engine.close()
        return self.counts

    def _fill(self, pending: list[RowTask], args: tuple[Any, ...]) -> list[RowTask]:
        """Start every pending row the limits allow; returns the rows still pending."""
        left = []
        for task in pending:
            if len(self.inflight) < self.concurrency and (
                self.busy[task.provider] < self.limits[task.provider]
            ):
                handle = self.engine.submit(task, args)
                self.inflight[handle], self.started[handle] = task, time.monotonic()
                self.busy[task.provider] += 1
            else:
                left.append(task)
        return left

    def _collect(self, writer: OrderedWriter, timeout: float, report: bool = True) -> None:
        if not self.inflight:
            return
        for handle in self.engine.wait(list(self.inflight), timeout):
            task = self.inflight.pop(handle)
            self.clock.record(task.provider, time.monotonic() - self.started.pop(handle))
            self.busy[task.provider] -= 1
            self.left[task.provider] -= 1
            row = self._row(task, handle)
            self.counts["done" if row.get("status") == "ok" else "failed"] += 1
            writer.add(task.index, row)
        if report:  # after every finished row is in the writer: a failing callback loses none
            self._report()

    def _row(self, task: RowTask, handle: Any) -> dict[str, object]:
        try:
            return self.engine.result(handle)
        except Exception as exc:  # a worker died: the row failed, the run goes on
            return {**task_row(task), "status": "error", "error": f"worker failed ({exc!s:.200})"}

    def _report(self) -> None:
        finished = self.counts["done"] + self.counts["failed"]
        what = (
            f"{self.counts['done']} done · {self.counts['failed']} failed · "
            f"{self.skipped} skipped · {eta_text(self.clock.eta(self.left))}"
        )
        self.progress(self.skipped + finished, self.total, what)
