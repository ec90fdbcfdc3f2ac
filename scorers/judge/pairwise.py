"""A pairwise judge: which of two replies to one message is more empathetic, in both orders.

The prompt is data (``assets/prompts/pairwise.json``, with a ``version``;
the rubric from ``assets/rubrics/counselling.md``); prompt, quoting, asking
and the cache are every judge's (:class:`scorers.judge.core.PromptedJudge`). Every pair is judged
twice, once as (A = first reply, B = second) and once swapped; both
verdicts are kept. Per component and overall the final verdict is the
agreed one (``"a"``, ``"b"`` or ``"tie"``) only when the two orders agree,
otherwise ``"inconsistent"``; when an order could not be read it is
``"unscored"``. The judge runs at temperature 0; replies are parsed
strictly with one fallback (the first JSON object in the text) and one
retry, as every judge does.

>>> parse_pairwise('{"rationale": "x", "cognitive": "A", "emotional": "tie", "behavioral": "B", "overall": "A"}')["behavioral"]
'B'
>>> parse_pairwise('{"cognitive": "C"}') is None
True
>>> final_verdict("A", "B"), final_verdict("A", "A"), final_verdict("tie", "tie"), final_verdict(None, "A")
('a', 'inconsistent', 'tie', 'unscored')
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from config import Keys
from responders.base import Responder, ResponderError, ResponderUnavailable
from scorers.judge.core import PromptedJudge, cache_key, load_judge_prompt
from scorers.judge.injection import neutralise
from scorers.rubric import DEFAULT_RUBRIC

PROMPT_NAME = "pairwise"
#: What a pairwise verdict covers: the rubric's components and overall.
NAMES: tuple[str, ...] = ("cognitive", "emotional", "behavioral", "overall")
MARKERS = ("MESSAGE", "REPLY A", "REPLY B", "REPLY")
_CHOICES = ("A", "B", "tie")
_SWAP = {"A": "b", "B": "a", "tie": "tie"}  # a second-order answer, in the pair's own labels


def load_prompt() -> dict[str, Any]:
    """The pairwise prompt, with the rubric filled in."""
    return load_judge_prompt(PROMPT_NAME, DEFAULT_RUBRIC)


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
    #: What was taken out of the quoted texts before judging (None when nothing was).
    note: str | None = None

    def flipped(self, name: str = "overall") -> bool | None:
        """True when the two orders disagree on ``name``; None when an order is missing."""
        if self.first is None or self.second is None:
            return None
        return self.final[name] == "inconsistent"


class PairwiseJudge(PromptedJudge):
    """Compares two replies with ``responder``, in both orders."""

    prompt_name: ClassVar[str] = PROMPT_NAME
    markers: ClassVar[tuple[str, ...]] = MARKERS

    def __init__(
        self,
        responder: Responder,
        *,
        keys: Keys | None = None,
        temperature: float = 0.0,
        max_tokens: int = 200,
    ) -> None:
        super().__init__(responder, keys=keys, temperature=temperature, max_tokens=max_tokens)
        self.id = f"pairwise/{responder.id}"

    def build_prompt(self, message: str | None, first: str, second: str) -> tuple[str, str]:
        """(system prompt, user prompt) with ``first`` shown as reply A."""
        prompt = self.prompt
        system = prompt["system"].format(rubric=prompt["rubric"])
        text = self.quote(message) if message else prompt["no_message"]
        user = prompt["user"].format(
            message=text, reply_a=self.quote(first), reply_b=self.quote(second)
        )
        return system, user

    def _ask(
        self, message: str | None, first: str, second: str
    ) -> tuple[dict[str, str] | None, str]:
        system, user = self.build_prompt(message, first, second)
        return self.answers.through(
            cache_key(self.id, system, user, self.temperature),
            lambda: self.ask_parsed(system, user, parse_pairwise),
            keep=lambda answer: answer[0] is not None,
        )

    def compare(self, message: str | None, reply_a: str, reply_b: str) -> PairVerdict:
        """Judge (a, b) and (b, a); the final verdict per name counts only when both agree.

        Text addressed to the rater is taken out of the message and both replies first,
        as for every other judge; the verdict's note says what was taken out.
        """
        version = self.prompt_version
        cleaned = [neutralise(t) for t in (message or "", reply_a, reply_b)]
        note = "; ".join(
            f"{where}: {c.note}"
            for where, c in zip(("message", "reply a", "reply b"), cleaned, strict=True)
            if c.note
        )
        message = cleaned[0].text if message else message
        reply_a, reply_b = cleaned[1].text, cleaned[2].text
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
                note=note or None,
            )
        final = {
            n: final_verdict(first[n] if first else None, second[n] if second else None)
            for n in NAMES
        }
        error = None if first and second else "the judge's answer could not be read"
        return PairVerdict(
            self.id, version, first, second, final, raw_first, raw_second, error, note or None
        )
