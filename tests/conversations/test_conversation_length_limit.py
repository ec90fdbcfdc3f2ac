"""The conversation length limit: a pasted conversation (all turns) of up to
``Settings.max_conversation_chars`` characters is accepted, one character more is refused in
plain words, and the limit is 12,000 characters unless the server says otherwise (one and a
half messages' worth, so the conversation and a reply still fit the local model's context).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import config
from core import conversation as conversation_module
from core import textinput
from core.conversation import parse_conversation
from core.textinput import InputError

#: The limits as shipped: no environment, no ``.env`` file.
DEFAULT_MESSAGE_CHARS = 8_000
DEFAULT_CONVERSATION_CHARS = 12_000


def turns_of_length(total: int, per_turn: int) -> str:
    """A pasted conversation (``Seeker:`` / ``Supporter:`` lines, ending on the seeker) of
    exactly ``total`` characters, no turn's text longer than ``per_turn`` (a turn's own limit).

    >>> turns_of_length(40, 10).splitlines()
    ['Seeker: ssss', 'Supporter: rrrr', 'Seeker: sss']
    >>> len(turns_of_length(20_001, 8_000))
    20001
    """
    n = 1
    while True:  # the fewest turns (an odd number: the seeker speaks last) that hold it
        roles = ["Seeker: " if i % 2 == 0 else "Supporter: " for i in range(n)]
        room = total - sum(map(len, roles)) - (n - 1)  # the newlines between the lines
        if room < n:
            raise ValueError(f"{total} characters cannot hold {n} turns of {per_turn} at most")
        if room <= n * per_turn:
            break
        n += 2
    base, extra = divmod(room, n)
    lines = [
        role + ("s" if role == "Seeker: " else "r") * (base + (i < extra))
        for i, role in enumerate(roles)
    ]
    return "\n".join(lines)


def default_settings(tmp_path: Path) -> config.Settings:
    """The settings with nothing set: no environment and no ``.env`` file."""
    return config.Settings.from_env({}, dotenv=tmp_path / "no.env")


def test_the_conversation_limit_is_12000_characters_by_default(tmp_path: Path) -> None:
    settings = default_settings(tmp_path)
    assert settings.max_message_chars == DEFAULT_MESSAGE_CHARS
    assert settings.max_conversation_chars == DEFAULT_CONVERSATION_CHARS


def test_a_conversation_at_the_limit_is_taken_and_one_character_more_is_refused() -> None:
    """The limit as the running settings say, whatever it is."""
    limit = conversation_module.SETTINGS.max_conversation_chars
    per_turn = textinput.SETTINGS.max_message_chars
    at_limit = turns_of_length(limit, per_turn)
    said = parse_conversation(at_limit)
    assert not said.is_single and said.ends_with_seeker
    over = turns_of_length(limit + 1, per_turn)
    with pytest.raises(InputError) as refused:
        parse_conversation(over)
    assert str(refused.value) == (
        f"The conversation is {limit + 1:,} characters long; the limit is {limit:,}. "
        "Shorten it (keep the part that matters most) and try again."
    )


def test_with_the_default_settings_12001_characters_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pinned where it is enforced too: a twentyfold limit in the parser fails here."""
    settings = default_settings(tmp_path)
    for module in (conversation_module, textinput):
        monkeypatch.setattr(module, "SETTINGS", settings)
    parse_conversation(turns_of_length(DEFAULT_CONVERSATION_CHARS, DEFAULT_MESSAGE_CHARS))
    with pytest.raises(InputError, match=r"^The conversation is 12,001 characters long; "):
        parse_conversation(turns_of_length(DEFAULT_CONVERSATION_CHARS + 1, DEFAULT_MESSAGE_CHARS))


def test_the_compare_page_refuses_a_conversation_over_the_limit_in_plain_words() -> None:
    """What a visitor of the Compare page sees: the same sentence, not a traceback."""
    from pages.compare_updates import run_compare

    limit = conversation_module.SETTINGS.max_conversation_chars
    over = turns_of_length(limit + 1, textinput.SETTINGS.max_message_chars)
    with pytest.raises(ValueError, match=rf"^The conversation is .* the limit is {limit:,}\."):
        next(run_compare(over, ["human/counselchat"], [], "", 32, 0.7))
