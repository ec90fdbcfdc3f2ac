"""Tried and lost (issue 28): reply safety as a fine-tuned MiniLM cross-encoder
(message, reply) -> unsafe, message-grouped 5-fold CV on the screen's own folds.

    python tools/safety_finetune_probe.py --prepare /tmp/probe      # weights, messages
    python tools/safety_crossencoder_probe.py --prepare /tmp/probe  # + the labelled replies
    cp tools/safety_crossencoder_probe.py /tmp/probe/ && PROBE_DIR=/tmp/probe \
        python /tmp/probe/safety_crossencoder_probe.py            # a GPU: about 3 minutes

Compared with the shipped screen at its own operating point (CV: 233/261 unsafe caught,
80/295 safe flagged): the cross-encoder's safe-flagged rate at the same recall.
Held-out (own set, 64 replies): scored once, by the CV-chosen variant, at the threshold
keeping 85 % / 89 % recall in CV.
"""

import json
import os
import time

import numpy as np
import pandas as pd
import torch
from sklearn.metrics import roc_auc_score
from transformers import AutoModel, AutoTokenizer

HERE = os.environ.get("PROBE_DIR", os.path.dirname(os.path.abspath(__file__)))
OUT = os.environ.get("OUT", "/tmp/out")
DEV = "cuda" if torch.cuda.is_available() else "cpu"
tok = rows = held = None  # read in main()
MAXLEN = 384


class Cross(torch.nn.Module):
    def __init__(self, top):
        super().__init__()
        self.enc = AutoModel.from_pretrained(os.path.join(HERE, "minilm"), dtype=torch.float32).to(
            DEV
        )
        self.lin = torch.nn.Linear(384, 1).to(DEV)
        if top is not None:
            for name, p in self.enc.named_parameters():
                p.requires_grad = any(f"layer.{k}." in name for k in range(6 - top, 6))

    def forward(self, messages, replies):
        b = tok(
            list(messages),
            list(replies),
            padding=True,
            truncation="longest_first",
            max_length=MAXLEN,
            return_tensors="pt",
        ).to(DEV)
        h = self.enc(**b).last_hidden_state
        m = b["attention_mask"].unsqueeze(-1).float()
        return self.lin((h * m).sum(1) / m.sum(1)).squeeze(-1)


def train(msgs, reps, y, seed, lr, epochs, top):
    torch.manual_seed(seed)
    np.random.seed(seed)
    msgs, reps, y = list(msgs), list(reps), np.asarray(y, float)
    model = Cross(top)
    pos = y.sum()
    pw = torch.tensor((len(y) - pos) / max(pos, 1), device=DEV)
    opt = torch.optim.AdamW(
        [p for p in model.parameters() if p.requires_grad], lr=lr, weight_decay=0.01
    )
    steps = epochs * int(np.ceil(len(y) / 16))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / (0.1 * steps)) * max(0.0, 1 - s / steps)
    )
    for _ in range(epochs):
        order = np.random.permutation(len(y))
        model.train()
        for i in range(0, len(y), 16):
            idx = order[i : i + 16]
            logit = model([msgs[j] for j in idx], [reps[j] for j in idx])
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                logit, torch.tensor(y[idx], device=DEV, dtype=torch.float32), pos_weight=pw
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
    model.eval()
    return model


def predict(model, msgs, reps):
    msgs, reps = list(msgs), list(reps)
    with torch.no_grad():
        return np.concatenate(
            [
                torch.sigmoid(model(msgs[i : i + 64], reps[i : i + 64])).cpu().numpy()
                for i in range(0, len(msgs), 64)
            ]
        )


def at_recall(y, p, recall):
    thr = np.quantile(p[y == 1], 1 - recall)
    return float(thr), int(((p >= thr) & (y == 1)).sum()), int(((p >= thr) & (y == 0)).sum())


VARIANTS = {
    "top2_lr1e-4_e8": dict(lr=1e-4, epochs=8, top=2),
    "full_lr5e-5_e10": dict(lr=5e-5, epochs=10, top=None),
}


