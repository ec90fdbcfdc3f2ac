"""The bundled personal stories: EmpathicStories' development split (79 stories).

Source: Shen, Sap, Colon-Hernandez, Park, Breazeal, "Modeling Empathic
Similarity in Personal Narratives" (EMNLP 2023), released for research with
the paper (``mitmedialab/empathic-stories``); no explicit licence. Each story
comes with one crowd annotator's summaries of its main event, emotion and
moral and that annotator's rating of how much people could empathize with it
(``empathizable``, 1–5). Rebuild with ``python tools/build_story_bank.py``.

>>> bank = load_stories()
>>> len(bank), bank[0].story_id
(79, 'dev-0')
>>> all(1 <= s.empathizable <= 5 for s in bank)
True
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache

from config import BUNDLED_DATA_DIR

STORIES_FILE = BUNDLED_DATA_DIR / "empathic_stories_dev.csv"
COLUMNS = (
    "story_id",
    "source",
    "story",
    "main_event",
    "emotion_description",
    "moral",
    "empathizable",
)
ATTRIBUTION = (
    "Stories from EmpathicStories (development split): Shen, Sap, Colon-Hernandez, Park "
    "and Breazeal, “Modeling Empathic Similarity in Personal Narratives”, EMNLP 2023 "
    "(github.com/mitmedialab/empathic-stories), released for research. Summaries and the "
    "1–5 “Empathizable” rating are one crowd annotator's per story."
)


@dataclass(frozen=True)
class BundledStory:
    """One bundled story with its annotator's summaries and rating."""

    story_id: str
    source: str
    story: str
    main_event: str
    emotion_description: str
    moral: str
    empathizable: int

    @property
    def choice_label(self) -> str:
        """Short label for a dropdown: id and the story's opening words."""
        opening = " ".join(self.story.split()[:12])
        return f"{self.story_id}: {opening}…"


@lru_cache(maxsize=1)
def load_stories() -> tuple[BundledStory, ...]:
    """The bundled stories, in file order."""
    with STORIES_FILE.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return tuple(
        BundledStory(**{**{k: r[k] for k in COLUMNS}, "empathizable": int(r["empathizable"])})
        for r in rows
    )


def find_story(label_or_id: str) -> BundledStory | None:
    """The bundled story with this id or dropdown label, or None."""
    for story in load_stories():
        if label_or_id in (story.story_id, story.choice_label):
            return story
    return None
