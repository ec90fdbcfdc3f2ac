"""Prompt strategies as data."""

from __future__ import annotations

import pytest

from config import DEFAULT_SYSTEM_PROMPT
from studies.strategies import load_strategies, load_strategy, parse_strategies


def test_the_study_strategy_is_the_reference_prompt():
    assert load_strategy("study").system == DEFAULT_SYSTEM_PROMPT


def test_three_strategies_with_distinct_prompts_and_fingerprints():
    strategies = load_strategies()
    assert {"study", "chain-of-empathy", "reader-persona"} <= set(strategies)
    assert len({s.fingerprint for s in strategies.values()}) == len(strategies)


def test_chain_of_empathy_keeps_only_the_reply():
    coe = load_strategy("chain-of-empathy")
    output = "Emotion: lonely\nCause: moved city\nReply: That sounds hard.\nYou are not alone."
    assert coe.extract(output) == ("That sounds hard.\nYou are not alone.", "")
    reply, note = coe.extract("emotion: lonely\ncause: moved\nThat sounds hard.")
    assert reply == "That sounds hard." and "no 'Reply:' line" in note


def test_unknown_strategy_names_the_known_ones():
    with pytest.raises(KeyError, match="known: study"):
        parse_strategies("study,nope")
