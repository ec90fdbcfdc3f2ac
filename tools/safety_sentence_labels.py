"""Which sentences of a training message carry the writer's own risk (issue 28).

Three LLM annotators (not people) read every training message of the safety
screen, split into numbered sentences as the screen splits them
(``safety_data/msg_sentence_items.csv``), and marked the risk sentences
(``msg_sentence_labels_T1/2/3.csv``; brief ``safety_data/BRIEF_SENTENCES.md``).
A second round (2026-11-27): three more annotators did the same for the 311 training
messages of the second CounselChat round (``msg_sentence_items2.csv``,
``msg_sentence_labels2_T1/2/3.csv``). A sentence is a risk sentence when most
annotators of its round marked it.

    python tools/safety_sentence_labels.py     # agreement (Krippendorff's alpha) and counts
"""

from __future__ import annotations

from pathlib import Path

import krippendorff
import pandas as pd

HERE = Path(__file__).resolve().parent / "safety_data"
ANNOTATORS = ("T1", "T2", "T3")
#: Each round's items file and the part of its label files' names before the annotator.
ROUNDS = {
    "first": ("msg_sentence_items.csv", "msg_sentence_labels_"),
    "second": ("msg_sentence_items2.csv", "msg_sentence_labels2_"),
}


def sentence_numbers(said: object) -> list[int]:
    """The sentence numbers an annotator wrote in one cell.

    >>> sentence_numbers("2;7"), sentence_numbers("4,5"), sentence_numbers("none")
    ([2, 7], [4, 5], [])
    """
    text = str(said).strip().lower()
    if text in ("none", "nan", ""):
        return []
    return [int(n) for n in text.replace(",", ";").split(";")]


def by_majority(votes: pd.DataFrame) -> pd.Series:
    """1 where most of the columns (one per annotator) hold a 1.

    >>> list(by_majority(pd.DataFrame({"a": [1, 1, 0], "b": [1, 0, 0], "c": [0, 1, 0]})))
    [1, 1, 0]
    """
    return (votes.sum(axis=1) >= votes.shape[1] // 2 + 1).astype(int)


def marks(round_name: str = "first") -> pd.DataFrame:
    """One row per sentence (message_key, n, sentence) of one round, one 0/1 column per
    annotator found."""
    items_file, prefix = ROUNDS[round_name]
    items = pd.read_csv(HERE / items_file)[["message_key", "n", "sentence"]]
    for name in ANNOTATORS:
        path = HERE / f"{prefix}{name}.csv"
        if not path.exists():
            continue
        marked = {
            (row.message_key, n)
            for row in pd.read_csv(path, dtype=str).itertuples()
            for n in sentence_numbers(row.risk_sentences)
        }
        keys = zip(items.message_key, items.n, strict=True)
        items[name] = [int(k in marked) for k in keys]
    return items


def round_labels(round_name: str) -> pd.DataFrame:
    """One round's sentences with ``risk``: 1 when most of its annotators marked it (an
    empty frame when the round has no label files yet)."""
    table = marks(round_name)
    found = [a for a in ANNOTATORS if a in table]
    if not found:
        return table.iloc[:0].assign(risk=0)
    return table.assign(risk=by_majority(table[found]))


def sentence_labels() -> dict[str, int]:
    """Sentence text -> 1 when most annotators marked it (of any message holding it), over
    every round with labels."""
    table = pd.concat([round_labels(name) for name in ROUNDS], ignore_index=True)
    if table.empty:
        raise SystemExit(f"no sentence labels in {HERE} (msg_sentence_labels*_T*.csv)")
    return table.groupby("sentence")["risk"].max().to_dict()


def main() -> None:
    for name in ROUNDS:
        table = marks(name)
        found = [a for a in ANNOTATORS if a in table]
        if not found:
            continue
        alpha = krippendorff.alpha(table[found].T.to_numpy(float), level_of_measurement="nominal")
        per_message = table.groupby("message_key")[found].max()
        msg_alpha = krippendorff.alpha(
            per_message.T.to_numpy(float), level_of_measurement="nominal"
        )
        marked = int(round_labels(name).risk.sum())
        print(
            f"{name} round: annotators {', '.join(found)}; {len(table)} sentences of "
            f"{len(per_message)} messages; alpha (nominal) sentences {alpha:.2f}, messages "
            f"with any risk sentence {msg_alpha:.2f}; risk sentences by majority {marked}"
        )


if __name__ == "__main__":
    main()
