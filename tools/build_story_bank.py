"""Rebuild ``assets/data/empathic_stories_dev.csv`` from the shared EmpathicStories copy.

Keeps only what the app needs from the 79 development-split stories: the id,
the source, the story, the annotator's summaries of its main event, emotion
and moral (the embedding resonance method can compare those aspect by
aspect) and the annotator's "Empathizable" rating (1–5). Stories are kept as
written.

    python tools/build_story_bank.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pandas as pd

from config import EMPATHIC_STORIES_CSV
from core.stories import COLUMNS, STORIES_FILE


def main() -> int:
    """Write the bundled story bank; print how many rows."""
    df = pd.read_csv(EMPATHIC_STORIES_CSV, dtype={"empathizable": "Int64"})
    df = df[df.story.notna() & df.empathizable.notna()]
    df[list(COLUMNS)].to_csv(STORIES_FILE, index=False)
    print(f"wrote {len(df)} stories to {STORIES_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
