"""Numbers as a person types them (issue 26, item 6c): ASCII digits only.

Python's ``int()`` takes much more than a person types: ``1_1_3`` is 113, Arabic-Indic ``٢٧`` is
27, ``²`` passes ``str.isdigit()`` and then fails ``int()``. Every number typed into kingclub
(counts, points, prices, bids, a smazzata's number, a penalità, a PIN) goes through
:func:`typed_int`: optional spaces around, an optional leading minus where negatives are allowed,
then the digits 0-9 and nothing else. Pure Python (no Django).
"""

from __future__ import annotations

import re

_UNSIGNED = re.compile(r"[0-9]+", re.ASCII)
_SIGNED = re.compile(r"-?[0-9]+", re.ASCII)
# a person types a few digits; 18 keep every value inside a 64-bit column and an index
MAX_DIGITS = 18


def is_typed_int(text: object, *, signed: bool = False) -> bool:
    """Is ``text`` (stripped) an integer as a person types it: ``[0-9]+``, or ``-?[0-9]+`` when
    ``signed``, at most :data:`MAX_DIGITS` digits?"""
    if not isinstance(text, str):
        return False
    text = text.strip()
    pattern = _SIGNED if signed else _UNSIGNED
    return pattern.fullmatch(text) is not None and len(text.lstrip("-")) <= MAX_DIGITS


def typed_int(text: object, *, signed: bool = False) -> int:
    """``text`` as an integer when :func:`is_typed_int` accepts it; ``ValueError`` otherwise."""
    if not is_typed_int(text, signed=signed):
        raise ValueError(f"not a typed integer: {text!r}")
    return int(str(text).strip())


def typed_int_or_none(text: object, *, signed: bool = False) -> int | None:
    """``text`` as an integer, or None when it is not one (empty, other characters...)."""
    return typed_int(text, signed=signed) if is_typed_int(text, signed=signed) else None
