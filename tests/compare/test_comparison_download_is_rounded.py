"""Newcomer walk (issue 51, point 6): the Compare page's "Download this comparison (CSV and
JSON)" gave latencies and scores with 16 digits (``1.4861999943605042e-05``). Both files now
give every number as a person reads it: scores and seconds to two decimals."""

from __future__ import annotations

import json
import re

from core.tables import read_csv
from pages.compare_updates import export_comparison
from responders.base import GenerationSettings, Reply
from scorers.base import Score
from studies.comparison import Comparison, Panel
from studies.comparison_record import COLUMNS

RID = "local/qwen2.5-coder-1.5b"
#: A number written with more than two decimals, or in scientific notation.
UNREAD = re.compile(r"^-?\d+\.\d{3,}$|^-?[\d.]+e[-+]?\d+$", re.IGNORECASE)


def _shown() -> Comparison:
    """A comparison as the page keeps it: a cached reply (microseconds) and long floats."""
    settings = GenerationSettings(temperature=0.7000000000000001)
    reply = Reply(RID, "qwen", "I can't sleep.", settings, text="That sounds hard.")
    reply.latency_s, reply.first_token_s = 1.4861999943605042e-05, 0.123456789
    score = Score.from_components("bert-head", 2.123456789, 2.987654321, 1.3333333333)
    spread = Score.from_components("sampled", 2.0, 2.5, 1.0, spread=0.0312345678)
    panel = Panel(RID, "done", reply.text, reply=reply)
    scores = {(RID, "bert-head"): score, (RID, "sampled"): spread}
    return Comparison({RID: panel}, scores, 0)


def _numbers(value: object) -> list[object]:
    """Every number in a JSON document."""
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return [value] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


def test_the_csv_gives_scores_and_seconds_to_two_decimals() -> None:
    csv_path, _ = export_comparison({"comparison": _shown()})
    rows = read_csv(csv_path)
    assert len(rows) == 2
    cells = [row[c] for row in rows for c in COLUMNS if c not in ("reply", "message", "why")]
    assert [c for c in cells if UNREAD.match(c)] == []
    first = next(r for r in rows if r["scorer_id"] == "bert-head")
    assert first["latency_s"] == "0.0" and first["temperature"] == "0.7"
    assert (first["cognitive"], first["emotional"], first["behavioral"]) == ("2.12", "2.99", "1.33")
    assert first["overall"] == "2.15"


def test_the_json_rounds_the_same_way() -> None:
    _, json_path = export_comparison({"comparison": _shown()})
    with open(json_path, encoding="utf-8") as handle:
        document = json.load(handle)
    numbers = _numbers(document)
    assert numbers and all(round(n, 2) == n for n in numbers), numbers
    (reply,) = document["replies"]
    assert reply["latency_s"] == 0.0 and reply["first_token_s"] == 0.12
    assert {s["scorer_id"]: s["spread"] for s in reply["scores"]} == {
        "bert-head": None,
        "sampled": 0.03,
    }
