"""Train and measure how the empathy head reads the next turn of a conversation (issue 32).

Data: ``tools/conversation_data/`` (60 conversations written for this project, five
candidate next supporter turns each, rated on the rubric by independent LLM
annotators; ``heldout_conversations.txt`` names the 12 never trained or tuned on; a
second round of 40, ``more_*``, a third of 30, ``r3_*``, and a fourth of 30, ``r4_*``,
training only, each once its three label files exist).

    python tools/conversation_train.py            # α and grouped CV of every recipe
    python tools/conversation_train.py --save     # also the held-out figures, the model, its card

Recipes are compared by conversation-grouped 5-fold cross-validation on the
training conversations; the held-out conversations are scored once, by the
recipe CV chose. The labelled candidates are read by ``tools/conversation_labels.py``
and the models compared are in ``tools/conversation_recipes.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from config import CARDS_DIR
from core.conversation import Turn, transcript
from scorers.base import COMPONENTS, ScoreItem
from scorers.bert_head.context import (
    CONTEXT_MODEL,
    MEASURES,
    AnyContextModel,
    TreeContextModel,
    measures,
)
from scorers.bert_head.head import load_head
from tools.conversation_labels import DATA, ROUNDS, agreement, load_rows
from tools.conversation_recipes import RECIPES

CARD = CARDS_DIR / "head-context.json"


def features(rows: pd.DataFrame, convs: dict[str, list[Turn]]) -> dict[str, np.ndarray]:
    """The head's scores read three ways, and the measures, for every row."""
    head = load_head()
    head.context = None  # the plain head: what the model is trained on
    turns = [convs[c] for c in rows.conversation_id]
    last = [ScoreItem(r, t[-1].text) for r, t in zip(rows.text, turns, strict=True)]
    pasted = [ScoreItem(r, transcript(t)) for r, t in zip(rows.text, turns, strict=True)]
    ctx = [ScoreItem(r, t[-1].text, tuple(t[:-1])) for r, t in zip(rows.text, turns, strict=True)]

    def scores(items: list[ScoreItem]) -> np.ndarray:
        return np.array([[s.value(c) for c in COMPONENTS] for s in head.score_many(items)])

    return {"last": scores(last), "pasted": scores(pasted), "measures": measures(head.encoder, ctx)}


def report(rows: pd.DataFrame, pred: np.ndarray, ci: bool = False) -> dict[str, object]:
    """Spearman of overall (with a 95 % bootstrap interval when ``ci``), MSE per component,
    and how often the attentive turn beats the one that forgets."""
    from scipy.stats import bootstrap, spearmanr

    y = rows[list(COMPONENTS)].to_numpy()
    overall = pred.mean(1)
    out: dict[str, object] = {
        "spearman_overall": round(float(spearmanr(overall, rows.overall).statistic), 3)
    }
    if ci:
        found = bootstrap(
            (overall, rows.overall.to_numpy()),
            lambda a, b: spearmanr(a, b).statistic,
            paired=True,
            vectorized=False,
            n_resamples=2000,
            random_state=0,
        ).confidence_interval
        out["spearman_95ci"] = [round(float(found.low), 3), round(float(found.high), 3)]
    for k, c in enumerate(COMPONENTS):
        out[f"mse_{c}"] = round(float(((pred[:, k] - y[:, k]) ** 2).mean()), 3)
    frame = rows.assign(pred=overall)
    pairs = frame.pivot_table(index="conversation_id", columns="style", values="pred")
    wins = pairs.attentive > pairs.forgets
    out["attentive_beats_forgets"] = round(float(wins.mean()), 3)
    out["pairs"] = int(wins.size)
    return out


def cross_validate(rows: pd.DataFrame, feats: dict[str, np.ndarray]) -> dict[str, dict]:
    """Every recipe under conversation-grouped 5-fold CV of the training conversations."""
    from sklearn.model_selection import GroupKFold

    train = ~rows.heldout.to_numpy()
    sub, y = rows[train], rows[list(COMPONENTS)].to_numpy()[train]
    head, found = feats["last"][train], feats["measures"][train]
    out = {
        "head, last message": report(sub, head),
        "head, conversation pasted as message": report(sub, feats["pasted"][train]),
    }
    for recipe in RECIPES:
        pred = np.zeros_like(y, dtype=float)
        for tr, te in GroupKFold(5).split(head, y, sub.conversation_id):
            model = recipe.fit(head[tr], found[tr], y[tr])
            pred[te] = model.predict(head[te], recipe.columns(found[te]))
        out[recipe.name] = report(sub, pred)
    return out


