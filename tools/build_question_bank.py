"""Rebuild ``assets/data/counselchat_questions.jsonl`` from the shared CounselChat copy.

Picks about 100 questions spread over the topics (round-robin, in a seeded
order), each with its most up-voted therapist answer, and keeps attribution.
A question CounselChat lists under two topics (the same text, two ids) is
picked once: the picker would list it twice. The
only edit to an answer is the space the scrape dropped between sentences.

    python tools/build_question_bank.py [--n 100] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pandas as pd

from config import BUNDLED_DATA_DIR, COUNSELCHAT_CSV
from core.questions import QUESTIONS_FILE


def _restore_spaces(text: str) -> str:
    """The scraped answers lost the space between sentences ("hard.Try"): put it back."""
    return re.sub(r"([a-z][.!?])([A-Z])", r"\1 \2", text.strip())


def _text_key(text: str) -> str:
    """A question's text as the picker tells questions apart (spacing and case ignored)."""
    return " ".join(text.split()).casefold()


def build(n: int, seed: int) -> list[dict[str, object]]:
    """Choose ``n`` questions with their best-voted answers."""
    df = pd.read_csv(COUNSELCHAT_CSV)
    df = df[
        df.questionText.str.len().between(80, 1500) & df.answerText.str.len().between(200, 2500)
    ]
    best = df.sort_values(["upvotes", "views"], ascending=False).drop_duplicates("questionID")
    rng = random.Random(seed)
    by_topic: dict[str, list[dict]] = {}
    for row in best.to_dict("records"):
        by_topic.setdefault(row["topic"], []).append(row)
    for rows in by_topic.values():
        rng.shuffle(rows)
    chosen: list[dict] = []
    seen: set[str] = set()  # CounselChat lists some questions under two topics (two ids)
    topics = sorted(by_topic)
    while len(chosen) < n and any(by_topic.values()):
        for topic in topics:
            while by_topic[topic] and len(chosen) < n:
                row = by_topic[topic].pop()
                if _text_key(row["questionText"]) not in seen:  # a copy: that topic's next
                    seen.add(_text_key(row["questionText"]))
                    chosen.append(row)
                    break
    return [
        {
            "question_id": int(r["questionID"]),
            "title": r["questionTitle"].strip(),
            "question": " ".join(r["questionText"].split()),
            "topic": r["topic"],
            "answer": _restore_spaces(r["answerText"]),
            "therapist": " ".join(str(r["therapistInfo"]).split())[:160],
            "therapist_url": r["therapistURL"],
            "question_url": r["questionLink"],
            "upvotes": int(r["upvotes"]),
            "split": r["split"],
        }
        for r in sorted(chosen, key=lambda r: (r["topic"], r["questionID"]))
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rows = build(args.n, args.seed)
    BUNDLED_DATA_DIR.mkdir(parents=True, exist_ok=True)
    with QUESTIONS_FILE.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} questions to {QUESTIONS_FILE}")


if __name__ == "__main__":
    main()
