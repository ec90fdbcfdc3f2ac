"""Every perturbation: reproducible under a seed, does what it promises, survives odd input."""

from __future__ import annotations

import re
import unicodedata

import pytest

from perturbations.base import Perturbation
from perturbations.greek_homoglyphs import HOMOGLYPHS
from perturbations.invisible_chars import INVISIBLE
from perturbations.judge_injection import INJECTIONS
from perturbations.leetspeak import LEET
from perturbations.registry import PERTURBATIONS, get_perturbation, resolve
from perturbations.strip_empathy import is_empathic
from perturbations.text_units import sentences, words
from responders.base import GenerationSettings, Responder, ResponderError

REPLY = (
    "I'm so sorry you're going through this; losing your job after eight years must feel "
    "like the ground fell away. It makes sense that you feel ashamed, but this doesn't define "
    "you. Try writing down three things you did well in that role. You could also call a "
    "career counsellor this week. What would help you most right now?"
)
ODD = [
    "",
    "   ",
    "😔😔 💔",
    "אני מרגיש לבד. אין לי אף אחד.",
    "مرحبا، أنا هنا من أجلك.",
    "a",
    "\u200b",
]


@pytest.mark.parametrize("pid", list(PERTURBATIONS))
def test_same_seed_same_variant_other_seed_may_differ(pid):
    p = get_perturbation(pid)
    a, b = p(REPLY, seed=7), p(REPLY, seed=7)
    assert a == b and a.perturbation_id == pid and a.source == REPLY and a.seed == 7
    if pid == "wrong-message":  # the text stays; the other person's message is drawn
        assert any(p(REPLY, seed=s).message != a.message for s in range(8))
    elif pid not in ("strip-empathy", "elevated", "casual"):  # these rules take no randomness
        assert any(p(REPLY, seed=s).text != a.text for s in range(8))


MIXED = "Take care 😔 — אני כאן, أنا هنا. Stay safe tonight!"
_LETTER = re.compile(r"[^\W\d_]")


def _squash(text: str) -> str:
    """Text without . , ! ? and with runs of one character cut to one."""
    return re.sub(r"(.)\1+", r"\1", re.sub(r"[.,!?]", "", text))


def _visible(text: str) -> str:
    return "".join(c for c in text if c not in INVISIBLE)


def _other_scripts_kept(src: str, out: str) -> bool:
    """Every non-ASCII character kept in order; text without Latin letters unchanged."""
    kept = [c for c in out if not c.isascii()] == [c for c in src if not c.isascii()]
    return kept and (out == src or re.search("[A-Za-z]", src) is not None)


def _in_order(parts: list[str], whole: list[str]) -> bool:
    rest = iter(whole)
    return all(part in rest for part in parts)


#: What each perturbation keeps, whatever the input: (source, variant text) -> holds.
INVARIANTS = {
    "wrong-message": lambda src, out: out == src,  # the reply is kept; only its message changes
    "punctuation-repeat": lambda src, out: _squash(out) == _squash(src),
    "greek-homoglyphs": lambda src, out: (
        out.translate({ord(g): latin for latin, g in HOMOGLYPHS.items()}) == src
    ),
    "spelling-errors": lambda src, out: (
        len(list(words(out))) == len(list(words(src)))
        and _LETTER.sub("", out) == _LETTER.sub("", src)  # emoji, digits, spaces, marks kept
    ),
    "leetspeak": lambda src, out: (
        len(out) == len(src)
        and all(a == b or LEET.get(a.lower()) == b for a, b in zip(src, out, strict=True))
    ),
    "shortened": lambda src, out: len(out) <= len(src),
    "elevated": lambda src, out: _other_scripts_kept(src, out),
    "casual": lambda src, out: _other_scripts_kept(src, out),
    "invisible-chars": lambda src, out: _visible(out) == _visible(src) and len(out) >= len(src),
    "sentence-reorder": lambda src, out: sorted(out.split()) == sorted(src.split()),
    "strip-empathy": lambda src, out: _in_order(sentences(out), sentences(src)),
    "judge-injection": lambda src, out: (
        out.startswith(src.rstrip()) and out.endswith(INJECTIONS) and len(out) > len(src)
    ),
}


def test_every_perturbation_has_an_invariant():
    assert set(INVARIANTS) == set(PERTURBATIONS)


@pytest.mark.parametrize("pid", list(PERTURBATIONS))
@pytest.mark.parametrize(
    "text",
    [*ODD, MIXED],
    ids=["empty", "blank", "emoji", "hebrew", "arabic", "one-letter", "zero-width", "mixed"],
)
def test_odd_input_keeps_each_perturbations_invariant(pid, text):
    p = get_perturbation(pid)
    variant = p(text, seed=1)
    assert variant.source == text and variant.method and p(text, seed=1) == variant
    if not text.strip():  # empty stays empty, blank stays blank
        assert variant.text == text and variant.method == "rule"
    else:
        assert INVARIANTS[pid](text, variant.text), variant.text


@pytest.mark.parametrize("pid", ["leetspeak", "greek-homoglyphs"])
def test_letter_swaps_leave_other_scripts_and_emoji_untouched(pid):
    variant = get_perturbation(pid)(MIXED, seed=0, intensity=1.0)
    assert variant.text != MIXED and len(variant.text) == len(MIXED)
    for before, after in zip(MIXED, variant.text, strict=True):
        if not before.isascii():  # Hebrew, Arabic, emoji, the dash
            assert after == before
    for text in ODD[2:5]:  # emoji, Hebrew, Arabic alone: nothing to swap
        assert get_perturbation(pid)(text, seed=0, intensity=1.0).text == text


