"""What C.A.F.'s system tells the ledger of a table: the table refused before a turno starts
(SPEC §3.1: 3-7 players, a first dealer among them), and the dealer the live screen marks while
the turno is played, none once it is complete."""

from __future__ import annotations

import random

from scoring.rules.systems import get_system

CAF = get_system("caf")
RULES = CAF.rules()
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


def test_a_table_is_refused_by_its_field_and_a_good_one_has_no_problem():
    too_few = CAF.check_table(RULES, ["Anna", "Bruno"], "Anna")
    assert [(p.code, p.field) for p in too_few] == [("TURNO_PLAYERS_COUNT", "players")]
    stranger = CAF.check_table(RULES, ["Anna", "Bruno", "Carla"], "Dario")
    assert [(p.code, p.field) for p in stranger] == [("FIRST_DEALER", "first_dealer")]
    assert CAF.check_table(RULES, ["Anna", "Bruno", "Carla"], "Anna") == []


def test_the_next_dealer_is_marked_until_the_turno_is_complete():
    turno = CAF.random_turno(random.Random(4), PLAYERS, RULES)
    deals = turno["smazzate"]
    assert len(deals) == 7 + 3 * 4  # SPEC §3: 7 + 3N smazzate
    # the first dealer deals first; then whoever called the last deal deals the next
    assert CAF.player_notes(RULES, {**turno, "smazzate": []}) == {turno["first_dealer"]: "mazziere"}
    head = {**turno, "smazzate": deals[:3]}
    assert CAF.player_notes(RULES, head) == {deals[2]["caller"]: "mazziere"}
    assert CAF.player_notes(RULES, turno) == {}