#: What was tried beside the recipes in ``RECIPES`` and lost (conversation-grouped CV, the
#: same folds; docs/conversations.md), for the card.
TRIED = (
    "random forests 0.72-0.73, gradient boosting 0.72, an RBF kernel ridge 0.69 (overall "
    "Spearman, 2026-11-27, against 0.76 for the extra trees); the head's scores against all "
    "seeker turns joined, added to the ridge: +0.003; the reply's length: left out (length is "
    "not empathy, and the written generic replies are all short); an LLM judge with the "
    "conversation in its prompt gave every candidate the same scores"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--save", action="store_true", help="write the chosen model and card")
    parser.add_argument(
        "--heldout", action="store_true", help="score the held-out conversations (once, at the end)"
    )
    parser.add_argument(
        "--judge",
        help="instead: score the held-out candidates with this judge (e.g. judge) in context "
        "and with the last message only, and print its agreement and speed",
    )
    parser.add_argument(
        "--conversations", type=int, default=12, help="with --judge: this many held-out ones"
    )
    args = parser.parse_args()
    rows, convs = load_rows()
    print(f"{len(rows)} rated candidates, {rows.conversation_id.nunique()} conversations")
    if args.judge:
        held = rows[rows.heldout]
        keep = sorted(held.conversation_id.unique())[: args.conversations]
        measure_judge(args.judge, held[held.conversation_id.isin(keep)], convs)
        return
    alpha = {
        f"round {k}": agreement(pattern)
        for k, pattern in enumerate(ROUNDS.values(), start=1)
        if len(sorted(DATA.glob(pattern))) >= 3
    }
    print("annotators' α (ordinal), each round:", alpha)
    feats = features(rows, convs)
    cv = cross_validate(rows, feats)
    for name, figures in cv.items():
        print(f"CV  {name}: {figures}")
    # Chosen by the mean squared error over the components (what the head is trained on).
    recipe = min(RECIPES, key=lambda r: sum(cv[r.name][f"mse_{c}"] for c in COMPONENTS))
    train, held = ~rows.heldout.to_numpy(), rows.heldout.to_numpy()
    y = rows[list(COMPONENTS)].to_numpy()
    model = recipe.fit(feats["last"][train], feats["measures"][train], y[train])
    hold = {
        "head, last message": report(rows[held], feats["last"][held], ci=True),
        "head, conversation pasted as message": report(rows[held], feats["pasted"][held], ci=True),
        recipe.name: report(
            rows[held],
            model.predict(feats["last"][held], recipe.columns(feats["measures"][held])),
            ci=True,
        ),
    }
    if args.heldout or args.save:
        for name, figures in hold.items():
            print(f"HELD-OUT  {name}: {figures}")
    if args.save:
        if not recipe.measures:
            sys.exit("CV chose the head scores alone: no turn measures to ship; nothing saved")
        save(model, alpha, cv, hold, recipe.name, rows)


def measure_judge(spec: str, rows: pd.DataFrame, convs: dict[str, list[Turn]]) -> None:
    """A judge on the held-out candidates: read in the conversation, and on the last message."""
    import time

    from scorers.registry import get_scorer

    judge = get_scorer(spec)
    turns = [convs[c] for c in rows.conversation_id]
    ways = {
        "in context": [
            ScoreItem(r, t[-1].text, tuple(t[:-1])) for r, t in zip(rows.text, turns, strict=True)
        ],
        "last message only": [
            ScoreItem(r, t[-1].text) for r, t in zip(rows.text, turns, strict=True)
        ],
    }
    for way, items in ways.items():
        started = time.perf_counter()
        scores = judge.score_many(items)
        seconds = (time.perf_counter() - started) / len(items)
        ok = [s.ok for s in scores]
        pred = np.array([[s.value(c) or np.nan for c in COMPONENTS] for s in scores])
        figures = report(rows[ok], pred[ok], ci=True)
        print(
            f"JUDGE {judge.id} {way}: {figures}, {sum(ok)}/{len(ok)} scored, {seconds:.1f} s each",
            flush=True,
        )


def save(
    model: AnyContextModel, alpha: dict, cv: dict, hold: dict, chosen: str, rows: pd.DataFrame
) -> None:
    """Write the model and its card."""
    model.save(CONTEXT_MODEL)
    kind = "100 extra trees" if isinstance(model, TreeContextModel) else "ridge per component"
    card = {
        "scorer": "bert-head (in a conversation)",
        "what": f"{kind} over the head's scores for (reply, last message) and "
        f"measures of the reply against the earlier turns: {', '.join(MEASURES)}",
        "chosen": chosen,
        "labels": "LLM-annotated (three annotators, tools/conversation_data/BRIEF.md), not people",
        "annotator_alpha_ordinal": alpha,
        "trained_on": f"{int((~rows.heldout).sum())} candidates, "
        f"{rows[~rows.heldout].conversation_id.nunique()} conversations",
        "heldout": f"{int(rows.heldout.sum())} candidates, "
        f"{rows[rows.heldout].conversation_id.nunique()} conversations, never trained or tuned on",
        "tried_and_lost": TRIED,
        "cross_validation": cv,
        "heldout_figures": hold,
    }
    CARD.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {CONTEXT_MODEL} and {CARD}")


if __name__ == "__main__":
    main()
