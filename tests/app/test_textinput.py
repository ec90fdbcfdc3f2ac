"""Cleaning pasted text: any Unicode kept, junk removed, limits enforced."""

from __future__ import annotations

import unicodedata

import pytest

from core.secrets import scrub_secrets
from core.textinput import InputError, clean_text


@pytest.mark.parametrize(
    "raw",
    [
        "Je me sens seul 😔",
        "أشعر بالوحدة",  # Arabic, right to left
        "أَشْعُرُ بِالْوَحْدَةِ",  # Arabic with vowel marks (combining)
        "אני מרגיש לבד",  # Hebrew
        "אֲנִי מַרְגִּישׁ לְבַד",  # Hebrew with niqqud (combining, reordered by NFC)
        "שלום\u200f (RLM) and \u200e (LRM) marks",
        "我觉得很孤独",
        "e\u0301 combining accent, cafe\u0301, n\u0303o",  # NFC composes these
        "\u1100\u1161\u11a8 decomposed Hangul",  # NFC composes to 각
        "मुझे अकेलापन लगता है",  # Devanagari vowel signs
        "👨‍👩‍👧 family emoji with joiners, 👋🏽 skin tone, 🇺🇦 flag, ❤️ variation selector",
        "math 𝑥² and ℌ and ﬁ ligature stay as typed",  # NFC, not NFKC
    ],
)
def test_any_unicode_is_kept(raw):
    assert clean_text(raw) == unicodedata.normalize("NFC", raw)


def test_control_characters_and_binary_junk_are_removed():
    raw = "I\x00 feel\x07 lost\ufeff\ufffd\r\nreally\x1b[31m"
    assert clean_text(raw) == "I feel lost\nreally[31m"
    assert clean_text(b"bytes \xff\xfe ok") == "bytes  ok"
    assert clean_text("lone \ud800 surrogate") == "lone  surrogate"


def test_empty_and_too_long_are_clear_messages():
    with pytest.raises(InputError, match="empty"):
        clean_text("\x00\x00 \n")
    with pytest.raises(InputError, match="9,000 characters long; the limit is 8,000"):
        clean_text("a" * 9000, limit=8000)
    with pytest.raises(InputError, match="must be text"):
        clean_text(12)


def test_secret_scrubbing():
    assert scrub_secrets("key sk-abc123 bad", ["sk-abc123"]) == "key [redacted] bad"
