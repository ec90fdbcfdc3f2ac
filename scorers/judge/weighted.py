"""The local judge, probability-weighted: expected scores instead of one sampled integer.

G-Eval style. The local model reads the rubric, the message and the reply,
and its answer is written for it up to each score: after ``{"cognitive": ``
the model's next-token probabilities of "1", "2" and "3" are read (and
renormalised over those three), the score is their expected value
(1·p1 + 2·p2 + 3·p3), and the most likely digit is written in before the
next component, so each component is read in the context of the ones
before. A short rationale follows (greedy, a few words). A small model's
verdicts then stop being all 1s or all 3s, and its uncertainty shows.

Speed: the judge has its own llama.cpp context (``load_llama(…, "judge")``),
so the rubric's KV state stays cached between judgements and is not evicted
by the local responder; only the message and the reply are computed anew.
The prompt is data (``assets/prompts/judge_weighted.json``, rubric from
``assets/rubrics/counselling.md``), and the text is quoted between the same
defused markers as the sampled judge's. Four scored replies from the rubric
labels (low to high) anchor the scale; their ids are left out of evaluations.

>>> expected_score([0.0, 0.0, 5.0])
2.980...
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any

import numpy as np

from config import PROMPTS_DIR, RUBRICS_DIR
from scorers.base import COMPONENTS, Score, ScoreItem, Scorer
from scorers.judge.absolute import MARKERS
from scorers.judge.base import defuse
from scorers.judge.persona import Persona

PROMPT_FILE = PROMPTS_DIR / "judge_weighted.json"
RUBRIC_FILE = RUBRICS_DIR / "counselling.md"


@lru_cache(maxsize=1)
def load_prompt() -> dict[str, Any]:
    """The weighted judge's prompt, with the rubric filled in."""
    prompt = json.loads(PROMPT_FILE.read_text(encoding="utf-8"))
    prompt["rubric"] = RUBRIC_FILE.read_text(encoding="utf-8").strip()
    return prompt


def expected_score(logits: list[float] | np.ndarray) -> float:
    """Expected score from the logits of "1", "2", "3" (softmax over those three).

    >>> round(expected_score([0.0, 0.0, 0.0]), 3)
    2.0
    """
    z = np.asarray(logits, dtype=np.float64)
    p = np.exp(z - z.max())
    p /= p.sum()
    return float(p @ np.array([1.0, 2.0, 3.0]))


def anchors_text() -> str:
    """The scored examples from the rubric labels that the prompt shows (their ids are kept
    out of evaluations)."""
    prompt = load_prompt()
    shown = [prompt["anchor"].format(**a) for a in prompt.get("anchors", [])]
    return "\n\n".join([prompt["anchor_intro"], *shown]) if shown else ""


def anchor_ids() -> set[str]:
    """Ids (in the rubric labels) of the examples the prompt shows."""
    return {str(a["id"]) for a in load_prompt().get("anchors", [])}


def messages_for(item: ScoreItem, persona: Persona | None = None) -> list[dict[str, str]]:
    """The chat messages (system, user) for judging ``item``."""
    prompt = load_prompt()
    description = persona.describe() if persona else ""
    persona_text = prompt["persona"].format(description=description) if description else ""
    system = prompt["system"].format(
        rubric=prompt["rubric"], anchors=anchors_text(), persona=persona_text
    )
    message = defuse(item.message, MARKERS) if item.message else prompt["no_message"]
    user = prompt["user"].format(message=message, reply=defuse(item.reply, MARKERS))
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


