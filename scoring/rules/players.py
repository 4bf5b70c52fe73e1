"""Where a smazzata record names a player, as data each game system declares.

A system lists its record's player references in ``player_fields``, each a dotted path:

- ``"declarer"``: the value of a key is a player;
- ``"sale.buyer"``: the value of a key of a nested object;
- ``"result.*"``: every key of an object is a player (counts, penalties per player);
- ``"reentries.[]"``: every item of a list is a player.

:func:`map_players` rewrites every such reference through a function and leaves everything else
as it is. The ledger uses it at its boundary to store records keyed by seat and to give the
engine (which works with names) the players' current names. A reference of an unexpected shape
(a record the engine would reject anyway) is left untouched, never an error here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any


def map_players(
    fields: Sequence[str], record: Mapping[str, Any], fn: Callable[[Any], Any]
) -> dict[str, Any]:
    """A copy of ``record`` whose player references (``fields``) are ``fn(reference)``.

    An object's keys stay text: a key that ``fn`` turns into something else is written
    ``str(...)`` (JSON keys are text)."""
    out = _copy(record)
    for path in fields:
        _apply(out, path.split("."), fn)
    return out


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _apply(node: Any, path: list[str], fn: Callable[[Any], Any]) -> None:
    if not isinstance(node, dict) or not path:
        return
    head, rest = path[0], path[1:]
    if head == "*" and not rest:
        items = list(node.items())
        node.clear()
        for key, value in items:
            new = fn(key)
            node[new if isinstance(new, str) else str(new)] = value
        return
    if head not in node:
        return
    if not rest:
        if node[head] is not None:
            node[head] = fn(node[head])
        return
    if rest == ["[]"]:
        if isinstance(node[head], list):
            node[head] = [fn(v) for v in node[head]]
        return
    _apply(node[head], rest, fn)
