"""Cleaning pasted text: any Unicode kept, junk removed, limits enforced."""

from __future__ import annotations

import pytest

from core.secrets import scrub_secrets
from core.textinput import InputError, clean_text


@pytest.mark.parametrize(
    "raw",
    [
        "Je me sens seul 😔",
        "أشعر بالوحدة",  # Arabic, right to left
        "אני מרגיש לבד",  # Hebrew
        "我觉得很孤独",
        "e\u0301 combining accent",
        "👨‍👩‍👧 family emoji with joiners",
    ],
)
def test_any_unicode_is_kept(raw):
    assert clean_text(raw) == clean_text(raw).strip()
    assert len(clean_text(raw)) >= len(raw) - 1  # NFC may merge e + accent


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
