"""Every invalid input of SPEC-skat §11 is rejected with its code, the list, the game and the
player named; every problem of a document at once."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from scoring.rules.problems import RuleViolation
from scoring.rules.skat import score_document, skat_rules
from scoring.rules.skat.lista import check_game

SAMPLE = json.loads(
    (Path(__file__).resolve().parents[3] / "fixtures" / "skat-sample.json").read_text()
)
R = skat_rules()


def doc_with(change) -> dict:
    doc = copy.deepcopy(SAMPLE)
    change(doc)
    return doc


def problems_of(doc) -> list:
    with pytest.raises(RuleViolation) as exc:
        score_document(doc)
    return list(exc.value.problems)


def codes_of(doc) -> list[str]:
    return [p.code for p in problems_of(doc)]


def set_game(list_index: int, number: int, record: dict):
    def change(doc):
        doc["turni"][list_index]["smazzate"][number - 1] = record

    return change


GOOD = {
    "declarer": "Anna",
    "game": "HEARTS",
    "bid": 20,
    "matadors": 1,
    "with": True,
    "declarer_points": 70,
    "declarer_tricks": 6,
}


def game(**changes):
    record = {**GOOD, **changes}
    return {k: v for k, v in record.items() if v is not ...}


# (code, the game recorded as game 36 of list 1 — dealer Carla; Anna declares)
GAME_CASES = [
    ("PASSED_WITH_DATA", {"passed": True, "declarer": "Anna"}),
    ("PASSED_WITH_DATA", {"passed": True, "game": "NULL", "declarer_tricks": 0}),
    ("PASSED_WITH_DATA", {"passed": True, "declarer_tricks": 0}),
    ("PASSED_WITH_DATA", {"passed": True, "hand": True}),
    ("UNKNOWN_PLAYER", game(declarer="Zorro")),
    ("UNKNOWN_PLAYER", game(declarer=...)),
    ("GAME_UNKNOWN", game(game="RAMSCH")),
    ("GAME_UNKNOWN", game(game=...)),
    ("BID_INVALID", game(bid=19)),
    ("BID_INVALID", game(bid=17)),
    ("BID_INVALID", game(bid=288)),
    ("BID_INVALID", game(bid=...)),
    ("NULL_BID", {"declarer": "Anna", "game": "NULL", "bid": 24, "declarer_tricks": 0}),
    ("NULL_BID", {"declarer": "Anna", "game": "NULL", "bid": 48, "ouvert": True,
                  "declarer_tricks": 0}),
    ("NULL_FIELD", {"declarer": "Anna", "game": "NULL", "bid": 23, "matadors": 1,
                    "declarer_tricks": 0}),
    ("NULL_FIELD", {"declarer": "Anna", "game": "NULL", "bid": 23, "with": False,
                    "declarer_tricks": 0}),
    ("NULL_FIELD", {"declarer": "Anna", "game": "NULL", "bid": 23, "declarer_points": 0,
                    "declarer_tricks": 0}),
    ("NULL_FIELD", {"declarer": "Anna", "game": "NULL", "bid": 35, "hand": True,
                    "schneider_announced": True, "declarer_tricks": 0}),
    ("MATADORS_RANGE", game(matadors=0)),
    ("MATADORS_RANGE", game(matadors=12)),
    ("MATADORS_RANGE", game(game="GRAND", bid=48, matadors=5)),
    ("MATADORS_RANGE", game(matadors=...)),
    ("MATADORS_RANGE", game(**{"with": ...})),
    ("POINTS_RANGE", game(declarer_points=121)),
    ("POINTS_RANGE", game(declarer_points=-1)),
    ("POINTS_RANGE", game(declarer_points=...)),
    ("TRICKS_RANGE", game(declarer_tricks=11)),
    ("TRICKS_RANGE", game(declarer_tricks=-1)),
    ("TRICKS_RANGE", game(declarer_tricks=...)),
    ("TRICKS_RANGE", {"declarer": "Anna", "game": "NULL", "bid": 23}),
    ("SCHWARZ_POINTS", game(declarer_points=119, declarer_tricks=10)),
    ("SCHWARZ_POINTS", game(declarer_points=23, declarer_tricks=0)),
    ("ANNOUNCE_NEEDS_HAND", game(schneider_announced=True)),
    ("ANNOUNCE_NEEDS_HAND", game(game="GRAND", bid=48, hand=False, ouvert=True,
                                 schneider_announced=True, schwarz_announced=True,
                                 declarer_points=120, declarer_tricks=10)),
    ("SCHWARZ_NEEDS_SCHNEIDER", game(hand=True, schwarz_announced=True,
                                     declarer_points=120, declarer_tricks=10)),
    ("OUVERT_NEEDS_SCHWARZ", game(hand=True, ouvert=True, schneider_announced=True)),
    ("FIELD_TYPE", game(hand="yes")),
    ("FIELD_TYPE", game(ouvert=1)),
    ("FIELD_TYPE", game(bid=20.0)),
    ("FIELD_TYPE", game(bid="20")),
    ("FIELD_TYPE", game(matadors=True)),
    ("FIELD_TYPE", game(declarer_points="70")),
    ("FIELD_TYPE", game(**{"with": "with"})),
    ("FIELD_TYPE", {"passed": "yes"}),
    ("FORMAT", game(schneider_anounced=True)),
    ("FORMAT", ["Anna", "HEARTS"]),
]  # fmt: skip


@pytest.mark.parametrize(("code", "record"), GAME_CASES)
def test_an_invalid_game_is_rejected_with_its_code_naming_list_game_and_player(code, record):
    problems = problems_of(doc_with(set_game(0, 36, record)))
    assert [p.code for p in problems] == [code]
    (p,) = problems
    assert p.turno == "2026-11-20 #1"
    assert p.smazzata == 36
    declarer = record.get("declarer") if isinstance(record, dict) else None
    assert p.player == (declarer if isinstance(declarer, str) else None)
    line = p.describe()
    assert line.startswith("turno 2026-11-20 #1, smazzata 36")
    assert f"[{code}]" in line


def test_the_declarer_may_not_be_the_sitting_out_dealer_at_four():
    # list 2: first dealer Bruno, so game 5 is dealt by Bruno again (Bruno, Carla, Dario, Anna)
    problems = problems_of(doc_with(set_game(1, 5, game(declarer="Bruno"))))
    assert [(p.code, p.smazzata, p.player, p.turno) for p in problems] == [
        ("DECLARER_SITS_OUT", 5, "Bruno", "2026-11-27 #1")
    ]


def test_the_dealer_declares_at_three():
    # list 1, game 36: dealer Carla (Anna, Bruno, Carla, …): the dealer may play at 3
    doc = doc_with(set_game(0, 36, game(declarer="Carla")))
    assert score_document(doc)["turni"][0]["smazzate"][35]["dealer"] == "Carla"


def test_every_problem_of_a_game_is_reported_at_once():
    record = {
        "declarer": "Anna",
        "game": "SPADES",
        "bid": 19,
        "ouvert": True,
        "matadors": 12,
        "with": True,
        "declarer_points": 121,
        "declarer_tricks": 10,
    }
    assert codes_of(doc_with(set_game(0, 1, record))) == [
        "BID_INVALID",
        "MATADORS_RANGE",
        "POINTS_RANGE",
        "ANNOUNCE_NEEDS_HAND",
        "OUVERT_NEEDS_SCHWARZ",
    ]


def test_every_problem_of_a_document_is_reported_at_once():
    def change(doc):
        doc["turni"][0]["smazzate"][2]["bid"] = 21
        doc["turni"][1]["smazzate"][6]["declarer"] = "Elena"
        doc["turni"][1]["penalties"] = [{"player": "Zorro", "points": -10, "reason": "x"}]

    problems = problems_of(doc_with(change))
    assert [(p.code, p.turno, p.smazzata, p.player) for p in problems] == [
        ("BID_INVALID", "2026-11-20 #1", 3, "Carla"),
        ("UNKNOWN_PLAYER", "2026-11-27 #1", 7, "Elena"),
        ("UNKNOWN_PLAYER", "2026-11-27 #1", None, "Zorro"),
    ]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda d: d.update(format="kingclub/v2"), "FORMAT"),
        (lambda d: d.update(ruleset="caf"), "FORMAT"),
        (lambda d: d["turni"][0].update(date="2026-13-01"), "FORMAT"),
        (lambda d: d["turni"][0].update(date=None), "FORMAT"),
        (lambda d: d["turni"][0].update(number=0), "FORMAT"),
        (lambda d: d.update(turni={}), "FORMAT"),
        (lambda d: d["turni"][0].update(smazzate={"1": {"passed": True}}), "FORMAT"),
        (lambda d: d["turni"][0].update(players="Anna, Bruno, Carla"), "FORMAT"),
        (lambda d: d["turni"][0].update(tiebreak="Anna"), "FORMAT"),
        (lambda d: d["turni"][0].update(penalties={"Anna": -5}), "FORMAT"),
        (lambda d: d.update(roster="Anna"), "FORMAT"),
        (lambda d: d["turni"][1].update(date="2026-11-20"), "DUPLICATE_TURNO"),
        (lambda d: d["turni"][0].update(players=["Anna", "Bruno"]), "PLAYERS_COUNT"),
        (lambda d: d["turni"][0].update(players=["Anna", "Bruno", "Anna"]), "PLAYERS_COUNT"),
        (
            lambda d: d["turni"][1].update(players=["Anna", "Bruno", "Carla", "Dario", "Elena"]),
            "PLAYERS_COUNT",
        ),
        (lambda d: d["turni"][0].update(first_dealer="Dario"), "FIRST_DEALER"),
        (lambda d: d["turni"][0]["smazzate"].pop(), "GAMES_COUNT"),
        (lambda d: d["turni"][1]["smazzate"].append({"passed": True}), "GAMES_COUNT"),
        (lambda d: d["turni"][0].update(tiebreak=["Zorro"]), "UNKNOWN_PLAYER"),
        (
            lambda d: d["turni"][0].update(penalties=[{"player": "Dario", "points": -5}]),
            "UNKNOWN_PLAYER",
        ),
        (
            lambda d: d["turni"][0].update(penalties=[{"player": "Anna", "points": "5"}]),
            "FIELD_TYPE",
        ),
        (lambda d: d["turni"][1].update(tiebreak=[]), "TIE_UNSETTLED"),
        (lambda d: d["turni"][1].update(tiebreak=["Anna"]), "TIE_UNSETTLED"),
        (lambda d: d["turni"][1].update(tiebreak=["Bruno", "Anna", "Bruno"]), "TIE_UNSETTLED"),
        # Anna and Bruno (120) drawn before Dario (978): the draw contradicts the scores
        (lambda d: d["turni"][1].update(tiebreak=["Bruno", "Anna", "Dario"]), "TIE_UNSETTLED"),
        (lambda d: d.update(rules={"lost_factor": 0}), "RULES"),
    ],
)
def test_an_invalid_list_or_document_is_rejected_with_its_code(change, code):
    assert codes_of(doc_with(change)) == [code]


def test_a_draw_listing_every_player_in_the_scores_order_is_accepted():
    doc = doc_with(lambda d: d["turni"][1].update(tiebreak=["Dario", "Carla", "Bruno", "Anna"]))
    assert score_document(doc)["turni"][1]["places"] == {
        "Anna": 4,
        "Bruno": 3,
        "Carla": 2,
        "Dario": 1,
    }


def test_the_draw_decides_the_other_way_too():
    doc = doc_with(lambda d: d["turni"][1].update(tiebreak=["Anna", "Bruno"]))
    assert score_document(doc)["turni"][1]["places"] == {
        "Anna": 3,
        "Bruno": 4,
        "Carla": 2,
        "Dario": 1,
    }


def test_not_rejected_an_overbid_and_a_game_that_cannot_reach_its_bid():
    # Diamonds without 1, bid 264: the most it could be is (1 + 7) × 9 = 72 without ouvert;
    # it is an overbid, charged ⌈264/9⌉ = 30 × 9 = 270, lost −540, −590
    doc = doc_with(set_game(0, 36, game(game="DIAMONDS", bid=264, **{"with": False})))
    row = score_document(doc)["turni"][0]["smazzate"][35]
    assert (row["multiplier"], row["value"], row["overbid"], row["won"], row["score"]) == (
        30,
        270,
        True,
        False,
        -540,
    )
    assert row["points"] == {"Anna": -590, "Bruno": 40, "Carla": 40}


def test_a_penalty_is_refused_when_the_rule_set_allows_none():
    def change(doc):
        doc["rules"] = {"penalties_allowed": False}
        doc["turni"][0]["penalties"] = [{"player": "Anna", "points": -5, "reason": "x"}]

    assert codes_of(doc_with(change)) == ["PENALTY_NOT_ALLOWED"]


def test_check_game_against_the_list_so_far():
    lista = copy.deepcopy(SAMPLE["turni"][1])
    head = {**lista, "smazzate": lista["smazzate"][:4]}  # game 5 is dealt by Bruno
    assert check_game(R, head, game(declarer="Anna")) == []
    assert [p.code for p in check_game(R, head, game(declarer="Bruno", bid=21))] == [
        "DECLARER_SITS_OUT",
        "BID_INVALID",
    ]
    full = {**lista}
    assert [p.code for p in check_game(R, full, {"passed": True})] == ["GAMES_COUNT"]
    assert [p.code for p in check_game(R, {**lista, "first_dealer": "Zorro"}, GOOD)] == [
        "FIRST_DEALER"
    ]
