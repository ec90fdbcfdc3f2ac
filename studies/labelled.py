"""Replies with human ratings: the bundled sets, or a user's CSV with a column mapping.

A :class:`LabelledSet` holds the items (reply and message), the human
ratings per compared name (``overall``, ``cognitive`` …) already mapped
linearly from the declared human scale onto the scorer's rubric scale, and
where they came from. Two sets ship in ``assets/data`` (see its README);
one is optional, because its terms give no licence to redistribute it:

- ``rubric-labels`` (ships): 1,024 replies scored on the rubric (1–3 per
  component; overall = their mean) by LLM annotators (three models, each reading every
  item; not people). The BERT
  head was trained on them: its agreement on this set is in-sample;
- ``welivita`` (ships, CC BY-NC source data): Welivita & Pu's
  EmpatheticDialogues openers, each with a human, a ChatGPT and an
  empathy-prompted ChatGPT reply rated 1–3 overall by people;
- ``epitome`` (optional, from ``EMPATHY_LAB_DATA_DIR``): Sharma et al. (EMNLP
  2020) Reddit replies with levels 0–2 of Emotional Reactions (compared with
  Emotional) and Interpretations (with Cognitive), mapped onto 1–3.

>>> s = from_rows([{"reply": "So sorry.", "message": "I lost my dog.", "r": "5"}],
...               {"overall": "r"}, scale=(1, 5))
>>> s.human["overall"].tolist(), s.items[0].message
([3.0], 'I lost my dog.')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from config import EPITOME_DIR, RUBRIC_LABELS_CSV, WELIVITA_CSV
from core import datasets
from core.ratings import RatingLog
from core.tables import read_csv
from scorers.agreement import rescale
from scorers.base import ScoreItem
from scorers.rubric import DEFAULT_RUBRIC, load_rubric
from studies.labelled_options import parse_mapping as parse_mapping  # offered here as before
from studies.labelled_options import parse_scale as parse_scale
from studies.labelled_subsets import ALL_SEEN as ALL_SEEN
from studies.labelled_subsets import subset as subset
from studies.labelled_subsets import unseen_by as unseen_by
from studies.labelled_subsets import without_ids as without_ids
from studies.ratings import load_ratings, per_reply, ratings_note

#: The bundled sets and what each one is, for menus and ``--help``.
BUNDLED: dict[str, str] = {
    "rubric-labels": "1,024 replies rated on this rubric by LLM annotators, not people (the head trained on them)",
    "welivita": "Welivita & Pu: human and ChatGPT replies rated 1–3 overall by people",
    "epitome": "EPITOME (Reddit): Emotional Reactions and Interpretations levels 0–2",
    "ratings-here": "Ratings made here: people's own ratings from the Compare page (Your rating)",
}
#: The largest upload read (rows); a bigger file is refused, not silently cut.
MAX_ROWS = 20_000


@dataclass(frozen=True)
class LabelledSet:
    """Items with human ratings on the rubric's scale, per compared name."""

    name: str
    items: list[ScoreItem]
    human: dict[str, np.ndarray]
    low: int
    high: int
    note: str = ""
    #: Anything per row worth keeping in the per-row CSV (ids, sources).
    extra: dict[str, list[str]] = field(default_factory=dict)
    rubric_id: str = DEFAULT_RUBRIC

    def __len__(self) -> int:
        return len(self.items)


def _number(value: object) -> float:
    if value is None:
        return math.nan
    text = str(value).strip()
    if not text:
        return math.nan
    try:
        number = float(text)
    except ValueError:
        return math.nan
    return number if math.isfinite(number) else math.nan


def read_rows(path: str | Path, max_bytes: int | None = None) -> list[dict[str, str]]:
    """An upload's rows; over ``max_bytes`` or :data:`MAX_ROWS` rows it is refused unread."""
    return read_csv(path, max_rows=MAX_ROWS, max_bytes=max_bytes)


def from_rows(
    rows: Sequence[Mapping[str, object]],
    mapping: Mapping[str, str],
    *,
    scale: tuple[int, int],
    rubric_id: str = DEFAULT_RUBRIC,
    name: str = "upload",
    reply_column: str = "reply",
    message_column: str = "message",
) -> LabelledSet:
    """A labelled set from CSV rows; ``mapping`` is compared name → human column.

    Cells that are empty or not numbers are missing ratings (dropped pair by
    pair); a rating outside the declared scale is an error that names it.
    """
    rubric = load_rubric(rubric_id)
    if not rows:
        raise ValueError("the file has no rows")
    if len(rows) > MAX_ROWS:
        raise ValueError(f"the file has {len(rows):,} rows; at most {MAX_ROWS:,} are read")
    if not mapping:
        raise ValueError("say which column holds the human ratings, e.g. overall=rating")
    columns = set(rows[0])
    for compared, column in mapping.items():
        if compared not in rubric.names:
            raise ValueError(
                f"{compared!r} is not on the rubric; use one of {', '.join(rubric.names)}"
            )
        if column not in columns:
            raise ValueError(
                f"no column {column!r} (columns: {', '.join(sorted(columns))}): say which "
                f"column holds the {compared} rating, as {compared}=<column>"
            )
    if reply_column not in columns:
        raise ValueError(f"no {reply_column!r} column (columns: {', '.join(sorted(columns))})")
    low, high = scale
    human: dict[str, np.ndarray] = {}
    for compared, column in mapping.items():
        raw = np.array([_number(r.get(column)) for r in rows])
        bad = np.flatnonzero(~np.isnan(raw) & ((raw < low) | (raw > high)))
        if len(bad):
            raise ValueError(
                f"column {column!r}, row {bad[0] + 2}: {raw[bad[0]]:g} is outside the declared "
                f"scale {low}:{high}"
            )
        human[compared] = rescale(raw, low, high, rubric.low, rubric.high)
    items = [
        ScoreItem(str(r.get(reply_column) or ""), str(r.get(message_column) or "") or None)
        for r in rows
    ]
    return LabelledSet(
        name, items, human, rubric.low, rubric.high, f"{len(items)} rows", rubric_id=rubric_id
    )


