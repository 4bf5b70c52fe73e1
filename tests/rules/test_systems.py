"""The game-system boundary: the registry and the C.A.F. implementation of the protocol."""

import random

import pytest

from scoring.rules.problems import RuleViolation
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


def test_every_system_declares_its_features_on_the_base_class():
    from scoring.rules.systems import BaseSystem, systems

    declared = {
        s.code: (
            s.ledger,
            s.takes_penalties,
            s.takes_sanctions,
            s.series_ladder,
            s.giornata_chained,
            s.one_turno_a_day,
            s.has_preview,
            s.has_sheet,
        )
        for s in systems()
    }
    assert all(isinstance(s, BaseSystem) for s in systems())
    assert declared == {
        "caf": ("counts", True, True, True, True, True, False, False),
        "king-classico": ("records", True, False, False, False, True, False, False),
        "king-internazionale": ("records", True, False, False, False, True, False, False),
        "le-king": ("records", True, False, False, False, True, False, False),
        "skat-isko": ("records", True, False, False, False, False, True, True),
        "ramino-101": ("records", False, False, False, False, False, False, False),
    }


def test_a_system_without_a_sheet_gives_none_and_without_a_preview_refuses():
    from scoring.rules.systems import get_system

    ramino = get_system("ramino-101")
    assert ramino.sheet(ramino.rules(None), {"players": [], "smazzate": []}) is None
    with pytest.raises(NotImplementedError):
        ramino.preview(ramino.rules(None), {}, {})


def test_the_frame_asks_features_and_never_probes_a_system():
    """Outside the engine nothing asks a game system with getattr/hasattr (a feature is data)."""
    import pathlib
    import re

    probe = re.compile(r"\b(getattr|hasattr)\((season\.)?system\b")
    root = pathlib.Path(__file__).resolve().parents[2] / "scoring"
    found = [
        f"{path.relative_to(root)}:{n}"
        for path in root.rglob("*.py")
        if "rules" not in path.relative_to(root).parts
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if probe.search(line)
    ]
    assert found == []
