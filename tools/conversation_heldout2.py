"""Score the second held-out conversation set once with the shipped model (issue 32).

The 15 conversations ``h01``–``h15`` (``tools/conversation_data/heldout2_*``) were
written and rated by three LLM annotators after the conversation model shipped;
nothing was trained or tuned on them. This prints the annotators' α and the
same figures as ``tools/conversation_train.py --heldout``, for the head on the
last message, the conversation pasted as the message, and the shipped model.

    nice python tools/conversation_heldout2.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from conversation_train import CARD, DATA, features, report

from core.conversation import Turn
from scorers.base import COMPONENTS
from scorers.bert_head.context import read_context_model


def load() -> tuple[pd.DataFrame, pd.DataFrame, dict[str, list[Turn]]]:
    """The candidates with mean labels, every annotator's labels, and the turns."""
    convs = {}
    for line in (DATA / "heldout2_conversations.jsonl").read_text(encoding="utf-8").splitlines():
        c = json.loads(line)
        convs[c["conversation_id"]] = [Turn(t["role"], t["text"]) for t in c["turns"]]
    frames = []
    for path in sorted(DATA.glob("labels_H2_K*.csv")):
        frames.append(pd.read_csv(path).assign(annotator=path.stem))
    labels = pd.concat(frames, ignore_index=True)
    rows = pd.read_csv(DATA / "heldout2_candidates.csv")
    mean = labels.groupby("candidate_id")[list(COMPONENTS)].mean()
    rows = rows.join(mean, on="candidate_id", how="inner")
    rows["overall"] = rows[list(COMPONENTS)].mean(axis=1)
    return rows, labels, convs


def alpha(labels: pd.DataFrame) -> dict[str, float]:
    """Krippendorff's α (ordinal) per component."""
    import krippendorff

    return {
        c: round(
            float(
                krippendorff.alpha(
                    labels.pivot_table(
                        index="annotator", columns="candidate_id", values=c
                    ).to_numpy(float),
                    level_of_measurement="ordinal",
                )
            ),
            3,
        )
        for c in COMPONENTS
    }


def main() -> None:
    rows, labels, convs = load()
    print(f"{len(rows)} candidates, {rows.conversation_id.nunique()} conversations")
    print("annotators' α (ordinal):", alpha(labels))
    model = read_context_model()
    if model is None:
        sys.exit("no shipped conversation model (assets/models/head_context.json)")
    feats = features(rows, convs)
    shipped = model.predict(feats["last"], feats["measures"])
    figures = {}
    for name, pred in (
        ("head, last message", feats["last"]),
        ("head, conversation pasted as message", feats["pasted"]),
        (f"shipped model ({model.version})", shipped),
    ):
        figures[name] = report(rows, pred, ci=True)
        print(f"HELD-OUT-2  {name}: {figures[name]}")
    card = json.loads(CARD.read_text(encoding="utf-8"))  # the card keeps the second set's figures
    card["heldout2"] = f"{len(rows)} candidates, {rows.conversation_id.nunique()} conversations"
    card["heldout2_figures"] = figures
    CARD.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