def _pick(df: pd.DataFrame, sample: int | None, seed: int) -> pd.DataFrame:
    if sample and sample < len(df):
        return df.sample(sample, random_state=seed).reset_index(drop=True)
    return df.reset_index(drop=True)


def _items(df: pd.DataFrame) -> list[ScoreItem]:
    return [
        ScoreItem(str(r), str(m) if isinstance(m, str) else None)
        for r, m in zip(df.reply, df.message, strict=True)
    ]


def _rubric_labels(sample: int | None, seed: int) -> LabelledSet:
    df = _pick(datasets.rubric_labels(), sample, seed)
    comps = ["cognitive", "emotional", "behavioral"]
    human = {c: df[c].to_numpy(dtype=float) for c in comps}
    human["overall"] = df[comps].to_numpy(dtype=float).mean(1)
    note = "LLM-annotated rubric labels (not people; the BERT head was trained on all 1,024)"
    extra = {"id": df.id.astype(str).tolist(), "source": df.source.astype(str).tolist()}
    return LabelledSet("rubric-labels", _items(df), human, 1, 3, note, extra)


def _welivita(sample: int | None, seed: int) -> LabelledSet:
    df = _pick(datasets.welivita_long(), sample, seed)
    note = "Welivita & Pu ratings (people, 1–3 overall; CC BY-NC source data)"
    extra = {"id": df.dialog_id.astype(str).tolist(), "source": ("welivita:" + df.kind).tolist()}
    human = {"overall": df.rating.to_numpy(dtype=float)}
    return LabelledSet("welivita", _items(df), human, 1, 3, note, extra)


def _epitome(sample: int | None, seed: int) -> LabelledSet:
    df = _pick(datasets.epitome_pairs(), sample, seed)
    human = {
        "emotional": rescale(df.level_er.to_numpy(dtype=float), 0, 2, 1, 3),
        "cognitive": rescale(df.level_ip.to_numpy(dtype=float), 0, 2, 1, 3),
    }
    note = "EPITOME levels 0–2 mapped onto 1–3 (Emotional Reactions → emotional, Interpretations → cognitive)"
    return LabelledSet("epitome", _items(df), human, 1, 3, note, {"id": df.id.tolist()})


def _ratings_here(sample: int | None, seed: int) -> LabelledSet:
    ratings = load_ratings()  # on a public server, this visitor's own (core.ratings.ratings_of)
    if ratings.empty:
        raise ValueError(NOT_INSTALLED["ratings-here"])
    df = _pick(per_reply(ratings), sample, seed)
    comps = ["cognitive", "emotional", "behavioral"]
    human = {c: df[c].to_numpy(dtype=float) for c in comps}
    human["overall"] = df[comps].to_numpy(dtype=float).mean(1)
    extra = {"id": df.item_id.astype(str).tolist(), "raters": df.n_raters.astype(str).tolist()}
    return LabelledSet("ratings-here", _items(df), human, 1, 3, ratings_note(ratings), extra)


_LOADERS = {
    "rubric-labels": _rubric_labels,
    "welivita": _welivita,
    "epitome": _epitome,
    "ratings-here": _ratings_here,
}


def load_bundled(name: str, sample: int | None = None, seed: int = 0) -> LabelledSet:
    """A bundled labelled set; ``sample`` rows drawn at random (seeded), else all in order."""
    if name not in _LOADERS:
        raise ValueError(f"unknown labelled set {name!r}; bundled: {', '.join(_LOADERS)}")
    if sample is not None and sample < 1:
        raise ValueError("the sample size must be at least 1")
    if not is_installed(name):
        raise ValueError(NOT_INSTALLED[name])
    return _LOADERS[name](sample, seed)


#: What to say when an optional set is absent, and how to add it.
NOT_INSTALLED: dict[str, str] = {
    "ratings-here": (
        "No ratings made here yet: rate replies on the Compare page (Your rating, under the "
        "replies), then come back to see how each scorer agrees with them."
    ),
    "epitome": (
        "The EPITOME set is not installed: its terms give no licence to redistribute it, so "
        "it does not ship with the app. To use it, get the three CSV files from its authors "
        "(Sharma et al., EMNLP 2020) and start the app with EMPATHY_LAB_DATA_DIR set to a "
        "folder that holds epitome/emotional-reactions-reddit.csv and "
        "epitome/interpretations-reddit.csv (see docs/data.md)."
    ),
}
#: The files each set reads (looked up when asked: the ratings log's folder is a setting).
_FILES: dict[str, Callable[[], list[Path]]] = {
    "rubric-labels": lambda: [RUBRIC_LABELS_CSV],
    "welivita": lambda: [WELIVITA_CSV],
    "epitome": lambda: [
        EPITOME_DIR / "emotional-reactions-reddit.csv",
        EPITOME_DIR / "interpretations-reddit.csv",
    ],
    "ratings-here": lambda: [RatingLog().path],
}


def is_installed(name: str) -> bool:
    """Whether the files of bundled set ``name`` are on this server.

    >>> is_installed("rubric-labels")
    True
    """
    return all(path.is_file() for path in _FILES[name]())


def bundled_choices() -> list[tuple[str, str]]:
    """(label, name) for menus: each set described, an absent one marked as not installed."""
    return [
        (f"{text}" + ("" if is_installed(name) else " — not installed"), name)
        for name, text in BUNDLED.items()
    ]
