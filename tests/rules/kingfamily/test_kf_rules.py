"""The rule-set tables as data (SPEC-king-family §0.4, §A.9, §B.9, §C.9), a club's edits and
the boundary: the three systems are registered and answer the protocol."""

from __future__ import annotations

import random

import pytest

from scoring.rules.problems import RuleViolation
from scoring.rules.systems import GameSystem, get_system, systems

CODES = ["king-classico", "king-internazionale", "le-king"]


def test_defaults_are_the_spec_tables():
    assert get_system("king-classico").default_rules() == {
        "table_sizes": [4],
        "games": ["NQ", "NKH", "NF", "DOMINO", "DICH"],
        "points": {
            "NQ": -3, "NKH": -8, "NF": -1, "DOMINO": 1, "DICH": 1, "NJK": -2, "N8D": -8,
            "NH": -1, "NU2": -4, "P7H": None, "U2": None, "NKQJ10": None,
        },
        "sale_shortfall": 2,
        "blind_allowed": True,
        "blind_factor": 2,
        "standing": "MATCHPOINTS",
    }  # fmt: skip
    assert get_system("king-internazionale").default_rules() == {
        "table_sizes": [4],
        "points": {
            "NF": -20,
            "NH": -20,
            "NQ": -50,
            "NJK": -30,
            "NKH": -160,
            "NU2": -90,
            "ASTA": 25,
        },
        "negative_base": 325,
        "negative_per_trick": -75,
        "plus_unit": 25,
        "minus_unit": 75,
        "max_plus": 8,
        "max_minus": 2,
        "unplayed_tricks": {"seller": 4, "others": 3},
        "standing": "MATCHPOINTS",
    }
    assert get_system("le-king").default_rules() == {
        "table_sizes": [3, 4],
        "order": "ALTERNATE",
        "points": {"NF": -1, "NH": -1, "NJK": -1, "NQ": -2, "NKH": -6, "RECUP": 1},
        "nu2_points": [-2, -2],
        "with_nu2": True,
        "standing": "MATCHPOINTS",
    }


@pytest.mark.parametrize("code", CODES)
def test_registered_on_the_boundary(code):
    system = get_system(code)
    assert isinstance(system, GameSystem)
    assert system.code == code and system.label
    assert code in [s.code for s in systems()]
    # the defaults round-trip: a season's stored copy is accepted as edits
    assert system.rules(system.default_rules()).as_dict() == system.default_rules()


def test_points_edit_replaces_only_the_codes_it_names():
    rules = get_system("king-classico").rules(
        {"games": ["NQ", "P7H"], "points": {"P7H": 4, "NQ": -4}}
    )
    assert rules.points["P7H"] == 4 and rules.points["NQ"] == -4 and rules.points["NKH"] == -8
    assert rules["games"] == ["NQ", "P7H"]
    # the defaults are not touched by a season's edits
    assert get_system("king-classico").default_rules()["points"]["NQ"] == -3


@pytest.mark.parametrize(
    ("code", "edits", "key"),
    [
        ("king-classico", {"tiebreak": []}, "tiebreak"),
        ("king-classico", {"sale_shortfall": -1}, "sale_shortfall"),
        ("king-classico", {"blind_factor": True}, "blind_factor"),
        ("king-classico", {"games": []}, "games"),
        ("king-classico", {"points": {"NQ": None}}, "points.NQ"),  # NQ is in games
        ("king-classico", {"points": {"ASTA": 1}}, "points.ASTA"),
        ("king-internazionale", {"points": {"ASTA": None}}, "points.ASTA"),
        ("king-internazionale", {"max_plus": 0}, "max_plus"),
        ("king-internazionale", {"unplayed_tricks": {"seller": 5, "others": 3}}, "unplayed_tricks"),
        ("king-internazionale", {"table_sizes": [4, 5]}, "table_sizes"),
        ("le-king", {"with_nu2": 0}, "with_nu2"),
        ("le-king", {"nu2_points": [-2, "-3"]}, "nu2_points"),
        ("le-king", {"order": "alternate"}, "order"),
        ("le-king", {"points": "NF"}, "points"),
    ],
)
def test_bad_edits_are_rules_problems_naming_the_key(code, edits, key):
    with pytest.raises(RuleViolation) as exc:
        get_system(code).rules(edits)
    assert [p.code for p in exc.value.problems] == ["RULES"]
    assert f"regolamento, {key}:" in exc.value.problems[0].message


def test_every_bad_key_at_once():
    with pytest.raises(RuleViolation) as exc:
        get_system("le-king").rules({"order": "X", "standing": "Y", "foo": 1})
    assert len(exc.value.problems) == 3


def test_a_game_gets_points_only_from_the_club():
    with pytest.raises(RuleViolation):
        get_system("king-classico").rules({"games": ["NQ", "U2"]})
    rules = get_system("king-classico").rules({"games": ["NQ", "U2"], "points": {"U2": 2}})
    assert rules.points["U2"] == 2


@pytest.mark.parametrize("code", CODES)
def test_boundary_round_trip_of_a_generated_turno(code):
    system = get_system(code)
    rules = system.rules()
    turno = system.random_turno(random.Random(3), ["A", "B", "C", "D"], rules)
    assert turno["date"] is None  # a turno being recorded has no date yet
    scored = system.score_turno(rules, turno)
    assert scored["date"] is None and len(scored["smazzate"]) == len(turno["smazzate"])
    head = {**turno, "smazzate": turno["smazzate"][:5]}
    assert system.next_step(rules, head)["number"] == 6
    assert system.check_smazzata(rules, head, turno["smazzate"][5]) == []
    running = system.score_turno(rules, head, require_complete=False)
    assert len(running["smazzate"]) == 5
    with pytest.raises(RuleViolation) as exc:
        system.score_turno(rules, head)
    assert [p.code for p in exc.value.problems] == ["SMAZZATE_COUNT"]
    with pytest.raises(RuleViolation) as exc:
        system.score_turno(rules, {**turno, "date": "2026-13-01"})
    assert [p.code for p in exc.value.problems] == ["DATE"]
