"""Precompute the Adversarial lab's bundled examples so they show instantly.

    python tools/precompute_examples.py

Each example reply is perturbed every way (fixed rules, seed 0) and scored by
the default scorer; the page shows these results the moment an example is
picked and recomputes live on request. A test checks they still match a live
run, so a retrained scorer cannot leave stale numbers behind.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from config import BUNDLED_DATA_DIR
from perturbations.registry import PERTURBATIONS
from scorers.registry import get_scorer
from studies import robustness as rb

EXAMPLES_FILE = BUNDLED_DATA_DIR / "adversarial_examples.json"
PRECOMPUTED_FILE = BUNDLED_DATA_DIR / "adversarial_precomputed.json"
SCORER = "bert-head"
SEED = 0


def precompute(example: dict[str, str]) -> dict[str, object]:
    """One example's originals and rows, JSON-ready."""
    originals, rows = rb.perturb_one(
        example["reply"],
        example["message"],
        list(PERTURBATIONS.values()),
        [get_scorer(SCORER)],
        seed=SEED,
    )
    return {
        "scorer": SCORER,
        "seed": SEED,
        "originals": {sid: score.to_dict() for sid, score in originals.items()},
        "rows": [row.to_dict() for row in rows],
    }


def main() -> None:
    examples = json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))
    out = {e["name"]: precompute(e) for e in examples}
    PRECOMPUTED_FILE.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {len(out)} examples to {PRECOMPUTED_FILE}")


if __name__ == "__main__":
    main()
