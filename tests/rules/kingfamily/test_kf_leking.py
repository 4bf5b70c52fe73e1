"""le-king (SPEC-king-family §C): every phase, the Récupération and its sale (made and short),
Deux der and its `last`, the three orders (ALTERNATE, NEGATIVES_FIRST, FREE), the seed's two
variants (K♥ −5 with 2/3 for the last tricks; no Deux der with K♥ −10), the 3-player game and
the worked turno (§E)."""

from __future__ import annotations

import copy

import pytest

from scoring.rules.systems import get_system

from .conftest import A, B, C, D, Table, r, sample

# a valid record of each phase at four players (NU2 without `last`: both tricks score −2)
PHASE = {
    "NF": {"game": "NF", "result": r(4, 3, 3, 3)},
    "NH": {"game": "NH", "result": r(4, 3, 3, 3)},
    "NJK": {"game": "NJK", "result": r(2, 2, 2, 2)},
    "NQ": {"game": "NQ", "result": r(1, 1, 1, 1)},
    "NKH": {"game": "NKH", "result": r(1, 0, 0, 0)},
    "NU2": {"game": "NU2", "result": r(1, 1, 0, 0)},
    "RECUP": {"game": "RECUP", "trump": "NT", "result": r(4, 3, 3, 3)},
}


@pytest.mark.parametrize(
    ("record", "points"),
    [
        ({"game": "NF", "result": r(4, 3, 5, 1)}, [-4, -3, -5, -1]),
        ({"game": "NH", "result": r(0, 13, 0, 0)}, [0, -13, 0, 0]),
        ({"game": "NJK", "result": r(2, 3, 1, 2)}, [-2, -3, -1, -2]),
        ({"game": "NQ", "result": r(1, 2, 0, 1)}, [-2, -4, 0, -2]),
        ({"game": "NKH", "result": r(0, 0, 0, 1)}, [0, 0, 0, -6]),
        ({"game": "NU2", "result": r(0, 0, 1, 1), "last": D}, [0, 0, -2, -2]),
        ({"game": "NU2", "result": r(0, 2, 0, 0)}, [0, -4, 0, 0]),
        ({"game": "RECUP", "trump": "C", "result": r(3, 2, 5, 3)}, [3, 2, 5, 3]),
    ],
)
def test_every_phase(record, points):
    # FREE order: any phase may be the first deal
    table = Table("le-king", {"order": "FREE"})
    assert table.points(C, [record]) == [points]


def test_recup_sale_short_and_made():
    table = Table("le-king")
    before = [PHASE["NF"], PHASE["RECUP"], PHASE["NH"]]
    # Dario deals deal 4 (first dealer Carla), Anna has the Main and sells to Bruno for 3
    short = {"game": "RECUP", "trump": "NT", "sale": {"buyer": B, "tricks": 3}}
    out = table.score(C, [*before, {**short, "result": r(3, 2, 5, 3)}])["smazzate"][3]
    assert out["points"] == r(6, -1, 5, 3)  # Bruno made 2 of 3: 2 − 3
    assert (out["dealer"], out["chooser"], out["trump"]) == (D, B, "NT")
    assert out["sale"] == {"seller": A, "buyer": B, "tricks": 3, "transfer": 3}
    made = table.points(C, [*before, {**short, "result": r(1, 7, 2, 3)}])[3]
    assert made == [1 + 3, 7 - 3, 2, 3]


def test_alternate_order_and_dealers():
    out = get_system("le-king").score_document(sample("le-king"))
    (t,) = out["turni"]
    seq = [s["game"] for s in t["smazzate"]]
    assert seq == ["NF", "RECUP", "NH", "RECUP", "NJK", "RECUP", "NQ", "RECUP", "NKH", "NU2"]
    assert [s["dealer"] for s in t["smazzate"]] == [C, C, D, D, A, A, B, B, C, D]
    assert [s["chooser"] for s in t["smazzate"]] == [None, D, None, B, None, B, None, D, None, None]
    assert t["smazzate"][9]["last"] == D


def test_worked_turno():
    out = get_system("le-king").score_document(sample("le-king"))
    (t,) = out["turni"]
    negatives = sum(sum(s["points"].values()) for s in t["smazzate"] if s["game"] != "RECUP")
    assert (negatives, t["balance"]) == (-52, 0)
    assert t["totals"] == r(3, -6, 0, 3)
    assert t["places"] == r(1, 4, 3, 1)
    assert t["matchpoints"] == r(5, 0, 2, 5)
    assert out["classifica"][0] == {
        "place": 1, "player": "Anna", "matchpoints": 5, "points": 3, "turni": 1, "wins": 1,
    }  # fmt: skip


def test_variant_king_minus_five_last_trick_minus_three():
    doc = sample("le-king")
    doc["rules"] = {"points": {"NKH": -5}, "nu2_points": [-2, -3]}
    (t,) = get_system("le-king").score_document(doc)["turni"]
    assert t["smazzate"][8]["points"] == r(0, -5, 0, 0)
    assert t["smazzate"][9]["points"] == r(0, 0, -2, -3)  # Dario took the last trick
    assert t["balance"] == 0  # 5 + 2 + 3 = 6 + 4
    assert t["totals"] == r(3, -5, 0, 2)


def test_variant_without_deux_der_and_king_minus_ten():
    doc = sample("le-king")
    doc["rules"] = {"with_nu2": False, "points": {"NKH": -10}}
    doc["turni"][0]["smazzate"].pop()  # no Deux der: 9 deals
    (t,) = get_system("le-king").score_document(doc)["turni"]
    assert len(t["smazzate"]) == 9
    assert t["smazzate"][8]["points"] == r(0, -10, 0, 0)
    assert t["balance"] == 0
    assert t["totals"] == r(3, -10, 2, 5)


