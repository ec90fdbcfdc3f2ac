"""Real conversations rated by experts: the study, its command and the ship rule it sets.

A conversation scorer reads turns by default only when it beat reading each turn alone on
Lend an Ear's expert ratings (the card ``cli.py experts --card`` writes); the study's
statistics are checked on a small file whose answers are known.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from config import LEND_AN_EAR_CSV, ROOT
from scorers.bert_head import context
from studies import experts


def write_file(path: Path, n: int = 8) -> Path:
    """``n`` conversations; the experts rate conversation k's validating k+1 (others 1), the
    crowd agrees, GPT reverses them."""
    fields = ["conversation_id", "rater", *experts.BEHAVIOURS, "full_conversation"]
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.DictWriter(fh, fields)
        out.writeheader()
        for k in range(n):
            text = f"Seeker: I lost job {k}.\nSupporter: Oh no.\n\nSeeker: Scared.\nSupporter: Yes."
            for rater, level in [
                ("expert1", k),
                ("expert2", k),
                ("expert3", k),
                ("crowd", k),
                ("gpt", n - k),
            ]:
                row = dict.fromkeys(experts.BEHAVIOURS, 1.0) | {"validating_emotions": level + 1}
                out.writerow(
                    row | {"conversation_id": k, "rater": rater, "full_conversation": text}
                )
    return path


def test_the_study_reads_every_supporter_turn_and_puts_raters_beside_the_experts(tmp_path):
    rated = experts.read_rated(write_file(tmp_path / "ear.csv"))
    assert len(rated) == 8
    items = experts.supporter_items(rated[0].conversation, experts.READINGS[0])
    assert [(i.reply, len(i.history)) for i in items] == [("Oh no.", 0), ("Yes.", 2)]
    refs = experts.references(rated, resamples=200)
    assert round(refs["expert1 vs the other two"].rho, 2) == 1.0
    assert round(refs["a crowd worker (ratings in the file)"].rho, 2) == 1.0
    assert round(refs["GPT-4o (ratings in the file)"].rho, 2) == -1.0
    found = np.arange(8.0)
    found[[2, 5]] = found[[5, 2]]  # two conversations out of order
    got = experts.agreement(found, experts.truth(rated), resamples=500)
    assert got.low <= got.rho <= got.high and 0.5 < got.rho < 1.0 and got.n == 8


def test_a_file_that_is_not_lend_an_ear_is_refused_in_plain_words(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("conversation_id,rater\n1,expert1\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "cli.py", "experts", "--input", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "lacks the columns" in result.stderr and "Traceback" not in result.stderr


def test_the_conversation_model_reads_turns_only_where_the_card_says_it_won(tmp_path):
    card = tmp_path / "card.json"
    assert context.model_ships(card) is False  # no card, no model
    card.write_text(json.dumps({"model_ships": True}), encoding="utf-8")
    assert context.model_ships(card) is True
    card.write_text(json.dumps({"model_ships": "yes"}), encoding="utf-8")
    assert context.model_ships(card) is False  # only a plain true


def test_the_shipped_card_and_the_default_head_follow_the_ship_rule():
    from scorers.bert_head.head import load_head

    card = json.loads(context.EXPERTS_CARD.read_text(encoding="utf-8"))
    assert "experts" in card["who_rated"] and card["conversations"] == 50
    gain = card["model_gain"]
    assert card["model_ships"] == (gain["low"] > 0)  # the rule: the whole interval above 0
    readings = set(card["rows"])
    assert {"bert-head with the conversation model", "bert-head, each turn alone"} <= readings
    assert (load_head().context is not None) == card["model_ships"]


@pytest.mark.skipif(not LEND_AN_EAR_CSV.exists(), reason="Lend an Ear is not in the data folder")
def test_the_command_prints_the_head_beside_the_experts_on_real_conversations(tmp_path):
    out = tmp_path / "report.json"
    result = subprocess.run(
        [
            sys.executable,
            "cli.py",
            "experts",
            "--limit",
            "12",
            "--boot",
            "200",
            "--output",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "bert-head, each turn alone" in result.stdout
    assert "expert1 vs the other two" in result.stdout and "ship" in result.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["conversations"] == 12 and data["command"].endswith("--limit 12")
