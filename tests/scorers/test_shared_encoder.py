"""Issue 33: the empathy head and the safety screen read a reply's sentences from one
encoder (one encoding, one cache serves both on the Compare page), and a reply's vectors do
not depend on what else shares the encoder's pass (why the head stays in fp32)."""

from __future__ import annotations

from dataclasses import replace

from scorers.base import ScoreItem
from scorers.bert_head.features import split_sentences
from scorers.bert_head.head import load_head
from scorers.safety.model import screen_encoder


def test_the_head_and_the_safety_screen_read_one_encoder():
    head = load_head()
    assert head.encoder.quantize is None  # int8 vectors depend on what shares their pass
    assert head.encoder is screen_encoder()


def test_the_sentence_mean_recipe_encodes_each_sentence_and_the_message_not_the_whole_reply():
    """``whole_reply=False`` (tried for speed in issue 33, not shipped) reads the reply's words
    once: its sentences, never the whole reply again."""
    head = load_head()
    recipe = replace(head.recipe, whole_reply=False)
    reply = "That sounds so heavy. I'm glad you told me. What helps on the worst nights?"
    seen: list[str] = []
    real = head.encoder.encode

    def spy(texts, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.extend(texts)
        return real(texts, *args, **kwargs)

    head.encoder.encode = spy  # type: ignore[method-assign]
    try:
        recipe.build(head.encoder, [ScoreItem(reply, "I can't sleep since the accident.")])
    finally:
        del head.encoder.encode
    assert reply not in seen
    assert set(split_sentences(reply)) <= set(seen)
    assert "I can't sleep since the accident." in seen


def test_a_replys_features_do_not_depend_on_what_is_encoded_beside_it():
    """Why the head stays in fp32: int8 activation scales are set per encoder pass, so a
    reply's vectors (and scores, by up to 0.08) moved with the texts that shared its pass."""
    from scorers.bert_head.encoder import Encoder

    head = load_head()
    item = ScoreItem("I'm so sorry. That sounds lonely. Who have you been able to talk to?", "Hi")
    others = [
        ScoreItem(f"Reply {k}: take it one step at a time. " * (k + 1), "Hm") for k in range(6)
    ]

    def cold() -> Encoder:  # no cache: every text is encoded in this call's passes
        e = head.encoder
        return Encoder(e.path, e.name, quantize=e.quantize, runtime=e.runtime)

    alone = head.recipe.build(cold(), [item])
    together = head.recipe.build(cold(), [*others, item])[-1:]
    assert abs(alone - together).max() < 1e-4
