"""The Adversarial lab's bundled examples: strip-empathy removes the warmth each one has,
and a perturbation that changes nothing is named in plain words, not shown as +0.00."""

from __future__ import annotations

import pytest

from perturbations.registry import get_perturbation
from perturbations.strip_empathy import is_empathic

WARM = "Warm reflection with a question"
CLINICAL = "Clinical advice, little warmth"
FORMULAIC = "Formulaic positivity (room to rise)"


def _example(name: str) -> dict[str, str]:
    from pages.adversarial import EXAMPLES

    (example,) = [e for e in EXAMPLES if e["name"] == name]
    return example


@pytest.mark.parametrize(
    "sentence",
    [
        "That's a real loss, even if she's still a phone call away.",
        "When someone has been your person, the empty space in your week can feel enormous.",
        "Everything happens for a reason!",
        "Stay positive, good vibes only.",
        "Tomorrow is a new day and you've got this!",
    ],
)
def test_acknowledging_reflecting_and_cheering_are_empathic_language(sentence):
    assert is_empathic(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Prepare three bullet points in advance.",
        "What did your time together usually look like?",
        "A loss of appetite is common in the first weeks.",
        "Consider cognitive behavioural therapy, which has good evidence for social anxiety.",
    ],
)
def test_advice_facts_and_logistics_stay(sentence):
    assert not is_empathic(sentence)


def test_strip_empathy_changes_every_bundled_example_that_has_warmth():
    strip = get_perturbation("strip-empathy")
    warm = strip(_example(WARM)["reply"], seed=0)
    assert warm.text.startswith("What did your time together usually look like?")
    assert "real loss" not in warm.text and "enormous" not in warm.text
    formulaic = strip(_example(FORMULAIC)["reply"], seed=0)
    assert formulaic.text == "" and "no advice or facts to keep" in strip.why_empty(formulaic)
    clinical = strip(_example(CLINICAL)["reply"], seed=0)  # truly no warmth: nothing to take
    assert strip.why_unchanged(clinical) == "this reply has no empathic language to remove"


def test_the_lab_names_a_change_of_nothing_instead_of_showing_zero():
    from pages.adversarial import pick_example

    _reply, _message, table, chart, rows, picker, note = pick_example(CLINICAL)
    assert "strip-empathy changed nothing" in note.replace("*", "")
    assert "this reply has no empathic language to remove" in note
    shown = {r["variant"]["perturbation_id"] for r in rows}
    assert "strip-empathy" not in shown and "strip-empathy" not in picker.choices
    assert "<b>strip-empathy</b>" not in table
    assert all("strip-empathy" not in bar.y for bar in chart.data)
    assert "wrong-message" in shown  # same words, another message: a real change

    *_, warm_rows, _picker, warm_note = pick_example(WARM)
    (stripped,) = [r for r in warm_rows if r["variant"]["perturbation_id"] == "strip-empathy"]
    assert stripped["variant"]["text"] != stripped["variant"]["source"]
    assert "strip-empathy" not in warm_note

    *_, formulaic_note = pick_example(FORMULAIC)
    assert "strip-empathy* left nothing of the reply" in formulaic_note


@pytest.mark.parametrize("pid", ["spelling-errors", "punctuation-repeat"])
def test_a_word_level_draw_on_a_short_reply_always_changes_something(pid):
    """At 25 % a three-sentence reply drew no word at seed 0 and showed +0.00."""
    perturb = get_perturbation(pid)
    for seed in range(40):
        variant = perturb(_example(FORMULAIC)["reply"], seed=seed)
        assert variant.text != variant.source, seed
        assert not perturb.why_unchanged(variant)
