"""Issue 30, walk 4: the Adversarial lab's "strip empathy" took advice sentences away with the
warmth. Too broad patterns: "important"/"enough" anywhere before a "you" ("It's also
important to reach out to friends who can support you"), any "take care" ("take care of
the paperwork"), any "carrying", "going through" or "hug". Only the warm phrases go now."""

from __future__ import annotations

import pytest

from perturbations.registry import get_perturbation
from perturbations.strip_empathy import is_empathic

ADVICE = [
    "It's important that you get enough sleep each night.",
    "It's also important to reach out to friends and family who can support you.",
    "Getting enough sleep can help you feel steadier.",
    "Try to take care of the paperwork first, then call the bank.",
    "Consider carrying a small notebook to write down what sets it off.",
    "Going through old photos can help; set aside 20 minutes.",
    "A hug from a friend can help, so ask for one.",
]
WARM = [
    "You are loved.",
    "You are enough just as you are.",
    "Your feelings are important too.",
    "Take care of yourself.",
    "Sending hugs.",
    "You've been carrying this alone.",
    "What you're going through is so hard.",
    "Be kind to yourself.",
]


@pytest.mark.parametrize("sentence", ADVICE)
def test_a_concrete_advice_sentence_survives(sentence):
    assert not is_empathic(sentence)


@pytest.mark.parametrize("sentence", WARM)
def test_an_empathic_phrase_goes(sentence):
    assert is_empathic(sentence)


def test_the_perturbation_keeps_the_advice_of_a_mixed_reply():
    reply = (
        "I'm so sorry you're dealing with this. You are loved. It's also important to reach "
        "out to friends and family who can support you. Try to take care of the paperwork "
        "first, then call the bank."
    )
    stripped = get_perturbation("strip-empathy")(reply, seed=0).text
    assert stripped == (
        "It's also important to reach out to friends and family who can support you. "
        "Try to take care of the paperwork first, then call the bank."
    )
