"""Ramino 101: the SPEC's worked match, number by number (SPEC-ramino §13), and each rule."""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from scoring.rules.problems import RuleViolation
from scoring.rules.ramino import build_rules, ramino_101
from scoring.rules.ramino.document import score_match, score_season
from scoring.rules.systems import get_system

SAMPLE = Path(__file__).resolve().parents[3] / "fixtures" / "ramino-sample.json"
P4 = ["Anna", "Bruno", "Carla", "Dario"]


def sample() -> dict:
    return json.loads(SAMPLE.read_text())


def match(smazzate, players=P4, first="Anna", tiebreak=(), rules=None):
    return score_match(
        rules or ramino_101(),
        {
            "date": "2026-11-20",
            "number": 1,
            "players": list(players),
            "first_dealer": first,
            "smazzate": smazzate,
            "tiebreak": list(tiebreak),
        },
    )


def codes(exc) -> list[str]:
    return [p.code for p in exc.value.problems]


def test_worked_match_number_by_number():
    out = score_season(sample())
    t = out["turni"][0]
    rows = [(s["dealer"], s["closer"], s["close"], s["points"], s["totals"]) for s in t["smazzate"]]
    assert rows == [
        ("Anna", "Bruno", "NORMALE", {"Anna": 34, "Bruno": -10, "Carla": 12, "Dario": 55},
         {"Anna": 34, "Bruno": -10, "Carla": 12, "Dario": 55}),
        ("Bruno", "Carla", "COLORE", {"Anna": 28, "Bruno": 40, "Carla": -25, "Dario": 45},
         {"Anna": 62, "Bruno": 30, "Carla": -13, "Dario": 100}),
        ("Carla", "Anna", "DUE_CARTE", {"Anna": 3, "Bruno": 18, "Carla": 60, "Dario": 1},
         {"Anna": 65, "Bruno": 48, "Carla": 47, "Dario": 101}),
        ("Dario", "Dario", "FIGURA", {"Anna": 40, "Bruno": 57, "Carla": 20, "Dario": -50},
         {"Anna": 105, "Bruno": 105, "Carla": 67, "Dario": 15}),
        ("Anna", "Carla", "NORMALE", {"Anna": 30, "Carla": -10, "Dario": 44},
         {"Anna": 97, "Carla": 57, "Dario": 59}),
        ("Carla", "Dario", "NORMALE", {"Anna": 4, "Carla": 45, "Dario": -10},
         {"Anna": 101, "Carla": 102, "Dario": 49}),
        ("Dario", "Carla", "NORMALE", {"Carla": -10, "Dario": 52}, {"Carla": 39, "Dario": 101}),
    ]  # fmt: skip
    events = [(s["eliminated"], s["reentered"], s["out"]) for s in t["smazzate"]]
    assert events == [
        ([], {}, []),
        ([], {}, []),  # Dario at 100 stays in
        (["Dario"], {"Dario": 65}, []),  # 101 is out; re-enters at the highest still in
        (["Anna", "Bruno"], {"Anna": 67}, ["Bruno"]),
        ([], {}, []),
        (["Anna", "Carla"], {"Carla": 49}, ["Anna"]),  # Anna's second time: out for good
        (["Dario"], {}, ["Dario"]),
    ]
    assert t["winner"] == "Carla"
    assert t["places"] == {"Anna": 3, "Bruno": 4, "Carla": 1, "Dario": 2}
    assert t["final_totals"] == {"Anna": 101, "Bruno": 105, "Carla": 39, "Dario": 101}
    assert t["reentries"] == [
        {"smazzata": 3, "player": "Dario", "total": 65, "fee": "1.00"},
        {"smazzata": 4, "player": "Anna", "total": 67, "fee": "1.00"},
        {"smazzata": 6, "player": "Carla", "total": 49, "fee": "1.00"},
    ]
    assert t["fees"] == {"Anna": "1.00", "Bruno": "0.00", "Carla": "1.00", "Dario": "1.00"}
    assert t["league_points"] == {"Anna": 1, "Bruno": 0, "Carla": 3, "Dario": 2}


def test_instant_win_with_a_tie_settled_by_the_draw():
    t = score_season(sample())["turni"][1]
    assert [s["instant_win"] for s in t["smazzate"]] == [False, False, True]
    assert t["smazzate"][2]["points"] == {"Elena": 0, "Anna": 0, "Bruno": 0}
    assert t["smazzate"][2]["totals"] == {"Elena": -35, "Anna": 30, "Bruno": 30}
    assert t["places"] == {"Elena": 1, "Anna": 3, "Bruno": 2}
    assert t["league_points"] == {"Elena": 2, "Anna": 0, "Bruno": 1}


