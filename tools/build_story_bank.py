"""Check the installed EmpathicStories copy the Stories and Resonance pages would use.

EmpathicStories does not ship (no licence to redistribute it): the pages read it
from ``EMPATHY_LAB_DATA_DIR/empathic_stories/stories_dev.csv`` when it is there,
and this project's own stories (``assets/data/own_stories.csv``) otherwise.

    python tools/build_story_bank.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.stories import attribution, has_human_ratings, load_stories, stories_file


def main() -> int:
    """Print which bank is in use and how many stories it holds."""
    bank = load_stories()
    rated = sum(s.empathizable is not None for s in bank)
    print(f"{stories_file()}: {len(bank)} stories, {rated} with a person's rating")
    print(attribution())
    return 0 if has_human_ratings() or bank else 1


if __name__ == "__main__":
    sys.exit(main())
