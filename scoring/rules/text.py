"""User text as the club stores it: one normalisation for every name, reason and label.

Whatever a person types (a member's name, a reopen reason, a penalità's reason, a season's name,
a table) or a file brings in goes through :func:`clean_text` before it is checked or stored:

- Unicode NFC, so that the same name typed on two keyboards is the same name;
- format characters (category Cf: zero-width spaces and joiners, bidi overrides and isolates,
  the BOM...), control characters, surrogates and private-use characters removed;
- every run of whitespace (tabs, newlines, no-break and ideographic spaces...) one space,
  none at either end;
- at least one visible character (a letter, a digit, a punctuation mark or a symbol) when the
  text is required, and at most ``max_length`` characters.

Pure Python (no Django): the engine's importer uses it too.
"""

from __future__ import annotations

import unicodedata

from .problems import Problem, RuleViolation, Said, gettext_noop, said

# categories removed outright: format, control, surrogate, private use
REMOVED = {"Cf", "Cc", "Cs", "Co"}
# letters that render as nothing (Hangul fillers, the braille blank, the Mongolian vowel separator)
BLANK_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u180e"}
VISIBLE = ("L", "N", "P", "S")


NOT_A_TEXT = gettext_noop("deve essere un testo")
EMPTY = gettext_noop("non può essere vuoto: serve almeno un carattere visibile")
TOO_LONG = gettext_noop("al massimo %(max)s caratteri (sono %(n)s)")
# a text's problem under the field's label: "Motivo: deve essere un testo"
LABELLED = gettext_noop("%(label)s: %(error)s")


class TextError(ValueError):
    """The text cannot be stored; the message (Italian) says why, and ``said`` is the same
    sentence with its values apart (:class:`~.problems.Said`), for the reader's language."""

    def __init__(self, message: Said):
        super().__init__(str(message))
        self.said = message

    def problem(self, code: str, label: str, **kw: object) -> Problem:
        """The problem ``"<label>: <why>"`` (the label and the reason each translated)."""
        return Problem.said(code, LABELLED, {"label": label, "error": self.said}, **kw)


def normalize_text(value: str) -> str:
    """``value`` in NFC, without invisible characters, its whitespace collapsed and stripped."""
    if value.isascii() and value.isprintable():
        # printable ASCII (most names, and a hostile file's 100,000 letters): nothing to remove,
        # NFC leaves it as it is, and its only space is " ": the same text as the loop below
        # gives, without looking up each character's category
        return " ".join(value.split())
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in value
        if ch.isspace() or unicodedata.category(ch) not in REMOVED
    )
    return " ".join(unicodedata.normalize("NFC", kept).split())


def is_visible(text: str) -> bool:
    """Whether ``text`` has a character a reader can see."""
    return any(
        unicodedata.category(ch).startswith(VISIBLE) and ch not in BLANK_LETTERS for ch in text
    )


def clean_text(value: object, *, max_length: int | None = None, required: bool = True) -> str:
    """The text as stored (see the module's docstring), or :class:`TextError`."""
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise TextError(said(NOT_A_TEXT))
    text = normalize_text(value)
    if not is_visible(text):
        if required:
            raise TextError(said(EMPTY))
        text = ""
    if max_length is not None and len(text) > max_length:
        raise TextError(said(TOO_LONG, max=max_length, n=len(text)))
    return text


def user_text(
    value: object,
    *,
    field: str,
    label: str,
    max_length: int | None = None,
    required: bool = True,
    code: str = "TEXT_INVALID",
    empty: str | None = None,
) -> str:
    """:func:`clean_text` for a service: a problem naming the field instead of TextError
    (``empty`` is the message when a required text has nothing visible)."""
    try:
        return clean_text(value, max_length=max_length, required=required)
    except TextError as exc:
        blank = isinstance(value, str) and not is_visible(normalize_text(value))
        if empty and blank:
            raise RuleViolation([Problem(code, empty, field=field)]) from None
        raise RuleViolation([exc.problem(code, label, field=field)]) from None
