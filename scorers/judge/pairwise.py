"""A pairwise judge: which of two replies to one message is more empathetic, in both orders.

The prompt is data (``assets/prompts/pairwise.json``, with a ``version``;
the rubric from ``assets/rubrics/counselling.md``). Every pair is judged
twice, once as (A = first reply, B = second) and once swapped; both
verdicts are kept. Per component and overall the final verdict is the
agreed one (``"a"``, ``"b"`` or ``"tie"``) only when the two orders agree,
otherwise ``"inconsistent"``; when an order could not be read it is
``"unscored"``. The judge runs at temperature 0; replies are parsed
strictly with one fallback (the first JSON object in the text) and one
retry, as the absolute judge does.

>>> parse_pairwise('{"rationale": "x", "cognitive": "A", "emotional": "tie", "behavioral": "B", "overall": "A"}')["behavioral"]
'B'
>>> parse_pairwise('{"cognitive": "C"}') is None
True
>>> final_verdict("A", "B"), final_verdict("A", "A"), final_verdict("tie", "tie"), final_verdict(None, "A")
('a', 'inconsistent', 'tie', 'unscored')
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from config import PROMPTS_DIR, RUBRICS_DIR, Keys
from responders.base import Responder, ResponderError, ResponderUnavailable

PROMPT_FILE = PROMPTS_DIR / "pairwise.json"
RUBRIC_FILE = RUBRICS_DIR / "counselling.md"
#: What a pairwise verdict covers: the rubric's components and overall.
NAMES: tuple[str, ...] = ("cognitive", "emotional", "behavioral", "overall")
_CHOICES = ("A", "B", "tie")
_SWAP = {"A": "b", "B": "a", "tie": "tie"}  # a second-order answer, in the pair's own labels
_MARKER = re.compile(r"<<<\s*(END\s+)?(MESSAGE|REPLY(\s+[AB])?)\s*>>>", re.IGNORECASE)


def _defuse(text: str) -> str:
    """Stop quoted text from opening or closing the prompt's markers (``<<<END REPLY A>>>``…).

    >>> _defuse("x <<<END REPLY A>>> y")
    'x « END REPLY A » y'
    """
    return _MARKER.sub(lambda m: m.group(0).replace("<<<", "« ").replace(">>>", " »"), text)


@lru_cache(maxsize=1)
def load_prompt() -> dict[str, Any]:
    """The pairwise prompt, with the rubric filled in."""
    prompt = json.loads(PROMPT_FILE.read_text(encoding="utf-8"))
    prompt["rubric"] = RUBRIC_FILE.read_text(encoding="utf-8").strip()
    return prompt


def parse_pairwise(text: str) -> dict[str, str] | None:
    """The verdicts in ``text`` ("A"/"B"/"tie" per name), or None when unreadable."""
    text = text.strip()
    data: object = None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        start = text.find("{")
        if start >= 0:
            try:
                data, _ = json.JSONDecoder().raw_decode(text[start:])
            except json.JSONDecodeError:
                data = None
    if not isinstance(data, dict):
        return None
    out = {}
    for name in NAMES:
        value = data.get(name)
        if not isinstance(value, str) or value.strip() not in _CHOICES:
            return None
        out[name] = value.strip()
    return out


def final_verdict(first: str | None, second: str | None) -> str:
    """The pair's verdict from the first order's and the swapped order's answers.

    ``first`` is in the pair's order (A = reply a); ``second`` was given with
    the replies swapped (A = reply b).
    """
    if first is None or second is None:
        return "unscored"
    mine = {"A": "a", "B": "b", "tie": "tie"}[first]
    return mine if mine == _SWAP[second] else "inconsistent"


@dataclass(frozen=True)
class PairVerdict:
    """Both orders' answers and the final verdict per name, for one pair of replies."""

    judge_id: str
    prompt_version: str
    #: Answers with reply a shown first ("A" means a), per name; None when unreadable.
    first: dict[str, str] | None
    #: Answers with reply b shown first ("A" means b), per name; None when unreadable.
    second: dict[str, str] | None
    final: dict[str, str] = field(default_factory=dict)
    raw_first: str = ""
    raw_second: str = ""
    error: str | None = None

    def flipped(self, name: str = "overall") -> bool | None:
        """True when the two orders disagree on ``name``; None when an order is missing."""
        if self.first is None or self.second is None:
            return None
        return self.final[name] == "inconsistent"


class PairwiseJudge:
    """Compares two replies with ``responder``, in both orders."""

    def __init__(
        self,
        responder: Responder,
        *,
        keys: Keys | None = None,
        temperature: float = 0.0,
        max_tokens: int = 200,
    ) -> None:
        self.responder = responder
        self.keys = keys
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.id = f"pairwise/{responder.id}"
        self._cache: dict[tuple[str, str, str], tuple[dict[str, str] | None, str]] = {}

    def unavailable_reason(self) -> str | None:
        """Why this judge cannot run now, with the fix; None when it can."""
        if not self.responder.can_judge:
            return f"{self.responder.id} cannot act as a judge"
        return self.responder.unavailable_reason(self.keys)

    def _prompt(self, message: str | None, first: str, second: str) -> tuple[str, str]:
        prompt = load_prompt()
        system = prompt["system"].format(rubric=prompt["rubric"])
        text = _defuse(message) if message else prompt["no_message"]
        user = prompt["user"].format(message=text, reply_a=_defuse(first), reply_b=_defuse(second))
        return system, user

    def _ask(
        self, message: str | None, first: str, second: str
    ) -> tuple[dict[str, str] | None, str]:
        key = (message or "", first, second)
        if key in self._cache:
            return self._cache[key]
        system, user = self._prompt(message, first, second)
        raws = []
        for attempt in range(2):
            text = user if attempt == 0 else user + "\n\n" + load_prompt()["retry_reminder"]
            raw = "".join(
                self.responder.generate(
                    text,
                    system=system,
                    max_tokens=self.max_tokens,
                    temperature=self.temperature,
                    keys=self.keys,
                    json_schema=load_prompt()["schema"],
                )
            )
            raws.append(raw)
            parsed = parse_pairwise(raw)
            if parsed is not None:
                self._cache[key] = (parsed, raw)
                return parsed, raw
        return None, "\n---\n".join(raws)

    def compare(self, message: str | None, reply_a: str, reply_b: str) -> PairVerdict:
        """Judge (a, b) and (b, a); the final verdict per name counts only when both agree."""
        version = load_prompt()["version"]
        try:
            first, raw_first = self._ask(message, reply_a, reply_b)
            second, raw_second = self._ask(message, reply_b, reply_a)
        except (ResponderError, ResponderUnavailable, ValueError) as exc:
            return PairVerdict(
                self.id,
                version,
                None,
                None,
                dict.fromkeys(NAMES, "unscored"),
                error=f"the judge failed: {exc}",
            )
        final = {
            n: final_verdict(first[n] if first else None, second[n] if second else None)
            for n in NAMES
        }
        error = None if first and second else "the judge's answer could not be read"
        return PairVerdict(self.id, version, first, second, final, raw_first, raw_second, error)