def test_two_players_reentry_at_a_negative_total_and_pokerissimo():
    t = score_season(sample())["turni"][2]
    assert [s["dealer"] for s in t["smazzate"]] == ["Carla", "Elena", "Carla"]
    assert t["smazzate"][1]["totals"] == {"Carla": -35, "Elena": 110}
    assert t["smazzate"][1]["reentered"] == {"Elena": -35}
    assert t["winner"] == "Elena"
    assert t["places"] == {"Carla": 2, "Elena": 1}
    assert t["final_totals"] == {"Carla": -35, "Elena": -35}
    assert t["fees"] == {"Carla": "0.00", "Elena": "1.00"}


def test_season_standing_shares_places_and_orders_by_wins_then_name():
    assert score_season(sample())["classifica"] == [
        {"place": 1, "player": "Elena", "league_points": 3, "turni": 2, "wins": 2},
        {"place": 1, "player": "Carla", "league_points": 3, "turni": 2, "wins": 1},
        {"place": 3, "player": "Dario", "league_points": 2, "turni": 1, "wins": 0},
        {"place": 4, "player": "Anna", "league_points": 1, "turni": 2, "wins": 0},
        {"place": 4, "player": "Bruno", "league_points": 1, "turni": 2, "wins": 0},
        {"place": 6, "player": "Fabio", "league_points": 0, "turni": 0, "wins": 0},
    ]


def test_output_keys_in_the_spec_order():
    out = score_season(sample())
    assert list(out) == ["format", "ruleset", "turni", "classifica"]
    t = out["turni"][0]
    assert list(t) == [
        "date", "number", "smazzate", "winner", "places", "final_totals", "reentries", "fees",
        "league_points",
    ]  # fmt: skip
    assert list(t["smazzate"][0]) == [
        "number", "dealer", "closer", "close", "instant_win", "points", "totals", "eliminated",
        "reentered", "out",
    ]  # fmt: skip


def test_max_penalty_is_derived_from_the_deck_and_the_values():
    assert ramino_101().max_penalty == 104  # 4 jokers (44) + six cards worth 10
    assert build_rules({"card_values": {"A": 11}}).max_penalty == 110
    assert ramino_101().two_card_min == 2  # A + A


def test_due_carte_closer_can_be_eliminated_and_nobody_in_means_lowest_wins():
    # two players at 99 and 98: the closer keeps 5 (104), the other takes 10 (108): both out,
    # nobody still in to copy, so no re-entry; the lowest total of that smazzata wins (§7.3)
    rules = ramino_101()
    done = match(
        [
            {"closer": "Anna", "close": "NORMALE", "penalties": {"Bruno": 98}},  # A -10, B 98
            {"closer": "Bruno", "close": "NORMALE", "penalties": {"Anna": 100}},  # A 90, B 88
            {"closer": "Anna", "close": "DUE_CARTE", "closer_points": 5,
             "penalties": {"Bruno": 20}},  # A 95, B 108 -> Bruno out, Anna wins
        ],
        players=["Anna", "Bruno"],
        rules=rules,
    )  # fmt: skip
    assert done["winner"] == "Anna"
    assert done["final_totals"] == {"Anna": 95, "Bruno": 108}
    both = match(
        [
            {"closer": "Anna", "close": "NORMALE", "penalties": {"Bruno": 98}},  # A -10, B 98
            {"closer": "Bruno", "close": "NORMALE", "penalties": {"Anna": 100}},  # A 90, B 88
            {"closer": "Bruno", "close": "NORMALE", "penalties": {"Anna": 6}},  # A 96, B 78
            {"closer": "Anna", "close": "DUE_CARTE", "closer_points": 5,
             "penalties": {"Bruno": 30}},  # A 101, B 108: both out at once
        ],
        players=["Anna", "Bruno"],
    )  # fmt: skip
    assert both["smazzate"][-1]["out"] == ["Anna", "Bruno"]
    assert both["winner"] == "Anna"
    assert both["places"] == {"Anna": 1, "Bruno": 2}