@pytest.mark.parametrize("pid", list(PERTURBATIONS))
def test_every_perturbation_changes_a_real_reply(pid):
    variant = get_perturbation(pid)(REPLY, seed=3)
    assert variant.text != REPLY or (pid == "wrong-message" and variant.message)


def test_punctuation_repeat_stretches_letters_and_marks():
    text = get_perturbation("punctuation-repeat")(REPLY, seed=0, intensity=0.8).text
    assert re.search(r"([a-z])\1\1", text) and re.search(r"[!?.,]{3,}", text)


def test_homoglyphs_only_swap_listed_letters():
    variant = get_perturbation("greek-homoglyphs")(REPLY, seed=0, intensity=1.0)
    back = variant.text.translate({ord(g): latin for latin, g in HOMOGLYPHS.items()})
    assert back == REPLY and variant.text != REPLY
    assert all(ch in HOMOGLYPHS.values() for ch in set(variant.text) - set(REPLY))


def test_spelling_errors_keep_word_count_and_touch_some_words():
    variant = get_perturbation("spelling-errors")(REPLY, seed=0, intensity=0.5)
    before, after = REPLY.split(), variant.text.split()
    assert len(before) == len(after)
    changed = sum(a != b for a, b in zip(before, after, strict=True))
    assert 0.15 * len(before) < changed < 0.6 * len(before)


def test_leetspeak_uses_digits_and_intensity_zero_is_identity():
    p = get_perturbation("leetspeak")
    assert sum(ch.isdigit() for ch in p(REPLY, seed=0).text) > 20
    assert p(REPLY, seed=0, intensity=0.0).text == REPLY
    with pytest.raises(ValueError):
        p(REPLY, intensity=1.5)


def test_invisible_characters_are_invisible():
    variant = get_perturbation("invisible-chars")(REPLY, seed=0)
    assert any(ch in variant.text for ch in INVISIBLE)
    assert "".join(ch for ch in variant.text if ch not in INVISIBLE) == REPLY
    assert all(unicodedata.category(ch) == "Cf" for ch in INVISIBLE)


def test_reorder_keeps_the_same_sentences():
    variant = get_perturbation("sentence-reorder")(REPLY, seed=0)
    assert sorted(variant.text.split()) == sorted(REPLY.split()) and variant.text != REPLY


def test_strip_empathy_removes_warmth_and_keeps_advice():
    text = get_perturbation("strip-empathy")(REPLY, seed=0).text
    assert "sorry" not in text and "makes sense" not in text
    assert "Try writing down three things" in text and "career counsellor" in text
    assert is_empathic("That sounds so hard.") and not is_empathic("Try a walk each morning.")


def test_judge_injection_appends_an_instruction_and_keeps_the_reply():
    text = get_perturbation("judge-injection")(REPLY, seed=0).text
    assert text.startswith(REPLY) and any(text.endswith(i) for i in INJECTIONS)


class Rewriter(Responder):
    """Scripted LLM rewriter."""

    provider, default_model, label = "fake", "rewriter", "Fake"

    def __init__(self, answer: str | Exception) -> None:
        super().__init__(max_retries=0)
        self.answer = answer
        self.systems: list[str] = []

    def _stream(self, message: str, settings: GenerationSettings, keys):
        self.systems.append(settings.system)
        if isinstance(self.answer, Exception):
            raise self.answer
        yield self.answer


@pytest.mark.parametrize("pid", ["shortened", "elevated", "casual"])
def test_rewrites_use_the_llm_and_record_it(pid):
    rewriter = Rewriter("A short, kind rewrite.")
    variant = get_perturbation(pid)(REPLY, seed=0, rewriter=rewriter)
    assert variant.text == "A short, kind rewrite." and variant.method == "llm:fake/rewriter"
    assert "meaning" in rewriter.systems[0]  # the fixed rewrite prompt was sent


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (ResponderError("server error (HTTP 500)"), "LLM failed: server error"),
        ("", "LLM failed: the model returned an empty reply"),
    ],
)
def test_rewrites_fall_back_to_rules_and_say_why(answer, why):
    variant = get_perturbation("shortened")(REPLY, seed=0, rewriter=Rewriter(answer))
    assert variant.method.startswith("rule (" + why) and len(variant.text) < len(REPLY)


def test_a_longer_shortening_is_refused():
    variant = get_perturbation("shortened")(REPLY, seed=0, rewriter=Rewriter(REPLY + " More."))
    assert variant.method == "rule (LLM output unusable: not shorter)"


def test_rule_rewrites_change_register():
    assert "do not" in get_perturbation("elevated")("I don't think so.", seed=0).text
    assert "don't" in get_perturbation("casual")("I do not know.", seed=0).text


def test_registry_resolves_lists_and_names_unknowns():
    assert [p.id for p in resolve("leetspeak, casual")] == ["leetspeak", "casual"]
    assert len(resolve("all")) == 12
    with pytest.raises(KeyError, match="unknown perturbation 'nope'"):
        resolve("nope")
    assert all(isinstance(p, Perturbation) and p.__doc__ for p in PERTURBATIONS.values())


def test_strip_empathy_takes_shared_joy_too() -> None:
    text = "That's wonderful news! It must be so exciting for you. Book the venue by Friday."
    assert get_perturbation("strip-empathy")(text, seed=0).text == "Book the venue by Friday."
