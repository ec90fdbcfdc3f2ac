"""Does the injection defence leave ordinary replies alone? Every bundled and labelled text.

    python tools/injection_corpus.py [--show 5]

Reads every reply and message this project bundles (the bundled questions and
their therapists' answers, the shipped rubric labels) and, when
``../shared/data`` is there, CounselChat, EPITOME, Welivita & Pu and the
safety set; prints how many texts were read, how many the defence would
change (anything removed) and how many it would judge both ways (rating talk
kept as a suspect). The target for both is 0.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pandas as pd

from config import ROOT
from core.datasets import rubric_labels
from core.questions import load_questions
from scorers.judge.injection import neutralise, suspects

SHARED = ROOT.parent / "shared" / "data"
#: Text columns of the shared sets, by file (read only when the file is there).
SHARED_COLUMNS = {
    "counselchat/counsel_chat.csv": ("questionText", "answerText"),
    "epitome/emotional-reactions-reddit.csv": ("seeker_post", "response_post"),
    "epitome/explorations-reddit.csv": ("seeker_post", "response_post"),
    "epitome/interpretations-reddit.csv": ("seeker_post", "response_post"),
    "welivita/ratings_shared.csv": (
        "speaker_uttr",
        "response_human",
        "response_chatgpt",
        "response_chatgpt_empathy",
    ),
    "safety/safety_dev.csv": ("message", "reply"),
}


def ordinary_texts(shared: Path = SHARED) -> Iterator[tuple[str, str]]:
    """``(source, text)`` for every distinct bundled or labelled text (shared sets when present)."""
    seen: set[str] = set()

    def fresh(source: str, texts: object) -> Iterator[tuple[str, str]]:
        for text in texts:  # type: ignore[attr-defined]
            if isinstance(text, str) and text.strip() and text not in seen:
                seen.add(text)
                yield source, text

    questions = load_questions()
    yield from fresh("bundled questions", (q.question for q in questions))
    yield from fresh("bundled answers", (q.answer for q in questions))
    labels = rubric_labels()
    yield from fresh("rubric labels", [*labels.message, *labels.reply])
    for name, columns in SHARED_COLUMNS.items():
        path = shared / name
        if path.exists():
            frame = pd.read_csv(path, usecols=list(columns))
            for column in columns:
                yield from fresh(name, frame[column])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--show", type=int, default=5, help="examples of each kind to print")
    args = parser.parse_args()
    read, changed, judged = 0, [], []
    for source, text in ordinary_texts():
        read += 1
        result = neutralise(text)
        if result.removed or result.text != text:
            changed.append((source, result.removed))
        elif suspects(text):
            judged.append((source, suspects(text)))
    print(f"{read} distinct texts read")
    print(f"changed (something removed): {len(changed)}  (target 0)")
    for source, removed in changed[: args.show]:
        print(f"  {source}: {removed}")
    print(f"judged both ways (rating talk kept as a suspect): {len(judged)}  (target 0)")
    for source, pieces in judged[: args.show]:
        print(f"  {source}: {pieces}")


if __name__ == "__main__":
    main()
