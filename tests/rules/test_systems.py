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


def test_the_registry_lists_the_systems_in_the_order_of_their_modules():
    # SYSTEM_MODULES' order (C.A.F., the King family, Skat, Ramino), whichever module a test or
    # a view imported first: the new-season form and the games' list show them so
    assert [s.code for s in systems()] == [
        "caf",
        "king-classico",
        "king-internazionale",
        "le-king",
        "skat-isko",
        "ramino-101",
    ]


def test_caf_tables_seat_three_to_seven_players():
    # SPEC §1: 3 <= N <= 7, a deck for each
    caf = get_system("caf")
    rules = caf.rules()
    assert caf.table_sizes(rules) == (3, 4, 5, 6, 7)
    assert [caf.deals_total(rules, n) for n in (2, 3, 7, 8)] == [None, 16, 28, None]


def test_caf_classifica_lists_every_title_once_scudetti_first():
    # SPEC §8.4: series, season score, Scudetti, turni, absences, then each title's count
    # (§8.3's order); the movement and the average beside them
    columns = get_system("caf").classifica_columns()
    assert [(c.key, c.kind) for c in columns] == [
        ("series", "series"),
        ("score", "score"),
        ("movement", "movement"),
        ("title_SCUDETTO", "count"),
        ("turni", "figure"),
        ("absences", "figure"),
        ("average", "average"),
        ("title_COPPA_CAMPIONI", "count"),
        ("title_INTERCONTINENTALE", "count"),
        ("title_UEFA", "count"),
        ("title_MITROPA", "count"),
        ("title_COPPA_ITALIA", "count"),
        ("title_RETROCESSIONE", "count"),
        ("title_RETROCESSIONE_CONTATORE", "count"),
    ]


def test_a_table_the_rules_allow_has_no_problem_and_one_they_do_not_is_named():
    # the King family's check of a new table (the base system's: an empty turno scored)
    king = get_system("king-classico")
    rules = king.rules(None)
    assert king.check_table(rules, ["Anna", "Bruno", "Carla", "Dario"], "Anna") == []
    three = king.check_table(rules, ["Anna", "Bruno", "Carla"], "Anna")
    assert [(p.code, p.field, p.message) for p in three] == [
        ("PLAYERS_COUNT", "players", "Giocatori: 3, ma questo gioco si gioca in 4.")
    ]


def test_a_seasons_edited_rules_are_the_systems_rule_set():
    # SPEC §9: a club that scores Q♠ at -10; the season stores the whole table
    caf = get_system("caf")
    edits = caf.default_rules()
    edits["games"]["NQS"]["per_unit"] = -10
    rules = caf.rules(edits)
    assert rules.games["NQS"].per_unit == -10
    assert rules.games["NJ"].per_unit == caf.rules().games["NJ"].per_unit == -3
    with pytest.raises(RuleViolation) as exc:
        caf.rules({})
    assert [(p.code, p.field) for p in exc.value.problems] == [("RULES", "rules")]


def test_caf_asks_for_a_spareggio_only_once_the_turno_is_finished():
    # SPEC §7: a tie is settled at the table by the spareggio, recorded once the totals are
    # final; before that, and when no two totals are equal, there is nothing to ask
    caf = get_system("caf")
    rules = caf.rules()
    seats = ["A", "B", "C", "D"]
    turno = caf.random_turno(random.Random(7), seats, rules)
    totals = caf.score_turno(rules, turno)["totals"]
    assert len(set(totals.values())) == 4  # no tie as drawn
    assert caf.ties(rules, turno) == []
    # a penalità brings the best total down to the second's: the two must draw
    first, second = sorted(seats, key=totals.__getitem__, reverse=True)[:2]
    penalty = {"player": first, "points": totals[second] - totals[first], "article": "9"}
    tied = {**turno, "penalties": [*turno.get("penalties", []), {**penalty, "reason": "x"}]}
    assert caf.ties(rules, tied) == [sorted([first, second], key=seats.index)]
    assert caf.ties(rules, {**tied, "tiebreak": [second, first]}) == []
    assert caf.ties(rules, {**tied, "smazzate": tied["smazzate"][:-1]}) == []


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
            s.open_tables_excuse,
            s.one_turno_a_day,
            s.has_preview,
            s.has_sheet,
            s.game_names_translated,
        )
        for s in systems()
    }
    assert all(isinstance(s, BaseSystem) for s in systems())
    assert declared == {
        # the last: the game names are words said in the reader's language; C.A.F.'s are the
        # club's own abbreviations (NQ♠, Briscola), printed as written
        "caf": ("counts", True, True, True, True, True, True, False, False, False),
        "king-classico": ("records", True, False, False, False, False, True, False, False, True),
        "king-internazionale": (
            "records",
            True,
            False,
            False,
            False,
            False,
            True,
            False,
            False,
            True,
        ),
        "le-king": ("records", True, False, False, False, False, True, False, False, True),
        "skat-isko": ("records", True, False, False, False, False, False, True, True, True),
        "ramino-101": ("records", False, False, False, False, False, False, False, False, True),
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


def test_the_classifica_order_of_tied_places():
    """Rows read in place order: C.A.F. shows equal places by more Scudetti, then name (SPEC
    §8.4); every other game keeps them in the order its system ranked them."""
    from scoring.rules.systems import get_system

    rows = [
        {"place": 1, "player": "Zeno", "scudetti": 0},
        {"place": 2, "player": "Bruno", "scudetti": 0},
        {"place": 2, "player": "Anna", "scudetti": 0},
        {"place": 2, "player": "Carla", "scudetti": 1},
    ]
    assert [r["player"] for r in get_system("caf").classifica_order(rows)] == [
        "Zeno",
        "Carla",
        "Anna",
        "Bruno",
    ]
    for code in ("king-classico", "king-internazionale", "le-king", "skat-isko", "ramino-101"):
        assert get_system(code).classifica_order(rows) == rows
