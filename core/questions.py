"""The bundled CounselChat questions and their licensed therapists' answers.

Source: CounselChat (nbertagnolli/counsel-chat, MIT-licensed repository);
each answer is a therapist's own text and is shown with their name and a link.
Rebuild with ``python tools/build_question_bank.py``.

>>> bank = load_questions()
>>> len(bank) >= 90
True
>>> q = bank[0]
>>> find_question(q.question) == q
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from config import BUNDLED_DATA_DIR

QUESTIONS_FILE = BUNDLED_DATA_DIR / "counselchat_questions.jsonl"


@dataclass(frozen=True)
class Question:
    """One bundled question with the therapist answer shown beside model replies."""

    question_id: int
    title: str
    question: str
    topic: str
    answer: str
    therapist: str
    therapist_url: str
    question_url: str
    upvotes: int
    split: str

    @property
    def choice_label(self) -> str:
        """Short label for a dropdown."""
        return f"[{self.topic}] {self.title}"[:110]

    @property
    def attribution(self) -> str:
        """Credit line for the therapist's answer."""
        return (
            f"Answer by {credit(self.therapist, self.therapist_url)} ({self.therapist_url}) on CounselChat, "
            f"question {self.question_url}; data: nbertagnolli/counsel-chat (MIT)."
        )


def credit(therapist: str, profile_url: str) -> str:
    """A therapist's name and title apart; CounselChat's scraped credit runs them together.

    The profile address spells the name (and often the letters after it), so the
    name ends where the credit stops matching the address.

    >>> credit("Sonya WilsonLicensed Professional Counselor", "https://x/therapists/sonya-wilson")
    'Sonya Wilson — Licensed Professional Counselor'
    >>> credit("Sherry Katz, LCSWCouples and Family Therapist", "https://x/sherry-katz-lcsw")
    'Sherry Katz, LCSW — Couples and Family Therapist'
    >>> credit("Jane Doe", "")
    'Jane Doe'
    """
    slug = re.sub(r"[^a-z0-9]", "", profile_url.rstrip("/").rpartition("/")[2].lower())
    cut = 0
    for i, char in enumerate(therapist, start=1):
        if char.isascii() and char.isalnum():
            if re.sub(r"[^a-z0-9]", "", therapist[:i].lower()) not in slug:
                break
            cut = i
    name, title = therapist[:cut].strip(" ,"), therapist[cut:].strip(" ,")
    return f"{name} — {title}" if len(name) >= 3 and title else therapist


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


@lru_cache(maxsize=1)
def load_questions() -> tuple[Question, ...]:
    """All bundled questions, in file order."""
    with QUESTIONS_FILE.open(encoding="utf-8") as fh:
        return tuple(Question(**json.loads(line)) for line in fh if line.strip())


@lru_cache(maxsize=1)
def _index() -> dict[str, Question]:
    return {_key(q.question): q for q in load_questions()}


def find_question(message: str) -> Question | None:
    """The bundled question whose text matches ``message`` (spacing and case ignored)."""
    return _index().get(_key(message))


def by_label(label: str) -> Question | None:
    """The bundled question shown under ``label`` in a dropdown."""
    return next((q for q in load_questions() if q.choice_label == label), None)