def test_negatives_first_order_passes_the_deal_every_deal():
    system = get_system("le-king")
    rules = system.rules({"order": "NEGATIVES_FIRST"})
    table = Table("le-king", {"order": "NEGATIVES_FIRST"})
    played, seen = [], []
    for _ in range(10):
        step = system.next_step(rules, table.turno(A, played))
        (game,) = step["games"]
        seen.append((game, step["dealer"], step["chooser"]))
        played.append(PHASE[game])
    assert seen == [
        ("NF", A, None), ("NH", B, None), ("NJK", C, None), ("NQ", D, None), ("NKH", A, None),
        ("NU2", B, None), ("RECUP", C, D), ("RECUP", D, A), ("RECUP", A, B), ("RECUP", B, C),
    ]  # fmt: skip
    assert system.next_step(rules, table.turno(A, played))["complete"] is True
    assert table.score(A, played)["balance"] == 0


def test_free_order_choices_sales_and_recuperations():
    system = get_system("le-king")
    rules = system.rules({"order": "FREE"})
    table = Table("le-king", {"order": "FREE"})
    first = system.next_step(rules, table.turno(A, []))
    assert (first["dealer"], first["chooser"], first["seller"]) == (A, B, B)
    assert first["games"] == ["NF", "NH", "NJK", "NQ", "NKH", "NU2", "RECUP"]
    played = [
        {"game": "RECUP", "trump": "S", "result": r(3, 4, 3, 3)},  # Bruno's Main: his RECUP
        # Carla's Main sold to Dario for 2; Dario chooses NQ: the 2 move whatever the phase
        {"game": "NQ", "sale": {"buyer": D, "tricks": 2}, "result": r(1, 1, 1, 1)},
    ]
    out = table.score(A, played)["smazzate"]
    assert out[0]["chooser"] == B
    assert out[1]["points"] == r(-2, -2, -2 + 2, -2 - 2)
    assert (out[1]["chooser"], out[1]["sale"]["seller"]) == (D, C)
    step = system.next_step(rules, table.turno(A, played))
    assert (step["dealer"], step["chooser"]) == (C, D)
    assert step["games"] == ["NF", "NH", "NJK", "NKH", "NU2", "RECUP"]
    assert step["recup_takers"] == [A, C, D]
    # Dario picks NQ again: played as often as it exists
    assert table.problems(A, [*played, PHASE["NQ"]]) == [("GAME_REPEATED", 3, None)]
    # Deal 5: Bruno has the Main again and has had his Récupération
    more = [*played, PHASE["NF"], PHASE["NH"]]
    assert table.problems(A, [*more, PHASE["RECUP"]]) == [("RECUP_TWICE", 5, B)]
    # ... but he may sell it to a player who has not
    sold = {**PHASE["RECUP"], "sale": {"buyer": A, "tricks": 1}}
    assert table.problems(A, [*more, sold]) == []
    # and a buyer who already had one may not take another
    bought = {**PHASE["RECUP"], "sale": {"buyer": B, "tricks": 1}}
    assert table.problems(A, [*more[:3], bought]) == [("RECUP_TWICE", 4, B)]


def test_three_players():
    rules = get_system("le-king").rules()
    assert rules.deck(3).tricks == 16 and rules.deck(3).hearts == 12
    doc = {
        "format": "kingclub/v1",
        "ruleset": "le-king",
        "turni": [
            {
                "date": "2026-11-26",
                "number": 1,
                "players": [A, B, C],
                "first_dealer": A,
                "smazzate": [
                    {"game": "NF", "result": {A: 6, B: 5, C: 5}},
                    {"game": "RECUP", "trump": "S", "result": {A: 5, B: 6, C: 5}},
                    {"game": "NH", "result": {A: 4, B: 4, C: 4}},
                    {
                        "game": "RECUP",
                        "trump": "NT",
                        "sale": {"buyer": A, "tricks": 4},
                        "result": {A: 7, B: 5, C: 4},
                    },
                    {"game": "NJK", "result": {A: 3, B: 3, C: 2}},
                    {"game": "RECUP", "trump": "H", "result": {A: 6, B: 6, C: 4}},
                    {"game": "NQ", "result": {A: 2, B: 1, C: 1}},
                    {"game": "NKH", "result": {A: 0, B: 0, C: 1}},
                    {"game": "NU2", "result": {A: 2, B: 0, C: 0}, "last": A},
                ],
            }
        ],
    }
    (t,) = get_system("le-king").score_document(doc)["turni"]
    assert [s["dealer"] for s in t["smazzate"]] == [A, A, B, B, C, C, A, B, C]
    assert t["smazzate"][3]["points"] == {A: 7 - 4, B: 5, C: 4 + 4}  # Carla's Main sold
    assert t["balance"] == -6  # negatives −54, three Récupérations +48
    assert t["totals"] == {A: -7, B: 3, C: -2}
    assert t["places"] == {A: 3, B: 1, C: 2}
    assert t["matchpoints"] == {A: 0, B: 4, C: 2}


def test_nu2_last_required_when_the_last_tricks_differ():
    table = Table("le-king", {"order": "FREE", "nu2_points": [-2, -3]})
    nu2 = {"game": "NU2", "result": r(0, 1, 1, 0)}
    assert table.problems(A, [nu2]) == [("NU2_LAST", 1, None)]
    assert table.problems(A, [{**nu2, "last": A}]) == [("NU2_LAST", 1, A)]
    assert table.points(A, [{**nu2, "last": C}]) == [[0, -2, -3, 0]]


def test_sample_is_not_changed_by_scoring():
    doc = sample("le-king")
    before = copy.deepcopy(doc)
    get_system("le-king").score_document(doc)
    assert doc == before
