"""The smazzata records of every game between the database and the engine: the one place where
seat keys become names and names become seat keys.

The database keeps each smazzata's record (the system's interchange record for one deal) with
every player it names replaced by the player's **seat** at the turno: the seat position (0-based,
as :class:`scoring.models.Seat`) as a JSON number for a value, as text for the key of an object
(``{"declarer": 1}``, ``{"penalties": {"0": 34, "2": 12}}``). Which keys of a record name a player
is the game system's data (``player_fields``, :mod:`scoring.rules.players`).

The engine, the interchange file (SPEC §10) and the backup work with names: every reader turns a
stored record into names with :func:`record_names` (the players' names as they are now, so a
corrected name changes no score) and every writer stores with :func:`record_seats`. A reference
that does not match a seat is kept as it is: the engine rejects it, and ``check_ledger`` reports
it as a difference.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from scoring.rules.players import map_players

Names = Mapping[int, str]  # seat position -> the player's name


def seat_names(seats: Iterable[Any]) -> dict[int, str]:
    """Seat position -> name, from seats loaded with their player (``turno.seats.all()`` of a
    turno read with :func:`scoring.services.games.game_turni`)."""
    return {s.position: s.player.name for s in seats}


def _fields(system: Any) -> tuple[str, ...]:
    return tuple(system.player_fields)


def record_names(system: Any, stored: Mapping[str, Any], names: Names) -> dict[str, Any]:
    """A stored record (players by seat) with the players' current names, for the engine."""

    def name(ref: Any) -> Any:
        if isinstance(ref, bool):
            return ref
        if isinstance(ref, int):
            return names.get(ref, ref)
        if isinstance(ref, str) and ref.isdigit() and ref.isascii():
            return names.get(int(ref), ref)
        return ref

    return map_players(_fields(system), stored, name)


def record_seats(system: Any, record: Mapping[str, Any], names: Names) -> dict[str, Any]:
    """A record naming players (the engine's, a form's, an interchange file's) as stored: every
    player by seat. A name not at the table is kept as it is (the engine will reject it)."""
    seat = {name: position for position, name in names.items()}

    def position(ref: Any) -> Any:
        return seat.get(ref, ref) if isinstance(ref, str) else ref

    return map_players(_fields(system), record, position)


# -- C.A.F.: the state after a giornata (series and Scudetto streak per player) --------------------
# ``Giornata.state_after`` keeps ``{"series": {player: code}, "streak": {player: n}}`` with each
# player as the text of their primary key (as ``Season.start_series``); the engine reads names.
STATE_MAPS = ("series", "streak")
# the five other games keep ``{"fold": {player: figures}}`` (``services.season.FOLD``, the season
# standing's figures after the giornata), players by primary key too
FOLD_MAP = "fold"


def _state_maps(raw: Mapping[str, Any]) -> tuple[str, ...]:
    """The player maps of a stored state: C.A.F.'s always, another game's fold as it has it."""
    return (FOLD_MAP,) if FOLD_MAP in raw else STATE_MAPS


def state_player_ids(raw: Mapping[str, Any] | None) -> set[int]:
    """The players (primary keys) a stored state names."""
    return {
        int(key)
        for part in _state_maps(raw or {})
        for key in ((raw or {}).get(part) or {})
        if isinstance(key, str) and key.isdigit() and key.isascii()
    }


def state_names(raw: Mapping[str, Any] | None, names: Mapping[int, str]) -> dict[str, Any]:
    """A stored state (players by primary key) with the players' current names. A key that is no
    known primary key (a state written before the upgrade, by name) is kept as it is."""

    def name(key: str) -> str:
        if key.isdigit() and key.isascii():
            return names.get(int(key), key)
        return key

    raw = raw or {}
    return {
        part: {name(k): v for k, v in (raw.get(part) or {}).items()} for part in _state_maps(raw)
    }


def state_ids(state: Mapping[str, Any], ids: Mapping[str, int]) -> dict[str, Any]:
    """A state with players by name (the engine's ``SeasonState.to_dict()``) as stored: players
    by primary key (text); a name ``ids`` does not know is kept as it is."""
    return {
        part: {(str(ids[k]) if k in ids else k): v for k, v in (state.get(part) or {}).items()}
        for part in _state_maps(state)
    }


# -- C.A.F.: the records of the smazzate's past versions, from the counts' past versions -----------
def history_records(
    versions: Iterable[tuple[Any, Any, Any, Any, str, Any, str]],
    results: Iterable[tuple[Any, Any, Any, Any, Any]],
    seat: Callable[[Any, Any], Any],
) -> dict[Any, dict[str, Any]]:
    """The record of each past version of a smazzata kept by counts (King C.A.F. before its deals
    kept their record): ``versions`` are ``(history id, smazzata, turno, date, game, caller,
    trump)``, ``results`` the past versions of its counts, ``(smazzata, player, count, date,
    history id)``. A version's counts are the ones written after it and before the smazzata's
    next version (a deal is saved, then its counts); players by seat (``seat(turno, player)``:
    the position, or the name of a player not seated there, which the engine refuses)."""
    by_smazzata: dict[Any, list[tuple[Any, Any, Any, Any]]] = {}
    for smazzata, player, count, date, hid in results:
        if count is not None:
            by_smazzata.setdefault(smazzata, []).append((date, hid, player, count))
    mine: dict[Any, list[tuple[Any, ...]]] = {}
    for v in versions:
        mine.setdefault(v[1], []).append(v)
    out: dict[Any, dict[str, Any]] = {}
    for smazzata, rows in mine.items():
        counts = sorted(by_smazzata.get(smazzata, []), key=lambda r: (r[0], r[1]))
        if not counts:
            continue
        rows.sort(key=lambda v: (v[3], v[0]))
        state: dict[Any, Any] = {}
        k = 0
        for i, (hid, _sm, turno, _date, game, caller, trump) in enumerate(rows):
            until = rows[i + 1][3] if i + 1 < len(rows) else None
            while k < len(counts) and (until is None or counts[k][0] < until):
                state[counts[k][2]] = counts[k][3]
                k += 1

            def at(player: Any, turno: Any = turno) -> Any:
                return seat(turno, player)

            out[hid] = counts_record(
                game, None if caller is None else at(caller), trump, state.items(), at
            )
    return out


def counts_record(
    game: Any, caller: Any, trump: Any, counts: Iterable[tuple[Any, Any]], seat: Callable
) -> dict[str, Any]:
    """A C.A.F. deal kept by counts as its stored record, ``{"game", "caller", "trump"?,
    "result": {seat: count}}``: ``counts`` are ``(player, count)``, ``seat(player)`` the key the
    record names them by (``caller`` is given already so named)."""
    return {
        "game": game,
        "caller": caller,
        **({"trump": trump} if trump else {}),
        "result": {
            str(seat(p)): c for p, c in sorted(counts, key=lambda pc: str(seat(pc[0])).zfill(4))
        },
    }
