"""Every JSON file the club accepts (``import_season``, ``kingscore``, ``restore``) is read
here, within limits checked as the file streams by, before anything is built from it:

- size: the document's bytes (``KINGCLUB_MAX_IMPORT_BYTES`` unless the caller says otherwise);
- depth: :data:`~scoring.rules.caf.interchange.MAX_DEPTH` levels, a scalar counting as one;
- count: ``KINGCLUB_MAX_JSON_VALUES`` values (objects, lists and scalars) in the whole document.

:func:`check_limits` reads the file's events (ijson's ``basic_parse``: no paths kept, a buffer
at a time) and stops at the first level or value too many: a file of 200,000 nested brackets
is refused after reading its first buffer, in a few MB, where ijson's ``parse`` (which builds
the path of every event: O(depth²) text) took 10 GB. :func:`read_json` then parses the checked
bytes whole; :class:`DocumentFile` reads a checked file turno by turno.

A ``kingclub/v1`` document read from a file item by item, never whole (ijson).

:func:`read_document` parses a document in one piece: a season of 10,000 turni becomes some
hundreds of MB of Python objects. :class:`DocumentFile` reads the same file's fields other than
the turni, and then its turni one at a time, as often as the importer asks: memory holds one
turno, whatever the file's size. The problems are the ones :func:`read_document` names
(``JSON_ENCODING``, ``JSON_SYNTAX``, ``JSON_DEPTH``, ``FORMAT``).
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import ijson
from django.conf import settings

from scoring.rules.caf.interchange import MAX_DEPTH, depth, loads
from scoring.rules.problems import (
    NOT_AN_OBJECT,
    TOO_DEEP,
    Problem,
    RuleViolation,
    gettext_noop,
    not_utf8,
)

HEADER_KEYS = ("format", "ruleset", "rules", "season", "roster")
"""The top-level fields the importer reads besides ``turni`` (SPEC §10)."""

CHUNK = 1 << 20
DEFAULT = -1  # "the club's setting" for a limit (None is "no limit")
BUFFER = 16 * 1024  # bytes read at a time by the check: the events of one buffer are built at once


@dataclass(frozen=True)
class Limits:
    """What a JSON document may be: bytes, levels, values (None: no limit)."""

    max_bytes: int | None
    max_values: int | None
    max_depth: int = MAX_DEPTH

    @classmethod
    def of(cls, max_bytes: int | None = DEFAULT, max_values: int | None = DEFAULT) -> Limits:
        """The club's limits (settings), or the ones given; None lifts a limit."""
        return cls(
            settings.KINGCLUB_MAX_IMPORT_BYTES if max_bytes == DEFAULT else max_bytes,
            settings.KINGCLUB_MAX_JSON_VALUES if max_values == DEFAULT else max_values,
        )


def check_size(size: int, limit: int | None) -> None:
    if limit is not None and size > limit:
        raise RuleViolation(
            [
                Problem.said(
                    "JSON_TOO_LARGE",
                    gettext_noop("il documento è di %(size)s byte, oltre il limite di %(limit)s"),
                    {"size": size, "limit": limit},
                )
            ]
        )


def too_many(limit: int) -> RuleViolation:
    return RuleViolation(
        [
            Problem.said(
                "JSON_TOO_MANY",
                gettext_noop("il documento ha più di %(limit)s valori JSON, oltre il limite"),
                {"limit": limit},
            )
        ]
    )


_SCALARS = frozenset(("null", "boolean", "integer", "double", "number", "string"))
_OPEN = frozenset(("start_map", "start_array"))
_CLOSE = frozenset(("end_map", "end_array"))


@dataclass(frozen=True)
class Shape:
    """What :func:`check_limits` saw of a document: an object? its ``turni`` a list?"""

    is_object: bool
    turni_is_list: bool


def check_limits(f: IO[bytes], limits: Limits) -> Shape | None:
    """Read the JSON of ``f`` as events, refusing it at the first level beyond
    ``limits.max_depth`` (``JSON_DEPTH``) or value beyond ``limits.max_values``
    (``JSON_TOO_MANY``). Memory: one buffer of events, whatever the file.

    None when ijson cannot read the file to its end (not JSON, or JSON it does not read: an
    integer beyond 64 bits, ``NaN``): Python's ``json`` then names the problem, and its own
    reading is bounded too (by the size limit, and by the recursion limit in depth).
    """
    max_depth, max_values = limits.max_depth, limits.max_values
    level = values = 0
    first = None
    turni_is_list = False
    expect_turni = False
    try:
        for event, value in ijson.basic_parse(f, buf_size=BUFFER, use_float=True):
            if event in _OPEN:
                level += 1
                values += 1
                if level > max_depth:
                    raise RuleViolation([TOO_DEEP])
                if expect_turni:
                    turni_is_list = event == "start_array"
            elif event in _SCALARS:
                values += 1
                if level + 1 > max_depth:
                    raise RuleViolation([TOO_DEEP])
            elif event in _CLOSE:
                level -= 1
            expect_turni = event == "map_key" and level == 1 and value == "turni"
            if first is None:
                first = event
            if max_values is not None and values > max_values:
                raise too_many(max_values)
    except ijson.JSONError:
        return None
    return Shape(first == "start_map", turni_is_list)


def read_json(raw: bytes | str, limits: Limits) -> Any:
    """A whole JSON document from its bytes, within ``limits`` (checked before it is built)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    check_size(len(data), limits.max_bytes)
    check_limits(io.BytesIO(data), limits)
    return loads(raw)


def _syntax(exc: Exception) -> RuleViolation:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    invalid = gettext_noop("JSON non valido: %(error)s")
    return RuleViolation([Problem.said("JSON_SYNTAX", invalid, {"error": first})])


def _too_deep(value: Any, level: int) -> bool:
    return level - 1 + depth(value, MAX_DEPTH - level + 1) > MAX_DEPTH


class DocumentFile:
    """A JSON document on disk, checked once (UTF-8, a JSON object) and then read in parts."""

    def __init__(self, path: Path, limits: Limits | None = None) -> None:
        self.path = path
        limits = limits or Limits.of()
        check_size(path.stat().st_size, limits.max_bytes)
        self._check_encoding()
        with self.path.open("rb") as f:
            shape = check_limits(f, limits)
        if shape is None:  # Python's json names the problem (season_import_file)
            raise RuleViolation([Problem.said("JSON_SYNTAX", gettext_noop("JSON non valido"))])
        if not shape.is_object:
            raise RuleViolation([NOT_AN_OBJECT])
        else:
            self.has_turni_list = shape.turni_is_list

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
