"""JSON written as it is produced: a document whose long arrays are :class:`Stream` objects
(turni, table rows) is written item by item, so a season of 10,000 turni takes the memory of one
batch, not of the whole document.

The text is the one :func:`json.dumps` would write for the same document with the arrays as
lists: compact (``{"a":[1,2]}``) by default, or indented by ``indent`` spaces.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


class Stream:
    """A JSON array read once from an iterable; ``count`` says how many items were written."""

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = items
        self.count = 0

    def __iter__(self) -> Iterator[Any]:
        for item in self.items:
            self.count += 1
            yield item


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def materialize(value: Any) -> Any:
    """The same document with every :class:`Stream` read into a list."""
    if isinstance(value, Stream):
        return [materialize(v) for v in value]
    if isinstance(value, dict):
        return {k: materialize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [materialize(v) for v in value]
    return value


def _has_stream(value: Any) -> bool:
    if isinstance(value, Stream):
        return True
    if isinstance(value, dict):
        return any(_has_stream(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_stream(v) for v in value)
    return False


def write_json(write: Callable[[str], Any], value: Any, *, indent: int | None = None) -> None:
    """Write ``value`` as JSON through ``write`` (a file's ``write``), streams item by item."""
    _write(write, value, indent, 0)


def _dumps(value: Any, indent: int | None, level: int) -> str:
    if indent is None:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return text.replace("\n", "\n" + " " * (indent * level)) if level else text


def _write(write: Callable[[str], Any], value: Any, indent: int | None, level: int) -> None:
    if not _has_stream(value):
        write(_dumps(value, indent, level))
        return
    pad = "" if indent is None else "\n" + " " * (indent * (level + 1))
    end = "" if indent is None else "\n" + " " * (indent * level)
    if isinstance(value, dict):
        colon = ":" if indent is None else ": "
        write("{")
        for i, (key, item) in enumerate(value.items()):
            write(("," if i else "") + pad + json.dumps(key, ensure_ascii=False) + colon)
            _write(write, item, indent, level + 1)
        write((end if value else "") + "}")
        return
    write("[")
    empty = True
    for i, item in enumerate(value):
        write(("," if i else "") + pad)
        _write(write, item, indent, level + 1)
        empty = False
    write(("" if empty else end) + "]")
