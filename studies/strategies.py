"""Prompt strategies as data: how a responder is asked to reply in a batch.

Strategies live in ``assets/prompts/strategies.json``. Each has a system
prompt; a strategy that reasons before replying (Chain of Empathy) declares a
``reply_marker``, and :meth:`Strategy.extract` keeps only the text after the
last line that starts with it. When the model ignores the format, the lines
that start with a reasoning label are dropped, the rest is kept, and the
note says so (the whole output is always kept as ``raw_reply``).

>>> coe = load_strategy("chain-of-empathy")
>>> coe.extract("Emotion: grief\\nCause: her dog died\\nReply: I am so sorry.")
('I am so sorry.', '')
>>> coe.extract("Emotion: grief\\nI'm so sorry.")[1]
"no 'Reply:' line: reasoning lines dropped, the rest kept"
>>> load_strategy("study").extract("Hello")
('Hello', '')
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache

from config import PROMPTS_DIR

STRATEGIES_FILE = PROMPTS_DIR / "strategies.json"
DEFAULT_STRATEGY = "study"


@dataclass(frozen=True)
class Strategy:
    """One way of asking for a reply: a system prompt and, maybe, a reply marker."""

    id: str
    label: str
    description: str
    system: str
    reply_marker: str | None = None
    reasoning_labels: tuple[str, ...] = ()
    version: str = ""

    @property
    def fingerprint(self) -> str:
        """A short hash of everything that changes what the model is asked."""
        text = json.dumps([self.system, self.reply_marker, list(self.reasoning_labels)])
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def extract(self, output: str) -> tuple[str, str]:
        """``(reply, note)``: the part of ``output`` that is the reply, and what was done."""
        if not self.reply_marker:
            return output.strip(), ""
        marker = self.reply_marker.casefold()
        lines = output.splitlines()
        starts = [i for i, line in enumerate(lines) if line.strip().casefold().startswith(marker)]
        if starts:
            first = lines[starts[-1]].strip()[len(self.reply_marker) :]
            reply = "\n".join([first, *lines[starts[-1] + 1 :]]).strip()
            return reply, ""
        labels = tuple(label.casefold() for label in self.reasoning_labels)
        kept = [line for line in lines if not line.strip().casefold().startswith(labels)]
        note = f"no {self.reply_marker!r} line: reasoning lines dropped, the rest kept"
        return "\n".join(kept).strip(), note


@lru_cache(maxsize=1)
def load_strategies() -> dict[str, Strategy]:
    """Every strategy in the data file, by id, in file order."""
    data = json.loads(STRATEGIES_FILE.read_text(encoding="utf-8"))
    version = str(data.get("version", ""))
    out = {}
    for sid, spec in data["strategies"].items():
        out[sid] = Strategy(
            id=sid,
            label=spec["label"],
            description=spec.get("description", ""),
            system=spec["system"],
            reply_marker=spec.get("reply_marker") or None,
            reasoning_labels=tuple(spec.get("reasoning_labels") or ()),
            version=version,
        )
    return out


def load_strategy(strategy_id: str) -> Strategy:
    """One strategy; KeyError naming the known ones otherwise."""
    strategies = load_strategies()
    if strategy_id not in strategies:
        known = ", ".join(strategies)
        raise KeyError(f"unknown strategy {strategy_id!r}; known: {known}")
    return strategies[strategy_id]


def parse_strategies(spec: str) -> list[Strategy]:
    """Strategies from a comma-separated list (``all`` for every one).

    >>> [s.id for s in parse_strategies("study, chain-of-empathy")]
    ['study', 'chain-of-empathy']
    """
    if spec.strip() == "all":
        return list(load_strategies().values())
    ids = list(dict.fromkeys(s.strip() for s in spec.split(",") if s.strip()))
    if not ids:
        raise KeyError("name at least one strategy")
    return [load_strategy(sid) for sid in ids]