class WeightedJudge(Scorer):
    """The packaged local model as a judge, scoring by expected value over 1–3."""

    cache_size = 5_000

    def __init__(
        self,
        model: str = "qwen2.5-coder-1.5b",
        *,
        persona: Persona | None = None,
        rationale_tokens: int = 24,
    ) -> None:
        self.model = model
        self.persona = persona
        self.rationale_tokens = rationale_tokens
        self.id = f"judge-weighted/local/{model}"
        self.label = f"Local judge, probability-weighted ({model})"
        self._cache: OrderedDict[str, Score] = OrderedDict()
        self._lock = threading.Lock()

    def unavailable_reason(self) -> str | None:
        from responders.local_llama import LocalLlamaResponder

        return LocalLlamaResponder(self.model).unavailable_reason()

    @property
    def prompt_version(self) -> str:
        """The prompt's version: part of this judge's setting (caches, calibrations)."""
        return str(load_prompt()["version"])

    def seen_ids(self) -> frozenset[str]:
        """The rubric-label rows shown in the prompt as anchors."""
        return frozenset(anchor_ids())

    def _score_batch(self, items: list[ScoreItem]) -> list[Score]:
        return [self._judge(item) for item in items]

    def _judge(self, item: ScoreItem) -> Score:
        from responders.local_llama import load_llama

        messages = messages_for(item, self.persona)
        key = json.dumps([self.id, messages, self.rationale_tokens])
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        llm, lock = load_llama(self.model, "judge")
        with lock:
            try:
                values, probs, rationale = self._read(llm, messages)
            except ValueError as exc:  # the prompt does not fit the context
                return Score.unscored(self.id, f"the local judge refused the prompt: {exc}")
        raw = json.dumps({"probabilities": probs, "rationale": rationale})
        score = Score.from_components(
            self.id,
            *values,
            rationale=rationale,
            raw=raw,
            prompt_version=load_prompt()["version"],
        )
        with self._lock:
            self._cache[key] = score
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return score

    def _read(
        self, llm: Any, messages: list[dict[str, str]]
    ) -> tuple[list[float], dict[str, list[float]], str]:
        from responders.local_llama import eval_reusing_prefix, last_logits

        prompt = load_prompt()
        text = _chat_prompt(llm, messages) + prompt["answer_prefix"]
        tokens = llm.tokenize(text.encode("utf-8"), add_bos=False, special=True)
        if len(tokens) + self.rationale_tokens + 24 > llm.n_ctx():
            raise ValueError(f"{len(tokens)} tokens do not fit a {llm.n_ctx()}-token context")
        digits = _digit_tokens(llm)
        eval_reusing_prefix(llm, tokens)
        values, probs = [], {}
        for index, name in enumerate(COMPONENTS):
            logits = last_logits(llm)[digits].astype(np.float64)
            p = np.exp(logits - logits.max())
            p /= p.sum()
            values.append(float(p @ np.array([1.0, 2.0, 3.0])))
            probs[name] = [round(float(x), 4) for x in p]
            follow = [digits[int(np.argmax(p))]]
            nxt = COMPONENTS[index + 1] if index + 1 < len(COMPONENTS) else None
            glue = prompt["between"][nxt] if nxt else prompt["rationale_prefix"]
            follow += llm.tokenize(glue.encode("utf-8"), add_bos=False, special=False)
            llm.eval(follow)
        return values, probs, self._rationale(llm)

    def _rationale(self, llm: Any) -> str:
        from responders.local_llama import last_logits

        pieces: list[bytes] = []
        for _ in range(self.rationale_tokens):
            token = int(np.argmax(last_logits(llm)))
            if token == llm.token_eos():
                break
            piece = llm.detokenize([token])
            if b'"' in piece:
                pieces.append(piece.split(b'"')[0])
                break
            pieces.append(piece)
            llm.eval([token])
        text = b"".join(pieces).decode("utf-8", errors="ignore").strip()
        return text + " …" if pieces and len(pieces) == self.rationale_tokens else text


def _chat_prompt(llm: Any, messages: list[dict[str, str]]) -> str:
    """The model's own chat template applied to ``messages``, ready for the answer."""
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    template = llm.metadata["tokenizer.chat_template"]
    eos = llm.detokenize([llm.token_eos()]).decode("utf-8", errors="ignore")
    formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token="")
    return formatter(messages=messages).prompt


def _digit_tokens(llm: Any) -> list[int]:
    ids = [llm.tokenize(d.encode(), add_bos=False, special=False) for d in "123"]
    if any(len(i) != 1 for i in ids):
        raise ValueError("this model does not spell the digits 1, 2, 3 as single tokens")
    return [i[0] for i in ids]
