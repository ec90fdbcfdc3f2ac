"""Fine-tuning only the encoder's top layers, on hidden states computed once (a helper).

Helper module of ``lab/finetune_head.py`` (issue 20), not a script; nothing here ships.
Holds :class:`Frozen` (the hidden states entering the first trained layer, for every
row), :func:`build_top` (the top ``K`` layers and a three-score output),
:func:`train_top` and :func:`predict_top`: the ``topK`` variants' path through
cross-validation, about a third of the work of a full pass.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from lab.finetune_inputs import COMPONENTS, TrainConfig, Variant, batches, encode

if TYPE_CHECKING:
    import torch


class Frozen:
    """The hidden states entering the first trained layer, computed once for every row.

    With only the top ``K`` layers training, the layers below give the same
    output in every epoch and every fold: they run once here, and training
    runs the top layers alone (about a third of the work of a full pass).
    """

    def __init__(self, encoder: Path, df: pd.DataFrame, variant: Variant, cfg: TrainConfig):
        import torch
        from transformers import AutoModel, AutoTokenizer

        self.tokenizer = AutoTokenizer.from_pretrained(str(encoder))
        model = AutoModel.from_pretrained(str(encoder), dtype=torch.float32).eval()
        self.first = len(model.encoder.layer) - variant.layers
        self.enc = encode(self.tokenizer, df, variant, cfg)
        self.states: list = [None] * len(df)
        with torch.inference_mode():
            for chunk, batch in batches(self.enc, np.arange(len(df)), 32, self.tokenizer, "cpu"):
                hidden = model(**batch, output_hidden_states=True).hidden_states[self.first]
                for j, i in enumerate(chunk):
                    n = int(batch["attention_mask"][j].sum())
                    self.states[i] = hidden[j, :n].clone()

    def batch(self, chunk: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        """Padded states and a 0/1 mask for the rows in ``chunk``."""
        import torch

        width = max(len(self.states[i]) for i in chunk)
        dim = self.states[chunk[0]].shape[-1]
        hidden = torch.zeros((len(chunk), width, dim))
        mask = torch.zeros((len(chunk), width))
        for j, i in enumerate(chunk):
            n = len(self.states[i])
            hidden[j, :n], mask[j, :n] = self.states[i], 1
        return hidden, mask


def build_top(encoder: Path, variant: Variant) -> torch.nn.Module:
    """The top ``variant.layers`` layers of the encoder and a three-score output."""
    import torch
    from transformers import AutoModel

    class TopLayers(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            layers = AutoModel.from_pretrained(str(encoder), dtype=torch.float32).encoder.layer
            self.layers = torch.nn.ModuleList(layers[len(layers) - variant.layers :])
            self.out = torch.nn.Linear(layers[0].output.dense.out_features, 3)

        def forward(self, hidden, mask):
            extended = (1.0 - mask[:, None, None, :]) * torch.finfo(hidden.dtype).min
            for layer in self.layers:
                hidden = layer(hidden, attention_mask=extended)
                hidden = hidden[0] if isinstance(hidden, tuple) else hidden
            m = mask.unsqueeze(-1)
            pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1)
            return 1 + 2 * torch.sigmoid(self.out(pooled))

    return TopLayers()


def train_top(
    frozen: Frozen,
    df: pd.DataFrame,
    rows: np.ndarray,
    variant: Variant,
    cfg: TrainConfig,
    seed: int,
    encoder: Path,
) -> torch.nn.Module:
    """One top-layers model trained on ``rows`` from the frozen states."""
    import torch
    from transformers import get_linear_schedule_with_warmup

    torch.manual_seed(seed)
    model = build_top(encoder, variant)
    y = torch.tensor(df[list(COMPONENTS)].to_numpy(np.float32))
    opt = torch.optim.AdamW(
        [
            {"params": model.layers.parameters(), "lr": cfg.lr},
            {"params": model.out.parameters(), "lr": cfg.head_lr},
        ],
        weight_decay=0.01,
    )
    steps = cfg.epochs * -(-len(rows) // cfg.batch)
    sched = get_linear_schedule_with_warmup(opt, int(cfg.warmup * steps), steps)
    rng = np.random.default_rng(seed)
    model.train()
    for _ in range(cfg.epochs):
        order = rng.permutation(rows)
        for start in range(0, len(order), cfg.batch):
            chunk = order[start : start + cfg.batch]
            loss = torch.nn.functional.mse_loss(model(*frozen.batch(chunk)), y[chunk])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
    model.eval()
    return model


def predict_top(model: torch.nn.Module, frozen: Frozen, rows: np.ndarray) -> np.ndarray:
    """Scores of ``rows`` from a top-layers model, shape (len(rows), 3)."""
    import torch

    out = np.zeros((len(rows), 3))
    with torch.inference_mode():
        for start in range(0, len(rows), 32):
            chunk = rows[start : start + 32]
            out[start : start + len(chunk)] = model(*frozen.batch(chunk)).numpy()
    return out
