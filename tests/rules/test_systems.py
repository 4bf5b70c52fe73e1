"""The game-system boundary: the registry and the C.A.F. implementation of the protocol."""

import random

import pytest

from scoring.rules import RuleViolation
from scoring.rules.systems import GameSystem, get_system, system_of_document, systems


def test_caf_is_registered_and_implements_the_protocol():
    caf = get_system("caf")
    assert isinstance(caf, GameSystem)
    assert caf.code == "caf"
    assert "caf" in [s.code for s in systems()]


def test_unknown_code_is_a_ruleset_problem():
    with pytest.raises(RuleViolation) as exc:
        get_system("briscola")
    assert [p.code for p in exc.value.problems] == ["RULESET"]


def test_a_document_without_ruleset_is_caf():
    assert system_of_document({"format": "kingclub/v1"}).code == "caf"
    assert system_of_document([]).code == "caf"


def test_caf_random_turno_scores_and_checks_through_the_boundary():
    caf = get_system("caf")
    rules = caf.rules()
    turno = caf.random_turno(random.Random(7), ["A", "B", "C", "D"], rules)
    scored = caf.score_turno(rules, turno)
    # every point of the turno is the sum of its smazzate plus penalità
    for p in ["A", "B", "C", "D"]:
        assert scored["totals"][p] == sum(s["points"][p] for s in scored["smazzate"]) + scored[
            "penalties"
        ].get(p, 0)
    head = {**turno, "smazzate": turno["smazzate"][:5]}
    assert caf.next_step(rules, head)["number"] == 6
    assert caf.check_smazzata(rules, head, turno["smazzate"][5]) == []
    again = caf.check_smazzata(rules, head, turno["smazzate"][4])
    assert [p.code for p in again] == ["GAME_ALREADY_PLAYED"]
    assert again[0].smazzata == 6
