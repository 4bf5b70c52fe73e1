"""A ``kingclub/v1`` document read from a file item by item, never whole (ijson).

:func:`read_document` parses a document in one piece: a season of 10,000 turni becomes some
hundreds of MB of Python objects. :class:`DocumentFile` reads the same file's fields other than
the turni, and then its turni one at a time, as often as the importer asks: memory holds one
turno, whatever the file's size. The problems are the ones :func:`read_document` names
(``JSON_ENCODING``, ``JSON_SYNTAX``, ``JSON_DEPTH``, ``FORMAT``).
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ijson

from scoring.rules import Problem, RuleViolation
from scoring.rules.interchange import MAX_DEPTH, depth
from scoring.rules.problems import NOT_AN_OBJECT, TOO_DEEP, not_utf8

HEADER_KEYS = ("format", "ruleset", "rules", "season", "roster")
"""The top-level fields the importer reads besides ``turni`` (SPEC §10)."""

CHUNK = 1 << 20


def _syntax(exc: Exception) -> RuleViolation:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return RuleViolation([Problem("JSON_SYNTAX", f"JSON non valido: {first}")])


def _too_deep(value: Any, level: int) -> bool:
    return level - 1 + depth(value, MAX_DEPTH - level + 1) > MAX_DEPTH


class DocumentFile:
    """A JSON document on disk, checked once (UTF-8, a JSON object) and then read in parts."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._check_encoding()
        self.has_turni_list = self._scan()

    def _check_encoding(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")()
        offset = 0
        with self.path.open("rb") as f:
            while chunk := f.read(CHUNK):
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError as exc:
                    at = offset + exc.start
                    raise RuleViolation([not_utf8(at)]) from None
                offset += len(chunk)
            try:
                decoder.decode(b"", final=True)
            except UnicodeDecodeError:
                raise RuleViolation([not_utf8(offset)]) from None

    def _scan(self) -> bool:
        """The document is an object; whether its ``turni`` is a list (read up to there)."""
        with self.path.open("rb") as f:
            try:
                for number, (prefix, event, _) in enumerate(ijson.parse(f, use_float=True)):
                    if number == 0 and event != "start_map":
                        raise RuleViolation([NOT_AN_OBJECT])
                    if prefix == "turni":
                        return event == "start_array"
            except ijson.JSONError as exc:
                raise _syntax(exc) from None
        return False

    def header(self) -> dict[str, Any]:
        """The document's fields named in :data:`HEADER_KEYS` that it has, as ``json`` reads
        them."""
        found: dict[str, Any] = {}
        for key in HEADER_KEYS:
            with self.path.open("rb") as f:
                try:
                    for value in ijson.items(f, key, use_float=True):
                        found[key] = value
                        break
                except ijson.JSONError as exc:
                    raise _syntax(exc) from None
            if key in found and _too_deep(found[key], 2):
                raise RuleViolation([TOO_DEEP])
        return found

    def turni(self) -> Iterator[Any]:
        """The document's turni, one at a time, in the file's order."""
        with self.path.open("rb") as f:
            try:
                for turno in ijson.items(f, "turni.item", use_float=True):
                    if _too_deep(turno, 3):
                        raise RuleViolation([TOO_DEEP])
                    yield turno
            except ijson.JSONError as exc:
                raise _syntax(exc) from None