def test_players_out_together_are_placed_lowest_total_first_then_by_the_draw():
    smazzate = [
        {"closer": "Anna", "close": "NORMALE", "penalties": {"Bruno": 104, "Carla": 101}},
    ]
    t = match(smazzate, players=["Anna", "Bruno", "Carla"])
    assert t["places"] == {"Anna": 1, "Carla": 2, "Bruno": 3}
    tied = [{"closer": "Anna", "close": "NORMALE", "penalties": {"Bruno": 101, "Carla": 101}}]
    with pytest.raises(RuleViolation) as exc:
        match(tied, players=["Anna", "Bruno", "Carla"])
    assert codes(exc) == ["TIE_UNSETTLED"]
    t = match(tied, players=["Anna", "Bruno", "Carla"], tiebreak=["Carla", "Bruno"])
    assert t["places"] == {"Anna": 1, "Carla": 2, "Bruno": 3}


def test_close_values_can_go_to_the_others():
    rules = build_rules({"close_values_to": "OTHERS"})
    t = match(
        [
            {"closer": "Anna", "close": "COLORE", "penalties": {"Bruno": 10}},
            {"closer": "Anna", "close": "SCALA_REALE"},
        ],
        players=["Anna", "Bruno"],
        rules=rules,
    )
    assert t["smazzate"][0]["points"] == {"Anna": 0, "Bruno": 35}


def test_edited_threshold_and_fee_and_min_in():
    rules = build_rules({"elimination": 50, "reentry_fee": "2.50"})
    t = match(
        [
            {"closer": "Anna", "close": "NORMALE", "penalties": {"Bruno": 50, "Carla": 49},
             "reentries": ["Bruno"]},
            {"closer": "Carla", "close": "NORMALE", "penalties": {"Anna": 60, "Bruno": 1}},
        ],
        players=["Anna", "Bruno", "Carla"],
        rules=rules,
        tiebreak=["Anna", "Bruno"],
    )  # fmt: skip
    assert t["smazzate"][0]["reentered"] == {"Bruno": 49}  # max(-10, 49)
    assert t["fees"] == {"Anna": "0.00", "Bruno": "2.50", "Carla": "0.00"}
    # Anna -10 + 60 = 50 (out: no re-entry asked), Bruno 49 + 1 = 50 (second time: out)
    assert t["smazzate"][1]["totals"] == {"Anna": 50, "Bruno": 50, "Carla": 39}
    assert t["smazzate"][1]["out"] == ["Anna", "Bruno"]
    assert t["winner"] == "Carla"
    assert t["places"] == {"Anna": 2, "Bruno": 3, "Carla": 1}  # equal at 50: the draw decides
    # a stricter club: at least two players still in to allow a re-entry
    strict = build_rules({"reentry_min_in": 2})
    with pytest.raises(RuleViolation) as exc:
        match(
            [{"closer": "Anna", "close": "NORMALE", "penalties": {"Bruno": 101, "Carla": 102},
              "reentries": ["Bruno"]}, {"closer": "Anna", "close": "SCALA_REALE"}],
            players=["Anna", "Bruno", "Carla"],
            rules=strict,
        )  # fmt: skip
    assert codes(exc) == ["REENTRY_NOT_ELIGIBLE"]


def test_rules_edits_are_checked():
    with pytest.raises(RuleViolation) as exc:
        build_rules({"elimination": "101", "colour": 3, "reentry_fee": 1.5})
    assert codes(exc) == ["RULES", "RULES", "RULES"]
    assert build_rules({"reentry_fee": "0"}).reentry_fee == Decimal("0.00")


def test_next_step_for_the_live_sheet():
    system = get_system("ramino-101")
    rules = system.rules()
    turno = {**sample()["turni"][0]}
    turno["smazzate"] = turno["smazzate"][:4]
    step = system.next_step(rules, turno)
    assert step == {
        "number": 5,
        "dealer": "Anna",
        "complete": False,
        "in": ["Anna", "Carla", "Dario"],
        "totals": {"Anna": 67, "Carla": 67, "Dario": 15},
        "danger": {"Anna": 34, "Carla": 34, "Dario": 86},
        "reentries_left": {"Anna": 0, "Carla": 1, "Dario": 0},
        "out": ["Bruno"],
        "closes": ["NORMALE", "COLORE", "FIGURA", "DUE_CARTE", "SCALA_REALE", "POKERISSIMO"],
        "winner": None,
    }
    # "rientra?": smazzata 6 eliminates Anna (no re-entry left) and Carla (re-enters at 49)
    head = {**turno, "smazzate": sample()["turni"][0]["smazzate"][:5]}
    sixth = {"closer": "Dario", "close": "NORMALE", "penalties": {"Anna": 4, "Carla": 45}}
    assert system.reentry_offers(rules, head, sixth) == {"Carla": 49}
