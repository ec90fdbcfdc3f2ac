"""Score a later held-out conversation set once with the shipped model (issue 32).

The second set, 15 conversations ``h01``–``h15`` (``tools/conversation_data/heldout2_*``,
labels ``labels_H2_K*.csv``), was written and rated by three LLM annotators after the
conversation model shipped; the third, 12 conversations ``z01``–``z12`` (``heldout3_*``,
``labels_H3_K*.csv``), after the second; the fourth, 15 conversations ``y01``–``y15``
(``heldout4_*``, ``labels_H4_K*.csv``), after the third. Nothing was trained or tuned on
any of them.
This prints the annotators' α and the same figures as ``tools/conversation_train.py
--heldout``, for the head on the last message, the conversation pasted as the message,
and the shipped model, and writes them into the card.

    nice python tools/conversation_heldout2.py                 # the second set
    nice python tools/conversation_heldout2.py --set heldout3  # the third (heldout4: the fourth)
    nice python tools/conversation_heldout2.py --set all       # every held-out one together
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from conversation_train import CARD, DATA, features, report

from core.conversation import Turn
from scorers.base import COMPONENTS
from scorers.bert_head.context import read_context_model

#: Each later held-out set: its file prefix -> its annotators' label files.
SETS = {
    "heldout2": "labels_H2_K*.csv",
    "heldout3": "labels_H3_K*.csv",
    "heldout4": "labels_H4_K*.csv",
}


def load(name: str = "heldout2") -> tuple[pd.DataFrame, pd.DataFrame, dict[str, list[Turn]]]:
    """The candidates with mean labels, every annotator's labels, and the turns."""
    convs = {}
    for line in (DATA / f"{name}_conversations.jsonl").read_text(encoding="utf-8").splitlines():
        c = json.loads(line)
        convs[c["conversation_id"]] = [Turn(t["role"], t["text"]) for t in c["turns"]]
    frames = []
    for path in sorted(DATA.glob(SETS[name])):
        frames.append(pd.read_csv(path).assign(annotator=path.stem))
    labels = pd.concat(frames, ignore_index=True)
    rows = pd.read_csv(DATA / f"{name}_candidates.csv")
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


def every_heldout() -> tuple[pd.DataFrame, pd.DataFrame, dict[str, list[Turn]]]:
    """Every held-out conversation in one frame: the first round's fifth and each later set
    (the annotators' labels are left out: each set has its own annotators)."""
    from conversation_train import load_rows

    rows, convs = load_rows()
    frames = [rows[rows.heldout].drop(columns=["round", "heldout"])]
    for name in SETS:
        more, _, turns = load(name)
        frames.append(more)
        convs.update(turns)
    return pd.concat(frames, ignore_index=True), pd.DataFrame(), convs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--set",
        choices=[*sorted(SETS), "all"],
        default="heldout2",
        dest="name",
        help="a later held-out set, or all: every held-out conversation together",
    )
    name = parser.parse_args().name
    rows, labels, convs = every_heldout() if name == "all" else load(name)
    print(f"{len(rows)} candidates, {rows.conversation_id.nunique()} conversations")
    if not labels.empty:
        print("annotators' α (ordinal):", alpha(labels))
    model = read_context_model()
    if model is None:
        sys.exit("no shipped conversation model (assets/models/head_context.json)")
    feats = features(rows, convs)
    shipped = model.predict(feats["last"], feats["measures"])
    figures = {}
    for way, pred in (
        ("head, last message", feats["last"]),
        ("head, conversation pasted as message", feats["pasted"]),
        (f"shipped model ({model.version})", shipped),
    ):
        figures[way] = report(rows, pred, ci=True)
        print(f"{name.upper()}  {way}: {figures[way]}")
    card = json.loads(CARD.read_text(encoding="utf-8"))  # the card keeps each set's figures
    name = "heldout_all" if name == "all" else name
    card[name] = f"{len(rows)} candidates, {rows.conversation_id.nunique()} conversations"
    card[f"{name}_figures"] = figures
    CARD.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
