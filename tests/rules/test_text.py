"""``normalize_text`` (scoring/rules/text.py) in the engine: printable ASCII takes a shortcut
(no category looked up per character); every other text the character loop. Both give the text
the module's docstring describes."""

from __future__ import annotations

import pytest

from scoring.rules.text import normalize_text

# Python's str.isspace() among the ASCII characters: tab, newline, vertical tab, form feed,
# carriage return, the four separators 0x1c-0x1f and the space
ASCII_SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f "


@pytest.mark.parametrize("code", range(128))
def test_every_ascii_character_between_two_letters(code):
    """A space of any kind is one space, any other control character goes, the rest stays."""
    ch = chr(code)
    if ch in ASCII_SPACES:
        expected = "a b"
    elif code < 0x20 or code == 0x7F:
        expected = "ab"
    else:
        expected = f"a{ch}b"
    assert normalize_text(f"a{ch}b") == expected


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Anna", "Anna"),
        ("  Anna   Maria  ", "Anna Maria"),  # printable ASCII: runs of spaces, both ends
        ("", ""),
        ("   ", ""),
        ("Anna\t\tMaria\n", "Anna Maria"),  # ASCII, not printable: the loop, the same spaces
        ("Mari\u0301a", "María"),  # printable, not ASCII: NFC
        ("An\u200bna", "Anna"),  # not ASCII: the zero-width space (a format character) removed
        ("A" * 100_000 + "  B", "A" * 100_000 + " B"),
        ("A" * 99_999 + "\x00", "A" * 99_999),
    ],
)
def test_normalize_text(raw, clean):
    assert normalize_text(raw) == clean
