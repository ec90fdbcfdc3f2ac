"""Which sentences of a training reply carry its concern (issue 28, safety-screen-v3.2).

Three LLM annotators (not people) read every training reply that the reply annotators
found harmful, over-reaching or dismissive, with 40 safe replies among them, each split
into numbered sentences as the screen splits it (``safety_data/reply_sentence_items.csv``;
brief ``safety_data/BRIEF_REPLY_SENTENCES.md``), and marked the sentences that carry each
concern (``reply_sentence_labels_U1/2/3.csv``). A sentence carries a concern when most
annotators marked it.

    python tools/safety_reply_sentence_labels.py --make-items   # write the items (once)
    python tools/safety_reply_sentence_labels.py                # agreement and counts
"""

from __future__ import annotations

import argparse
import sys
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import krippendorff
import numpy as np
import pandas as pd

from tools.safety_sentence_labels import by_majority, sentence_numbers
from tools.safety_sets import load_sets

HERE = Path(__file__).resolve().parent / "safety_data"
ITEMS = HERE / "reply_sentence_items.csv"
ANNOTATORS = ("U1", "U2", "U3")
#: The concern names in the label files' columns, as the screen names them.
COLUMNS = {
    "harmful_advice": "harmful-advice",
    "overreach": "medical-overreach",
    "dismissive": "dismissive",
}
SAFE_DISTRACTORS = 40


def make_items(seed: int = 20261127) -> pd.DataFrame:
    """Every training reply with a sentence-level concern, and some safe ones, shuffled."""
    from scorers.safety.features import sentences

    df = load_sets(["dev", "dev2", "made"])
    df = df[df.has_reply].drop_duplicates(["message", "reply"])
    concerned = df.concerns.str.contains("|".join(COLUMNS.values()))
    safe = df[df.reply_safe == 1].sample(SAFE_DISTRACTORS, random_state=seed)
    chosen = pd.concat([df[concerned], safe]).sample(frac=1.0, random_state=seed)
    rows = []
    for k, item in enumerate(chosen.itertuples()):
        for n, sentence in enumerate(sentences(item.reply), start=1):
            rows.append((f"P{k:03d}", n, sentence, item.message, item.reply))
    return pd.DataFrame(rows, columns=["reply_key", "n", "sentence", "message", "reply"])


def marks() -> pd.DataFrame:
    """One row per reply sentence, a 0/1 column per annotator found and concern
    (``U1:dismissive``, …)."""
    items = pd.read_csv(ITEMS)[["reply_key", "n", "sentence", "reply"]]
    keys = list(zip(items.reply_key, items.n, strict=True))
    for name in ANNOTATORS:
        path = HERE / f"reply_sentence_labels_{name}.csv"
        if not path.exists():
            continue
        said = pd.read_csv(path, dtype=str).set_index("reply_key")
        for column in COLUMNS:
            marked = {
                (key, n) for key, value in said[column].items() for n in sentence_numbers(value)
            }
            items[f"{name}:{column}"] = [int(k in marked) for k in keys]
    return items


def found_annotators(table: pd.DataFrame) -> list[str]:
    """The annotators whose label files were read into ``table``."""
    return [a for a in ANNOTATORS if f"{a}:dismissive" in table]


def concern_labels(concern: str) -> dict[tuple[str, str], int]:
    """(reply, sentence) -> 1 when most annotators marked the sentence for ``concern``
    (a screen name such as ``"harmful-advice"``)."""
    column = {v: k for k, v in COLUMNS.items()}[concern]
    table = marks()
    found = found_annotators(table)
    if not found:
        raise SystemExit(f"no reply sentence labels in {HERE} (reply_sentence_labels_U*.csv)")
    table = table.assign(mark=by_majority(table[[f"{a}:{column}" for a in found]]))
    return {(r.reply, r.sentence): int(r.mark) for r in table.itertuples()}


@cache
def marked_sentences(concern: str) -> dict[str, frozenset[str]]:
    """Reply text -> the sentences most annotators marked for ``concern`` (every annotated
    reply is a key, with an empty set when none was marked). Read once: every fold of a
    cross-validation asks for it."""
    out: dict[str, set[str]] = {}
    for (reply, sentence), mark in concern_labels(concern).items():
        out.setdefault(reply, set())
        if mark:
            out[reply].add(sentence)
    return {reply: frozenset(found) for reply, found in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--make-items", action="store_true", help="write the items file")
    args = parser.parse_args()
    if args.make_items:
        items = make_items()
        items.to_csv(ITEMS, index=False)
        print(f"{ITEMS.name}: {items.reply_key.nunique()} replies, {len(items)} sentences")
        return
    table = marks()
    found = found_annotators(table)
    print(
        f"annotators {', '.join(found)}; {len(table)} sentences of "
        f"{table.reply_key.nunique()} replies"
    )
    for column, concern in COLUMNS.items():
        cols = [f"{a}:{column}" for a in found]
        alpha = krippendorff.alpha(table[cols].T.to_numpy(float), level_of_measurement="nominal")
        marked = int(np.sum(list(concern_labels(concern).values())))
        print(f"{concern:18s} alpha (nominal, sentences) {alpha:.2f}; marked by majority {marked}")


if __name__ == "__main__":
    main()
