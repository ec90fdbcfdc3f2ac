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
``assets/rubrics/counselling.md``); prompt, quoting, persona and the cache
are every judge's (:class:`scorers.judge.core.PromptedJudge`). Four scored replies from the rubric
labels (low to high) anchor the scale; their ids are left out of evaluations.

>>> expected_score([0.0, 0.0, 5.0])
2.980...
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import numpy as np

from scorers.base import COMPONENTS, Score, ScoreItem, Scorer
from scorers.judge.core import PromptedJudge, cache_key, load_judge_prompt
from scorers.judge.persona import Persona
from scorers.rubric import DEFAULT_RUBRIC

PROMPT_NAME = "judge_weighted"


def load_prompt() -> dict[str, Any]:
    """The weighted judge's prompt, with the rubric filled in."""
    return load_judge_prompt(PROMPT_NAME, DEFAULT_RUBRIC)


def digit_probabilities(logits: list[float] | np.ndarray) -> np.ndarray:
    """Probabilities of "1", "2", "3" from their logits (softmax over those three).

    >>> digit_probabilities([0.0, 0.0, 0.0]).round(3).tolist()
    [0.333, 0.333, 0.333]
    """
    z = np.asarray(logits, dtype=np.float64)
    p = np.exp(z - z.max())
    return p / p.sum()


def expected_score(logits: list[float] | np.ndarray) -> float:
    """Expected score 1·p1 + 2·p2 + 3·p3 from the logits of "1", "2", "3".

    >>> round(expected_score([0.0, 0.0, 0.0]), 3)
    2.0
    """
    return float(digit_probabilities(logits) @ np.array([1.0, 2.0, 3.0]))


def anchors_text() -> str:
    """The scored examples from the rubric labels that the prompt shows (their ids are kept
    out of evaluations)."""
    prompt = load_prompt()
    shown = [prompt["anchor"].format(**a) for a in prompt.get("anchors", [])]
    return "\n\n".join([prompt["anchor_intro"], *shown]) if shown else ""


def anchor_ids() -> set[str]:
    """Ids (in the rubric labels) of the examples the prompt shows."""
    return {str(a["id"]) for a in load_prompt().get("anchors", [])}


class WeightedJudge(PromptedJudge, Scorer):
    """The packaged local model as a judge, scoring by expected value over 1–3."""

    prompt_name: ClassVar[str] = PROMPT_NAME
    markers: ClassVar[tuple[str, ...]] = ("MESSAGE", "REPLY", "CONVERSATION SO FAR")

    def __init__(
        self,
        model: str | None = None,
        *,
        persona: Persona | None = None,
        rationale_tokens: int = 24,
    ) -> None:
        from responders.local_llama import LocalLlamaResponder

        model = model or LocalLlamaResponder.default_model
        super().__init__(LocalLlamaResponder(model), persona=persona)
        self.model = model
        self.rationale_tokens = rationale_tokens
        self.id = f"judge-weighted/local/{model}"
        self.label = f"Local judge, probability-weighted ({model})"

    def setting_parts(self) -> list[str]:
        """Its prompt's version and, when one is set, the reader persona (a persona changes
        the prompt, so its judgements are cached and calibrated apart)."""
        parts = [self.prompt_version]
        if self.persona:
            parts.append(f"persona={self.persona.describe()}")
        return parts

    def seen_ids(self) -> frozenset[str]:
        """The rubric-label rows shown in the prompt as anchors."""
        return frozenset(anchor_ids())

    def messages_for(self, item: ScoreItem) -> list[dict[str, str]]:
        """The chat messages (system, user) for judging ``item``."""
        prompt = self.prompt
        system = prompt["system"].format(
            rubric=prompt["rubric"], anchors=anchors_text(), persona=self.persona_paragraph()
        )
        message = self.quote(item.message) if item.message else prompt["no_message"]
        user = prompt["user"].format(message=message, reply=self.quote(item.reply))
        user = self.conversation_block(item.context()) + user
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def _score_batch(self, items: list[ScoreItem]) -> list[Score]:
        return [self._judge(item) for item in items]

    def _judge(self, item: ScoreItem) -> Score:
        messages = self.messages_for(item)
        key = cache_key(self.id, messages, self.rationale_tokens)
        return self.answers.through(key, lambda: self._read_score(messages), lambda s: s.ok)

    def _read_score(self, messages: list[dict[str, str]]) -> Score:
        from core.native_calls import ShuttingDown, native_call
        from responders.local_llama import load_llama

        try:
            llm, lock = load_llama(self.model, "judge")
            with lock, native_call():
                try:
                    values, probs, rationale = self._read(llm, messages)
                except ValueError as exc:  # the prompt does not fit the context
                    return Score.unscored(self.id, f"the local judge refused the prompt: {exc}")
        except ShuttingDown as exc:
            return Score.unscored(self.id, str(exc))
        raw = json.dumps({"probabilities": probs, "rationale": rationale})
        return Score.from_components(
            self.id, *values, rationale=rationale, raw=raw, prompt_version=self.prompt_version
        )

    def _read(
        self, llm: Any, messages: list[dict[str, str]]
    ) -> tuple[list[float], dict[str, list[float]], str]:
        from responders.local_llama import eval_reusing_prefix, last_logits

        prompt = self.prompt
        text = _chat_prompt(llm, messages) + prompt["answer_prefix"]
        tokens = llm.tokenize(text.encode("utf-8"), add_bos=False, special=True)
        if len(tokens) + self.rationale_tokens + 24 > llm.n_ctx():
            raise ValueError(f"{len(tokens)} tokens do not fit a {llm.n_ctx()}-token context")
        digits = _digit_tokens(llm)
        eval_reusing_prefix(llm, tokens)
        values, probs = [], {}
        for index, name in enumerate(COMPONENTS):
            logits = last_logits(llm)[digits]
            p = digit_probabilities(logits)
            values.append(expected_score(logits))
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
