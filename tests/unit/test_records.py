"""Every game's ``player_fields`` name every place its record names a player: on random turni of
each game, a record stored by seat holds no player's name any more, and reads back exactly."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoring.records import record_names, record_seats, state_ids, state_names
from scoring.rules.systems import systems

# unusual names, so that no code or number of a record can be mistaken for one
PLAYERS = ["Ugo", "Zelda", "Quirino", "Wanda"]  # four: a table every game plays


def texts(value: Any) -> set[str]:
    """Every text of a JSON value, keys included."""
    if isinstance(value, dict):
        return set(value) | {t for v in value.values() for t in texts(v)}
    if isinstance(value, list):
        return {t for v in value for t in texts(v)}
    return {value} if isinstance(value, str) else set()


@pytest.mark.parametrize("system", systems(), ids=lambda s: s.code)  # C.A.F. too
def test_a_record_by_seat_names_nobody_and_reads_back_exactly(system):
    rules = system.rules(None)
    seen = 0
    for seed in range(6):
        players = PLAYERS
        turno = system.random_turno(random.Random(seed), players, rules)
        names = dict(enumerate(players))
        for smazzata in turno["smazzate"]:
            stored = record_seats(system, smazzata, names)
            assert not texts(stored) & set(players), (smazzata, stored)
            assert record_names(system, stored, names) == smazzata
            seen += bool(texts(smazzata) & set(players))
    assert seen  # the turni did name players


def test_a_corrected_name_is_read_from_the_seat():
    skat = next(s for s in systems() if s.code == "skat-isko")
    stored = record_seats(skat, {"declarer": "Ugo", "game": "GRAND"}, {0: "Zelda", 1: "Ugo"})
    assert stored == {"declarer": 1, "game": "GRAND"}
    assert record_names(skat, stored, {0: "Zelda", 1: "Ugo Rossi"}) == {
        "declarer": "Ugo Rossi",
        "game": "GRAND",
    }


def test_a_state_by_key_reads_back_by_the_current_name():
    state = {"series": {"Ugo": "B", "Zelda": "A"}, "streak": {"Ugo": 2}}
    stored = state_ids(state, {"Ugo": 7, "Zelda": 9})
    assert stored == {"series": {"7": "B", "9": "A"}, "streak": {"7": 2}}
    assert state_names(stored, {7: "Ugo Rossi", 9: "Zelda"}) == {
        "series": {"Ugo Rossi": "B", "Zelda": "A"},
        "streak": {"Ugo Rossi": 2},
    }
    # a state written before the upgrade (by name) is read as it is
    assert state_names(state, {7: "Ugo"}) == state
