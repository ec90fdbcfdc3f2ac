"""Scores kept on disk, one CSV per scorer setting, so a re-run of a study is free.

A row is keyed by the scorer's id, its *setting* (what changes its answers:
a judge's prompt version, samples, temperature and reader persona; the
head's training-data hash) and the exact message and reply. Only ``ok``
scores are kept: an unscored reply (a timeout, an unreadable answer) is
asked again next time. The files are append-only :class:`core.csvlog.CsvLog`
logs (locked, sanitised), so several processes may fill one at once, and
an interrupted run resumes where it stopped.

>>> import tempfile, pathlib
>>> from scorers.base import Score, ScoreItem, Scorer
>>> class Two(Scorer):
...     id = "two"
...     calls = 0
...     def _score_batch(self, items):
...         Two.calls += len(items)
...         return [Score.from_components(self.id, 2, 2, 2) for _ in items]
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> items = [ScoreItem("I'm sorry.", "I lost my job.")]
>>> [s.overall for s in score_cached(Two(), items, folder)]
[2.0]
>>> [s.overall for s in score_cached(Two(), items, folder)], Two.calls
([2.0], 1)
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path

from core.csvlog import CsvLog
from core.progress import Progress, silent
from scorers.base import Score, ScoreItem, Scorer
from scorers.rubric import load_rubric

#: Items scored per call to the scorer (progress is reported between batches).
BATCH = 8


def item_key(setting: str, item: ScoreItem, turns_setting: str = "") -> str:
    """The cache key of one item under one scorer setting (and, for a reply after earlier
    turns, the scorer's :attr:`~scorers.base.Scorer.turns_setting`)."""
    parts = [setting, item.message or "", item.reply]
    if item.history:  # a single message keeps the key it always had
        parts.append(item.context())
        if turns_setting:
            parts.append(turns_setting)
    blob = json.dumps(parts, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


def cache_path(folder: Path, scorer: Scorer) -> Path:
    """The CSV file holding ``scorer``'s cached scores under ``folder``."""
    setting = scorer.setting
    slug = re.sub(r"[^A-Za-z0-9.-]+", "_", scorer.id).strip("_")[:80]
    digest = hashlib.sha256(setting.encode("utf-8")).hexdigest()[:10]
    return folder / f"{slug}-{digest}.csv"


def _fields(scorer: Scorer) -> tuple[str, ...]:
    names = load_rubric(scorer.rubric_id).names
    return ("key", "scorer_id", "rubric_id", "prompt_version", *names, "spread", "rationale")


def _to_row(key: str, score: Score, fields: Sequence[str]) -> dict[str, object]:
    data = {"key": key, **score.to_dict()}
    return {k: "" if data.get(k) is None else data[k] for k in fields}


def _from_row(row: dict[str, str], names: Sequence[str]) -> Score:
    values = {n: float(row[n]) for n in names}
    return Score(
        scorer_id=row["scorer_id"],
        values=values,
        rubric_id=row["rubric_id"],
        spread=float(row["spread"]) if row.get("spread") else None,
        rationale=row.get("rationale") or None,
        prompt_version=row.get("prompt_version") or None,
        note="from the score cache",
    )


def read_cache(folder: Path, scorer: Scorer) -> dict[str, Score]:
    """Every cached score of ``scorer``'s setting, by item key."""
    path = cache_path(folder, scorer)
    if not path.is_file():
        return {}
    names = load_rubric(scorer.rubric_id).names
    log = CsvLog(path, _fields(scorer), what="score cache")
    return {row["key"]: _from_row(row, names) for row in log.read()}


def score_cached(
    scorer: Scorer,
    items: Sequence[ScoreItem],
    folder: Path | None,
    progress: Progress = silent,
    *,
    cached_only: bool = False,
) -> list[Score]:
    """Scores of ``items``, from ``folder``'s cache where present; new ``ok`` ones are added.

    ``folder`` None scores everything afresh and keeps nothing. With
    ``cached_only`` nothing is scored: items not in the cache come back
    unscored ("not in the score cache"), to report on a run still going.
    """
    setting, turns = scorer.setting, scorer.turns_setting
    keys = [item_key(setting, item, turns) for item in items]
    cached = read_cache(folder, scorer) if folder else {}
    results: list[Score | None] = [cached.get(k) for k in keys]
    todo = [i for i, s in enumerate(results) if s is None]
    if cached_only:
        missing = Score.unscored(scorer.id, "not in the score cache", rubric_id=scorer.rubric_id)
        return [s if s is not None else missing for s in results]
    log = None
    if folder and todo:
        folder.mkdir(parents=True, exist_ok=True)
        log = CsvLog(cache_path(folder, scorer), _fields(scorer), what="score cache")
    total = len(items)
    progress(total - len(todo), total, f"{scorer.id}: {total - len(todo)} from the cache")
    for start in range(0, len(todo), BATCH):
        batch = todo[start : start + BATCH]
        scores = scorer.score_many([items[i] for i in batch])
        for index, score in zip(batch, scores, strict=True):
            results[index] = score
        if log is not None:
            log.append_many(
                [
                    _to_row(keys[i], s, log.fields)
                    for i, s in zip(batch, scores, strict=True)
                    if s.ok
                ]
            )
        done = total - len(todo) + start + len(batch)
        progress(done, total, f"scoring with {scorer.id}")
    return [s for s in results if s is not None]