def prepare(folder: str) -> None:
    """Write the labelled replies with the screen's folds and the own held-out replies."""
    import sys
    from pathlib import Path

    sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).parent)]
    from safety_train import HERE as DATA
    from safety_train import load_sets
    from sklearn.model_selection import GroupKFold

    df = load_sets(["dev", "dev2", "made", "cc"])
    df["fold"] = 0
    for k, (_, test) in enumerate(GroupKFold(n_splits=5).split(df, groups=df.group)):
        df.loc[df.index[test], "fold"] = k
    columns = ["group", "message", "reply", "reply_safe", "concerns", "fold", "set"]
    df[df.has_reply][columns].to_csv(Path(folder) / "train_replies.csv", index=False)
    held_out = pd.read_csv(DATA / "heldout_labels.csv")
    held_out[["message", "reply", "reply_safe", "concerns"]].to_csv(
        Path(folder) / "heldout_replies.csv", index=False
    )


def main():
    global tok, rows, held
    import sys

    if sys.argv[1:2] == ["--prepare"]:
        prepare(sys.argv[2])
        return
    tok = AutoTokenizer.from_pretrained(os.path.join(HERE, "minilm"))
    rows = pd.read_csv(os.path.join(HERE, "train_replies.csv"))
    held = pd.read_csv(os.path.join(HERE, "heldout_replies.csv"))
    t0 = time.time()
    y = (rows.reply_safe == 0).to_numpy(int)
    folds = rows.fold.to_numpy()
    seeds = [0, 1]
    res, oof = {}, {}
    for name, kw in VARIANTS.items():
        p = np.zeros((len(seeds), len(y)))
        for si, seed in enumerate(seeds):
            for k in range(5):
                tr, te = np.flatnonzero(folds != k), np.flatnonzero(folds == k)
                m = train(rows.message.iloc[tr], rows.reply.iloc[tr], y[tr], seed, **kw)
                p[si, te] = predict(m, rows.message.iloc[te], rows.reply.iloc[te])
                del m
            print(
                name,
                "seed",
                seed,
                "auc",
                round(roc_auc_score(y, p[si]), 3),
                f"{time.time() - t0:.0f}s",
                flush=True,
            )
        q = p.mean(0)
        oof[name] = q
        thr, caught, flagged = at_recall(y, q, 233 / 261)
        res[name] = {
            "auc": round(roc_auc_score(y, q), 3),
            "caught@screen_recall": f"{caught}/{int(y.sum())}",
            "safe_flagged@screen_recall": f"{flagged}/{int((y == 0).sum())}",
            "seed_aucs": [round(roc_auc_score(y, r), 3) for r in p],
        }
        for s in rows.set.unique():
            mask = (rows.set == s).to_numpy()
            res[name][f"auc_{s}"] = round(roc_auc_score(y[mask], q[mask]), 3)
        print(name, json.dumps(res[name]), flush=True)
    best = max(res, key=lambda n: res[n]["auc"])
    print("chosen by CV:", best, flush=True)
    hp = np.mean(
        [
            predict(
                train(rows.message, rows.reply, y, s, **VARIANTS[best]), held.message, held.reply
            )
            for s in seeds
        ],
        axis=0,
    )
    hy = (held.reply_safe == 0).to_numpy(int)
    hres = {"auc": round(roc_auc_score(hy, hp), 3)}
    for rec in (0.85, 233 / 261):
        thr, _, _ = at_recall(y, oof[best], rec)
        hres[f"caught@cv_thr_{rec:.2f}"] = f"{int(((hp >= thr) & (hy == 1)).sum())}/{int(hy.sum())}"
        hres[f"safe_flagged@cv_thr_{rec:.2f}"] = (
            f"{int(((hp >= thr) & (hy == 0)).sum())}/{int((hy == 0).sum())}"
        )
    print("held-out", best, json.dumps(hres), flush=True)
    os.makedirs(OUT, exist_ok=True)
    pd.DataFrame({"group": rows.group, **{f"oof_{k}": v for k, v in oof.items()}}).to_csv(
        f"{OUT}/reply_oof.csv", index=False
    )
    with open(f"{OUT}/reply_results.json", "w") as f:
        json.dump({"cv": res, "chosen": best, "heldout": hres}, f, indent=1)
    print(f"done {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
