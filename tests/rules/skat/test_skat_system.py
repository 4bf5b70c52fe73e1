"""Skat through the game-system boundary (scoring/rules/systems.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from scoring.rules.problems import RuleViolation
from scoring.rules.systems import GameSystem, get_system, system_of_document, systems

SAMPLE = json.loads(
    (Path(__file__).resolve().parents[3] / "fixtures" / "skat-sample.json").read_text()
)


def test_skat_is_registered_beside_caf_and_implements_the_protocol():
    skat = get_system("skat-isko")
    assert isinstance(skat, GameSystem)
    assert (skat.code, skat.label) == ("skat-isko", "Skat")
    codes = [s.code for s in systems()]
    assert codes[0] == "caf" and "skat-isko" in codes
    assert system_of_document(SAMPLE) is skat


def test_the_rule_set_through_the_boundary():
    skat = get_system("skat-isko")
    assert skat.default_rules()["opponents_bonus"] == {"3": 40, "4": 30}
    assert skat.rules({"games_per_list": {"4": 32}}).games_per_list == {3: 36, 4: 32}
    with pytest.raises(RuleViolation) as exc:
        skat.rules({"won_bonus": -1})
    assert [p.code for p in exc.value.problems] == ["RULES"]


def test_a_list_through_the_boundary():
    skat = get_system("skat-isko")
    rules = skat.rules()
    lista = SAMPLE["turni"][1]
    head = {**lista, "smazzate": lista["smazzate"][:4]}
    step = skat.next_step(rules, head)
    assert (step["number"], step["dealer"], step["sitting_out"]) == (5, "Bruno", "Bruno")
    assert skat.check_smazzata(rules, head, lista["smazzate"][4]) == []
    bad = {**lista["smazzate"][4], "declarer": "Bruno", "bid": 21}
    assert [p.code for p in skat.check_smazzata(rules, head, bad)] == [
        "DECLARER_SITS_OUT",
        "BID_INVALID",
    ]
    assert skat.score_turno(rules, lista)["totals"] == {
        "Anna": 120,
        "Bruno": 120,
        "Carla": 720,
        "Dario": 978,
    }
    running = skat.running_list(rules, {**head, "date": None})
    assert running["places"] is None and len(running["smazzate"]) == 4
    rows = skat.standing(rules, ["Elena"], SAMPLE["turni"])
    assert [(r["player"], r["list_points"]) for r in rows] == [
        ("Carla", 1247),
        ("Dario", 978),
        ("Bruno", 647),
        ("Anna", 394),
        ("Elena", 0),
    ]


@pytest.mark.parametrize("n", [3, 4])
def test_random_turno_through_the_boundary_is_a_valid_complete_list(n):
    skat = get_system("skat-isko")
    rules = skat.rules()
    players = ["Anna", "Bruno", "Carla", "Dario"][:n]
    turno = skat.random_turno(random.Random(11), players, rules)
    scored = skat.score_turno(rules, turno)
    assert len(scored["smazzate"]) == (36 if n == 3 else 48)
    assert sorted(scored["places"].values()) == list(range(1, n + 1))
    assert skat.next_step(rules, turno)["complete"] is True


def test_preview_values_the_next_game_as_it_is_typed():
    from scoring.rules.skat import preview, skat_rules

    rules = skat_rules()
    lista = SAMPLE["turni"][1]
    head = {**lista, "smazzate": lista["smazzate"][:4]}  # game 5: Bruno deals and sits out
    record = {"declarer": "Anna", "game": "SPADES", "bid": 33, "matadors": 2, "with": False,
              "declarer_points": 58, "declarer_tricks": 5}  # fmt: skip
    row, problems = preview(rules, head, record)
    # Spades without 2, 58 points: (2 + 1) × 11 = 33, lost −66, −116; +30 to Bruno, Carla, Dario
    assert problems == []
    assert (row["number"], row["dealer"], row["value"], row["won"], row["score"]) == (
        5, "Bruno", 33, False, -66,
    )  # fmt: skip
    assert row["points"] == {"Anna": -116, "Bruno": 30, "Carla": 30, "Dario": 30}
    row, problems = preview(rules, head, {**record, "declarer": "Bruno"})
    assert row is None and [p.code for p in problems] == ["DECLARER_SITS_OUT"]
