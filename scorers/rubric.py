"""Rubrics as data: which components a score has, on which scale, and how overall is made.

Each rubric is one JSON file in ``assets/rubrics/`` (``<id>.json``), with an
optional Markdown text that judges read. The counselling rubric (Cognitive,
Emotional, Behavioral on 1–3, overall = mean) is the default; story ratings
and empathic similarity declare their own.

>>> r = load_rubric("counselling")
>>> r.components, r.low, r.high
(('cognitive', 'emotional', 'behavioral'), 1, 3)
>>> r.overall_of({"cognitive": 1, "emotional": 2, "behavioral": 3})
2.0
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

from config import RUBRICS_DIR

DEFAULT_RUBRIC = "counselling"


@dataclass(frozen=True)
class Rubric:
    """Components, scale and level texts of one rubric."""

    id: str
    version: str
    title: str
    components: tuple[str, ...]
    low: int
    high: int
    #: "mean" (overall = mean of the components) or the name of one component.
    overall: str = "mean"
    labels: Mapping[str, str] = field(default_factory=dict)
    levels: Mapping[str, str] = field(default_factory=dict)
    text_file: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The components and ``overall`` (when it is not one of them)."""
        return self.components if self.overall in self.components else (*self.components, "overall")

    def label(self, name: str) -> str:
        """A readable name for a component ('Cognitive (understanding)')."""
        return self.labels.get(name, name.replace("_", " ").capitalize())

    def check(self, name: str, value: float) -> float:
        """``value`` as a float, or ValueError when it is outside the scale."""
        value = float(value)
        if not self.low <= value <= self.high:
            raise ValueError(f"{name} {value} is outside {self.low}–{self.high}")
        return value

    def overall_of(self, values: Mapping[str, float]) -> float:
        """Overall from the component values, as the rubric says."""
        if self.overall == "mean":
            return statistics.fmean(float(values[c]) for c in self.components)
        return float(values[self.overall])

    def text(self) -> str:
        """The rubric's text for judges ('' when it has none)."""
        if not self.text_file:
            return ""
        return (RUBRICS_DIR / self.text_file).read_text(encoding="utf-8").strip()


@cache
def load_rubric(rubric_id: str = DEFAULT_RUBRIC) -> Rubric:
    """The rubric in ``assets/rubrics/<rubric_id>.json``."""
    path = RUBRICS_DIR / f"{rubric_id}.json"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in RUBRICS_DIR.glob("*.json")))
        raise KeyError(f"unknown rubric {rubric_id!r}; known: {known}")
    data = json.loads(path.read_text(encoding="utf-8"))
    return Rubric(
        id=data["id"],
        version=str(data.get("version", "1")),
        title=data.get("title", data["id"]),
        components=tuple(data["components"]),
        low=int(data["scale"]["low"]),
        high=int(data["scale"]["high"]),
        overall=data.get("overall", "mean"),
        labels=data.get("labels", {}),
        levels=data.get("levels", {}),
        text_file=data.get("text"),
    )
