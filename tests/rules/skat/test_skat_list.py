"""The list and the season: dealer and who sits out, totals, the tie rule, places, the standing,
the rule set as data; the sample season of fixtures/ scored to SPEC-skat §13's totals."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from scoring.rules.problems import RuleViolation
from scoring.rules.skat import (
    default_rules_dict,
    next_step,
    rank,
    score_document,
    score_list,
    skat_rules,
    standing,
)

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = json.loads((ROOT / "fixtures" / "skat-sample.json").read_text())
R = skat_rules()

# JSkat's SkatConstants.bidOrder, the 63 legal bids
JSKAT_BIDS = (
    18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60, 63, 66, 70,
    72, 77, 80, 81, 84, 88, 90, 96, 99, 100, 108, 110, 117, 120, 121, 126, 130, 132, 135, 140,
    143, 144, 150, 153, 154, 156, 160, 162, 165, 168, 170, 176, 180, 187, 192, 198, 204, 216,
    240, 264,
)  # fmt: skip


def test_the_legal_bids_are_jskats_bid_order():
    assert R.legal_bids == JSKAT_BIDS
    assert len(R.legal_bids) == 63


def test_the_defaults_are_spec_section_10():
    d = default_rules_dict()
    assert d["games_per_list"] == {"3": 36, "4": 48}
    assert d["base_values"] == {"DIAMONDS": 9, "HEARTS": 10, "SPADES": 11, "CLUBS": 12, "GRAND": 24}
    assert d["null_values"] == {"plain": 23, "hand": 35, "ouvert": 46, "ouvert_hand": 59}
    assert d["max_matadors"] == {"suit": 11, "grand": 4}
    assert (d["win_points"], d["schneider_points"], d["declarer_schneider_points"]) == (61, 90, 30)
    assert (d["skat_max_points"], d["lost_factor"], d["won_bonus"], d["lost_bonus"]) == (
        22,
        2,
        50,
        -50,
    )
    assert d["opponents_bonus"] == {"3": 40, "4": 30}
    assert d["sitting_out_bonus"] is True and d["penalties_allowed"] is True
    assert R.to_dict() == d


def test_an_edited_copy_merges_key_by_key():
    rules = skat_rules({"games_per_list": {"3": 24}, "opponents_bonus": {"4": 40}})
    assert rules.games_per_list == {3: 24, 4: 48}
    assert rules.opponents_bonus == {3: 40, 4: 40}
    assert skat_rules({"table_sizes": [3]}).table_sizes == (3,)


@pytest.mark.parametrize(
    ("edits", "keys"),
    [
        ({"lost_factor": 0}, ["lost_factor"]),
        ({"won_bonus": "50"}, ["won_bonus"]),
        ({"lost_bonus": 50}, ["lost_bonus"]),
        ({"table_sizes": [3, 5]}, ["table_sizes"]),
        ({"table_sizes": []}, ["table_sizes"]),
        ({"base_values": {"GRAND": 0}}, ["base_values.GRAND"]),
        ({"base_values": {"ROYAL": 30}}, ["base_values"]),
        ({"null_values": {"hand": True}}, ["null_values.hand"]),
        ({"win_points": 95}, ["win_points"]),
        ({"skat_max_points": 121}, ["skat_max_points"]),
        ({"sitting_out_bonus": "no"}, ["sitting_out_bonus"]),
        ({"code": "caf"}, ["code"]),
        ({"contra": True}, ["contra"]),
        ({"lost_factor": 0, "penalties_allowed": 1}, ["lost_factor", "penalties_allowed"]),
    ],
)
def test_a_bad_rule_set_names_every_bad_key(edits, keys):
    with pytest.raises(RuleViolation) as exc:
        skat_rules(edits)
    assert [p.code for p in exc.value.problems] == ["RULES"] * len(keys)
    assert [p.field for p in exc.value.problems] == keys


def test_the_bids_follow_the_rule_set():
    rules = skat_rules({"max_matadors": {"grand": 3}})
    assert 264 not in rules.legal_bids and 240 in rules.legal_bids  # grand: 10 × 24 = 240


def test_the_dealer_turns_clockwise_and_sits_out_at_four():
    t = SAMPLE["turni"][1]  # Anna, Bruno, Carla, Dario; first dealer Bruno
    out = score_document(SAMPLE)["turni"][1]["smazzate"]
    assert [r["dealer"] for r in out[:6]] == ["Bruno", "Carla", "Dario", "Anna", "Bruno", "Carla"]
    assert all(r["sitting_out"] == r["dealer"] for r in out)
    assert all(r["declarer"] != r["dealer"] for r in out)
    three = score_document(SAMPLE)["turni"][0]["smazzate"]
    assert [r["dealer"] for r in three[:4]] == ["Anna", "Bruno", "Carla", "Anna"]
    assert all(r["sitting_out"] is None for r in three)
    step = next_step(R, {**t, "smazzate": t["smazzate"][:10]})
    assert step == {
        "number": 11,
        "dealer": "Dario",
        "complete": False,
        "games": 48,
        "left": 38,
        "sitting_out": "Dario",
        "active": ["Anna", "Bruno", "Carla"],
        "bids": list(JSKAT_BIDS),
    }
    done = next_step(R, t)
    assert (done["number"], done["complete"], done["left"]) == (49, True, 0)


def test_next_step_refuses_an_invalid_table():
    with pytest.raises(RuleViolation) as exc:
        next_step(R, {"players": ["A", "B"], "first_dealer": "A", "smazzate": []})
    assert [p.code for p in exc.value.problems] == ["PLAYERS_COUNT"]


def test_the_sample_season_scores_to_spec_section_13():
    out = score_document(SAMPLE)
    one, two = out["turni"]
    assert one["totals"] == {"Anna": 274, "Bruno": 527, "Carla": 527}
    assert (one["won"], one["lost"]) == (
        {"Anna": 2, "Bruno": 8, "Carla": 7},
        {"Anna": 1, "Bruno": 3, "Carla": 2},
    )
    # Bruno and Carla tie on points; Bruno has won more games
    assert one["places"] == {"Anna": 3, "Bruno": 1, "Carla": 2}
    assert two["totals"] == {"Anna": 120, "Bruno": 120, "Carla": 720, "Dario": 978}
    # Anna and Bruno equal on points, won (2) and lost (1): the draw puts Bruno first
    assert (two["won"]["Anna"], two["lost"]["Anna"]) == (two["won"]["Bruno"], two["lost"]["Bruno"])
    assert two["places"] == {"Anna": 4, "Bruno": 3, "Carla": 2, "Dario": 1}
    assert [(r["player"], r["list_points"], r["place"]) for r in out["classifica"]] == [
        ("Carla", 1247, 1),
        ("Dario", 978, 2),
        ("Bruno", 647, 3),
        ("Anna", 394, 4),
    ]


def test_list_totals_are_the_section_7_sum():
    for t in score_document(SAMPLE)["turni"]:
        n = len(t["totals"])
        bonus = 40 if n == 3 else 30
        for p, total in t["totals"].items():
            assert total == (
                t["game_points"][p]
                + 50 * t["won"][p]
                - 50 * t["lost"][p]
                + bonus * t["opponents_lost"][p]
                + t["penalties"][p]
            )
            assert total - t["penalties"][p] == sum(r["points"][p] for r in t["smazzate"])


def test_the_sitting_out_dealer_shares_in_a_lost_game():
    rows = score_document(SAMPLE)["turni"][1]["smazzate"]
    lost = [r for r in rows if r["won"] is False]
    assert [(r["number"], r["sitting_out"], r["points"][r["sitting_out"]]) for r in lost] == [
        (11, "Dario", 30),
        (13, "Bruno", 30),
        (23, "Dario", 30),
    ]
    assert rows[22]["overbid"] is True and rows[22]["score"] == -54


def test_penalties_add_to_the_totals():
    doc = copy.deepcopy(SAMPLE)
    doc["turni"][0]["penalties"] = [
        {"player": "Carla", "points": -25, "reason": "carte scoperte"},
        {"player": "Carla", "points": -5, "reason": "ritardo"},
    ]
    t = score_document(doc)["turni"][0]
    assert t["penalties"] == {"Anna": 0, "Bruno": 0, "Carla": -30}
    assert t["totals"] == {"Anna": 274, "Bruno": 527, "Carla": 497}


def test_a_list_in_progress_has_running_totals_and_no_places():
    t = copy.deepcopy(SAMPLE["turni"][0])
    t["smazzate"] = t["smazzate"][:3]
    with pytest.raises(RuleViolation) as exc:
        score_list(R, t)
    assert [p.code for p in exc.value.problems] == ["GAMES_COUNT"]
    running = score_list(R, t, require_complete=False)
    # Bruno Grand with 4 +194; Carla Diamonds without 2 lost −104 (+40 each); Carla Null ouvert
    # won +96
    assert running["totals"] == {"Anna": 40, "Bruno": 234, "Carla": -8}
    assert running["places"] is None


def test_rank_more_won_then_fewer_lost_then_the_draw():
    players = ["A", "B", "C"]
    totals = {"A": 100, "B": 100, "C": 100}
    places, problems = rank(players, totals, {"A": 3, "B": 4, "C": 4}, {"A": 0, "B": 2, "C": 1}, [])
    assert problems == [] and places == {"C": 1, "B": 2, "A": 3}
    same = {"A": 2, "B": 2, "C": 2}
    places, problems = rank(players, totals, same, same, [])
    assert places is None and [p.code for p in problems] == ["TIE_UNSETTLED"]
    places, problems = rank(players, totals, same, same, ["B", "C", "A"])
    assert problems == [] and places == {"B": 1, "C": 2, "A": 3}


def test_the_standing_shares_places_and_orders_by_name():
    lists = [
        {"totals": {"Zoe": 50, "Ugo": 50, "Eva": 10}, "won": {"Zoe": 2, "Ugo": 2, "Eva": 1},
         "lost": {"Zoe": 1, "Ugo": 1, "Eva": 0}},
        {"totals": {"Ada": 45, "Eva": 40, "Ugo": -5}, "won": {"Ada": 2, "Eva": 1, "Ugo": 0},
         "lost": {"Ada": 2, "Eva": 0, "Ugo": 1}},
    ]  # fmt: skip
    rows = standing(["Bea", "Zoe"], lists)
    got = [
        (r["place"], r["player"], r["list_points"], r["turni"], r["won"], r["lost"]) for r in rows
    ]
    assert got == [
        (1, "Eva", 50, 2, 2, 0),  # 50 points, 2 won, fewest lost
        (2, "Zoe", 50, 1, 2, 1),
        (3, "Ada", 45, 1, 2, 2),  # Ada and Ugo equal on all three: one place, by name
        (3, "Ugo", 45, 2, 2, 2),
        (5, "Bea", 0, 0, 0, 0),  # a roster member who played no list
    ]
