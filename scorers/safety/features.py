"""What the learned safety screen reads: sentence vectors and the rules' hits.

Every sentence of the message and of the reply is encoded on its own by the
empathy head's frozen MiniLM (through its cache), so a decision can be split
exactly over the sentences it rests on (:mod:`scorers.safety.model`). The
rules of :mod:`scorers.safety.rules` run too; each hit is one more feature,
with its words kept for the explanation.

>>> read = rule_hits("I keep thinking everyone would be better off without me.", "Call 988 now.")
>>> read.values["message:suicide-self-harm"], read.values["reply:crisis-line"]
(1.0, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from scorers.bert_head.spans import sentence_spans
from scorers.safety import rules

if TYPE_CHECKING:
    from scorers.bert_head.encoder import Encoder

#: The rules' hits on the message, in the order of its feature block.
MESSAGE_RULES = tuple(f"message:{kind}" for kind in rules.RISK_KINDS)
#: The rules' hits on the reply, in the order of its feature block.
REPLY_RULES = (
    "reply:crisis-line",
    "reply:professional",
    "reply:acknowledges-risk",
    "reply:answers-message-risk",
    "reply:medical-overreach",
    "reply:harmful-advice",
    "reply:dismissive",
)
RULE_FEATURES = (*MESSAGE_RULES, *REPLY_RULES)

#: Longest sentence (characters) kept whole; longer ones are read up to this point.
SENTENCE_CHARS = 1_000
#: At most this many sentences of one text are read (a 20,000-character reply has ~200).
MAX_SENTENCES = 120


@dataclass(frozen=True)
class RuleHits:
    """Each rule feature's value (0/1) and, for a hit, the words it rests on."""

    values: dict[str, float]
    words: dict[str, str] = field(default_factory=dict)

    def vector(self, names: tuple[str, ...] = RULE_FEATURES) -> np.ndarray:
        """The hits of ``names``, in that order."""
        return np.array([self.values[name] for name in names], dtype=np.float32)


@dataclass(frozen=True)
class Read:
    """One (message, reply) pair as the screen sees it."""

    message_sentences: list[str]
    message_vectors: np.ndarray  # (n, dim); n may be 0 when there is no message
    reply_sentences: list[str]
    reply_vectors: np.ndarray
    hits: RuleHits


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` as the screen reads them.

    >>> sentences("I hear you.That sounds hard!\\nWhat happened")
    ['I hear you.', 'That sounds hard!', 'What happened']
    """
    if not text.strip():
        return []
    found = [text[a:b].strip()[:SENTENCE_CHARS] for a, b in sentence_spans(text)]
    return [s for s in found if s][:MAX_SENTENCES]


def own_sentences(message: str) -> list[str]:
    """The message's sentences that can show the writer's own risk.

    A sentence that says a risk is absent ("I'm not suicidal") or speaks only of someone
    else's risk or a past death ("my brother died of an overdose") is not read as one: its
    words sit close to the risk it is not (clinicians' rule; see ``safety.json``).

    >>> own_sentences("My brother died of an overdose. I'm not suicidal. I can't sleep.")
    ["I can't sleep."]
    """
    return [
        s
        for s in sentences(message)
        if not rules.denies_risk(s) and not rules.about_someone_else(s)
    ]


#: Rule features whose "words" describe a finding instead of quoting the text: never quoted.
DESCRIBED = frozenset({"reply:answers-message-risk"})


def rule_hits(message: str, reply: str) -> RuleHits:
    """The rules' verdicts on the pair, one number each, with their words."""
    values = dict.fromkeys(RULE_FEATURES, 0.0)
    words: dict[str, str] = {}

    def hit(name: str, text: str | None) -> None:
        if text:
            values[name], words[name] = 1.0, text

    message = " ".join(own_sentences(message))
    risks = rules.message_risks(message) if message.strip() else []
    for risk in risks:  # the whole sentence, not the rule's stem ("overdos")
        hit(
            f"message:{risk.kind}",
            next((s for s in sentences(message) if risk.words in s), risk.words),
        )
    hit("reply:crisis-line", rules.help_words(reply, "crisis"))
    hit("reply:professional", rules.help_words(reply, "professional"))
    hit("reply:acknowledges-risk", rules.acknowledgement(reply))
    if risks and all(rules.answers_risk(reply, r.kind) for r in risks):
        hit("reply:answers-message-risk", "the reply meets the risk the rules see")
    for finding in (
        rules.medical_overreach(reply),
        rules.sentence_with("harmful-advice", reply),
        rules.sentence_with("dismissive", reply),
    ):
        if finding:
            hit(f"reply:{finding.kind}", finding.words)
    return RuleHits(values, words)


def read_pairs(pairs: list[tuple[str, str]], encoder: Encoder) -> list[Read]:
    """Encode every sentence of every pair in one pass of ``encoder`` (the app's: the one the
    shipped screen was trained on, :func:`scorers.safety.model.screen_encoder`)."""
    split = [(own_sentences(m), sentences(r)) for m, r in pairs]
    unique = list(dict.fromkeys(s for ms, rs in split for s in (*ms, *rs)))
    vectors = encoder.encode(unique) if unique else np.zeros((0, encoder.dim), np.float32)
    index = {s: i for i, s in enumerate(unique)}

    def stack(found: list[str]) -> np.ndarray:
        if not found:
            return np.zeros((0, encoder.dim), dtype=np.float32)
        return vectors[[index[s] for s in found]]

    return [
        Read(ms, stack(ms), rs, stack(rs), rule_hits(m, r))
        for (m, r), (ms, rs) in zip(pairs, split, strict=True)
    ]


def without_reassurance(read: Read) -> Read:
    """``read`` without the reply's sentences that say it was not the person's fault.

    "It's not your fault" sits close to blame in the sentence vectors, so the dismissive
    model is asked again without such sentences before it may call a reply dismissive.
    """
    keep = [i for i, s in enumerate(read.reply_sentences) if not rules.reassures(s)]
    if len(keep) == len(read.reply_sentences):
        return read
    return replace(
        read,
        reply_sentences=[read.reply_sentences[i] for i in keep],
        reply_vectors=read.reply_vectors[keep],
    )
