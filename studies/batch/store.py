"""A batch's run folder: ``run.json`` (what was asked) and ``results.csv`` (what came back).

``results.csv`` is a :class:`core.csvlog.CsvLog`: append-only, locked,
sanitised, keys redacted. Its columns are fixed when the run is created:
the row fields below, then per scorer ``<scorer id>/status``,
``<scorer id>/reason``, one ``<scorer id>/<component>`` per rubric
component (``bert-head/overall``) and ``<scorer id>/note`` (what the scorer
set aside, such as an injection attempt it removed). A row that is retried is appended again;
when reading, the latest row per key wins.

>>> scorer_fields(["bert-head"])[:3]
['bert-head/status', 'bert-head/reason', 'bert-head/cognitive']
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from filelock import FileLock, Timeout

from config import APP_VERSION
from core.csvlog import CsvLog
from studies.batch.plan import BatchQuestion, BatchSettings, row_key

ROW_FIELDS: tuple[str, ...] = (
    "question_id",
    "responder",
    "strategy",
    "sample",
    "settings_hash",
    "status",
    "error",
    "reply",
    "note",
    "raw_reply",
    "latency_s",
    "attempts",
    "prompt_tokens",
    "completion_tokens",
    "cost_usd",
    "max_tokens",
    "temperature",
    "finished_at",
    "question",
    # The safety screen of the reply (scorers.safety): 1 safe, 0 a concern, '' not checked.
    "reply_safe",
    "safety_concerns",
)
RESULTS_FILE = "results.csv"
RUN_FILE = "run.json"


class RunMismatch(ValueError):
    """The run folder was made for other scorers; the message says what to do."""


def scorer_components(scorer_id: str) -> tuple[str, ...]:
    """The component names (and overall) a scorer's values have, from its rubric."""
    from scorers.registry import get_scorer
    from scorers.rubric import load_rubric

    return load_rubric(get_scorer(scorer_id).rubric_id).names


def scorer_fields(scorer_ids: Sequence[str]) -> list[str]:
    """The per-scorer columns of ``results.csv``."""
    out = []
    for sid in scorer_ids:
        out += [f"{sid}/status", f"{sid}/reason"]
        out += [f"{sid}/{name}" for name in scorer_components(sid)]
        out.append(f"{sid}/note")  # what the scorer set aside (older runs lack it)
    return out


class RunBusy(ValueError):
    """Another run of the same folder is still going (or still finishing after Stop)."""


#: One lock per run folder in this process; a file lock covers other processes (the CLI).
_RUN_LOCKS: dict[Path, threading.Lock] = {}
_RUN_LOCKS_GUARD = threading.Lock()


def busy_message(what: str) -> str:
    """Why a run of ``what`` (a run name or folder) was not started while another holds it.

    >>> busy_message("my-batch")[:34]
    'The run my-batch is still going, o'
    """
    return (
        f"The run {what} is still going, or still finishing the replies it had already asked "
        "for after Stop (a local reply can take a minute or two). Nothing was started: run it "
        "again once it says it has stopped, and it continues where it stopped."
    )


class RunFolder:
    """One batch run's folder: its settings, its results and its report."""

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the folder for one run: a second run (thread or process) gets :class:`RunBusy`.

        While a stopped run writes its last rows, a new run must not read the
        store: it would ask again for the rows still being written.
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        key = self.folder.resolve()
        with _RUN_LOCKS_GUARD:
            lock = _RUN_LOCKS.setdefault(key, threading.Lock())
        if not lock.acquire(blocking=False):
            raise RunBusy(busy_message(str(self.folder)))
        try:
            held = FileLock(str(self.folder / ".run.lock"))
            try:
                held.acquire(timeout=0)
            except Timeout:
                raise RunBusy(busy_message(str(self.folder))) from None
            try:
                yield
            finally:
                held.release()
        finally:
            lock.release()

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.run_file = self.folder / RUN_FILE

    def info(self) -> dict[str, object]:
        """``run.json`` as a dict (``{}`` when the run is new)."""
        if not self.run_file.exists():
            return {}
        try:
            return json.loads(self.run_file.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise RunMismatch(
                f"{self.run_file} cannot be read ({exc}); move the folder aside"
            ) from None

    @property
    def scorers(self) -> tuple[str, ...]:
        return tuple(self.info().get("scorers", ()))  # type: ignore[arg-type]

    def log(self, scorer_ids: Sequence[str] | None = None) -> CsvLog:
        """The results store, with the columns fixed when the run was made."""
        fields = self.info().get("fields")
        if not fields:
            if scorer_ids is None:
                raise RunMismatch(f"{self.folder} holds no batch run (no {RUN_FILE})")
            fields = [*ROW_FIELDS, *scorer_fields(scorer_ids)]
        return CsvLog(self.folder / RESULTS_FILE, fields, what="batch results")

    def open(self, questions: list[BatchQuestion], settings: BatchSettings, engine: str) -> CsvLog:
        """Create or continue the run; record this invocation's plan in ``run.json``."""
        info = self.info()
        if info and tuple(info.get("scorers", ())) != settings.scorers:
            raise RunMismatch(
                f"{self.folder} was made with the scorers {', '.join(info['scorers']) or 'none'}; "
                "use the same --scorers to continue it, or a new --output folder"
            )
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        history = [*info.get("history", []), {"at": now, "engine": engine}]
        info.update(
            app_version=APP_VERSION,
            created=info.get("created", now),
            scorers=list(settings.scorers),
            fields=info.get("fields") or [*ROW_FIELDS, *scorer_fields(settings.scorers)],
            settings=settings.to_dict(),
            questions=[{"question_id": q.question_id, "text": q.text} for q in questions],
            history=history,
        )
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.run_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(info, indent=1, ensure_ascii=False), encoding="utf-8")
        tmp.replace(self.run_file)
        return self.log()

    def plan(self) -> tuple[list[BatchQuestion], BatchSettings]:
        """The questions and settings of the latest invocation."""
        info = self.info()
        if not info:
            raise RunMismatch(f"{self.folder} holds no batch run (no {RUN_FILE})")
        questions = [BatchQuestion(q["question_id"], q["text"]) for q in info["questions"]]
        raw = dict(info["settings"])
        for name in ("responders", "strategies", "scorers", "as_written"):
            raw[name] = tuple(raw.get(name, ()))
        return questions, BatchSettings(**raw)

    def latest_rows(self) -> dict[tuple[str, ...], dict[str, str]]:
        """The latest stored row per key, in file order of first appearance."""
        latest: dict[tuple[str, ...], dict[str, str]] = {}
        for row in self.log().read():
            latest[row_key(row)] = row
        return latest
