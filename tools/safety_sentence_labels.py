"""Which sentences of a training message carry the writer's own risk (issue 28).

Three LLM annotators (not people) read every training message of the safety
screen, split into numbered sentences as the screen splits them
(``safety_data/msg_sentence_items.csv``), and marked the risk sentences
(``msg_sentence_labels_T1/2/3.csv``; brief ``safety_data/BRIEF_SENTENCES.md``).
A sentence is a risk sentence when most annotators marked it.

    python tools/safety_sentence_labels.py     # agreement (Krippendorff's alpha) and counts
"""

from __future__ import annotations

from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent / "safety_data"
ANNOTATORS = ("T1", "T2", "T3")


def marks() -> pd.DataFrame:
    """One row per sentence (message_key, n, sentence), one 0/1 column per annotator found."""
    items = pd.read_csv(HERE / "msg_sentence_items.csv")[["message_key", "n", "sentence"]]
    for name in ANNOTATORS:
        path = HERE / f"msg_sentence_labels_{name}.csv"
        if not path.exists():
            continue
        marked: set[tuple[str, int]] = set()
        for row in pd.read_csv(path, dtype=str).itertuples():
            said = str(row.risk_sentences).strip().lower()
            if said in ("none", "nan", ""):
                continue
            marked |= {(row.message_key, int(n)) for n in said.replace(",", ";").split(";")}
        keys = zip(items.message_key, items.n, strict=True)
        items[name] = [int(k in marked) for k in keys]
    return items


def sentence_labels() -> dict[str, int]:
    """Sentence text -> 1 when most annotators found marked it (of any message holding it)."""
    table = marks()
    found = [a for a in ANNOTATORS if a in table]
    if not found:
        raise SystemExit(f"no sentence labels in {HERE} (msg_sentence_labels_T*.csv)")
    risk = (table[found].sum(axis=1) >= len(found) // 2 + 1).astype(int)
    return table.assign(risk=risk).groupby("sentence")["risk"].max().to_dict()


def main() -> None:
    table = marks()
    found = [a for a in ANNOTATORS if a in table]
    alpha = krippendorff.alpha(table[found].T.to_numpy(float), level_of_measurement="nominal")
    labels = sentence_labels()
    per_message = table.groupby("message_key")[found].max()
    msg_alpha = krippendorff.alpha(per_message.T.to_numpy(float), level_of_measurement="nominal")
    print(f"annotators {', '.join(found)}; {len(table)} sentences of {len(per_message)} messages")
    print(
        f"alpha (nominal): sentences {alpha:.2f}, messages with any risk sentence {msg_alpha:.2f}"
    )
    print(f"risk sentences by majority: {int(np.sum(list(labels.values())))}")


if __name__ == "__main__":
    main()
