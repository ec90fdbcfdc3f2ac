"""The personal stories the Stories and Resonance pages start from.

Two banks, and the pages say which is in use:

- **EmpathicStories** (Shen, Sap, Colon-Hernandez, Park, Breazeal, "Modeling
  Empathic Similarity in Personal Narratives", EMNLP 2023): 79 development-split
  stories with one crowd annotator's summaries of main event, emotion and moral
  and that annotator's rating of how much people could empathize with it
  (``empathizable``, 1–5). Released for research with no explicit licence, so it
  does not ship: it is used when installed under ``EMPATHY_LAB_DATA_DIR``
  (``empathic_stories/stories_dev.csv``).
- **This project's own stories** (``assets/data/own_stories.csv``): 16 short
  first-person stories written for the app, with their summaries and no human
  rating; they ship and are used otherwise.

>>> bank = load_stories()
>>> len(bank) > 0 and all(s.empathizable is None or 1 <= s.empathizable <= 5 for s in bank)
True
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from config import BUNDLED_DATA_DIR, EMPATHIC_STORIES_CSV

OWN_STORIES_FILE = BUNDLED_DATA_DIR / "own_stories.csv"
COLUMNS = (
    "story_id",
    "source",
    "story",
    "main_event",
    "emotion_description",
    "moral",
    "empathizable",
)
EMPATHIC_STORIES_CREDIT = (
    "Stories from EmpathicStories (development split): Shen, Sap, Colon-Hernandez, Park "
    "and Breazeal, “Modeling Empathic Similarity in Personal Narratives”, EMNLP 2023 "
    "(github.com/mitmedialab/empathic-stories), released for research. Summaries and the "
    "1–5 “Empathizable” rating are one crowd annotator's per story."
)
OWN_STORIES_CREDIT = (
    "Stories written for Empathy Lab (no human ratings). EmpathicStories (Shen et al., "
    "EMNLP 2023), with people's ratings, is not installed: its terms give no licence to "
    "ship it. To use it, set EMPATHY_LAB_DATA_DIR to a folder holding "
    "empathic_stories/stories_dev.csv (see docs/data.md)."
)


@dataclass(frozen=True)
class BundledStory:
    """One story of the bank in use, with its summaries and (maybe) a person's rating."""

    story_id: str
    source: str
    story: str
    main_event: str
    emotion_description: str
    moral: str
    empathizable: int | None

    @property
    def choice_label(self) -> str:
        """Short label for a dropdown: id and the story's opening words."""
        opening = " ".join(self.story.split()[:12])
        return f"{self.story_id}: {opening}…"


def stories_file() -> Path:
    """EmpathicStories when installed, else the project's own stories."""
    return EMPATHIC_STORIES_CSV if EMPATHIC_STORIES_CSV.is_file() else OWN_STORIES_FILE


def has_human_ratings() -> bool:
    """Whether the stories in use carry a person's empathy rating."""
    return stories_file() == EMPATHIC_STORIES_CSV


def attribution() -> str:
    """The credit line for the stories in use (and, for the own bank, how to add the other)."""
    return EMPATHIC_STORIES_CREDIT if has_human_ratings() else OWN_STORIES_CREDIT


def _rating(text: str | None) -> int | None:
    try:
        return int(float(text)) if text not in (None, "") else None
    except ValueError:
        return None


@lru_cache(maxsize=2)
def _load(path: Path) -> tuple[BundledStory, ...]:
    with path.open(encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if (r.get("story") or "").strip()]
    return tuple(
        BundledStory(
            **{k: r.get(k) or "" for k in COLUMNS[:-1]}, empathizable=_rating(r.get("empathizable"))
        )
        for r in rows
    )


def load_stories() -> tuple[BundledStory, ...]:
    """The stories in use, in file order."""
    return _load(stories_file())


def find_story(label_or_id: str) -> BundledStory | None:
    """The story with this id or dropdown label, or None."""
    for story in load_stories():
        if label_or_id in (story.story_id, story.choice_label):
            return story
    return None
