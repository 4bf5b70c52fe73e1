"""king-classico (SPEC-king-family §A): every contract, the sale of the dichiarazione (made,
exact, short), the blind dichiarazione, Domino, the order of play and the worked turno (§E).
Every expected number is computed by hand from the SPEC's formulas."""

from __future__ import annotations

import pytest

from scoring.rules.systems import get_system

from .conftest import A, B, C, D, Table, r, sample

ALL_GAMES = ["NQ", "NKH", "NF", "DOMINO", "DICH", "NJK", "N8D", "NH", "NU2", "P7H", "U2", "NKQJ10"]
EVERYTHING = {"games": ALL_GAMES, "points": {"P7H": 5, "U2": 3, "NKQJ10": -2}}


@pytest.mark.parametrize(
    ("game", "counts", "points"),
    [
        ("NQ", (1, 2, 0, 1), [-3, -6, 0, -3]),  # −3 per queen
        ("NKH", (0, 0, 1, 0), [0, 0, -8, 0]),  # −8
        ("NF", (4, 3, 5, 1), [-4, -3, -5, -1]),  # −1 per trick
        ("NJK", (2, 3, 1, 2), [-4, -6, -2, -4]),  # −2 per king or jack
        ("N8D", (0, 1, 0, 0), [0, -8, 0, 0]),  # −8
        ("NH", (5, 0, 6, 2), [-5, 0, -6, -2]),  # −1 per heart
        ("NU2", (0, 1, 1, 0), [0, -4, -4, 0]),  # −4 per each of the last two tricks
        ("P7H", (0, 0, 0, 1), [0, 0, 0, 5]),  # the club's value (no default)
        ("U2", (2, 0, 0, 0), [6, 0, 0, 0]),  # the club's value per trick
        ("NKQJ10", (1, 0, 2, 1), [-2, 0, -4, -2]),  # the club's value per card
        ("DOMINO", (4, 0, 2, 3), [-4, 9, -2, -3]),  # the winner takes the cards left (§A.5)
        ("DICH", (4, 3, 3, 3), [4, 3, 3, 3]),  # +1 per trick to everybody
    ],
)
def test_every_contract(game, counts, points):
    table = Table("king-classico", EVERYTHING)
    record = {"game": game, "result": r(*counts)}
    if game == "DICH":
        record["trump"] = "C"
    assert table.points(A, [record]) == [points]


def test_sale_made_moves_the_promised_tricks():
    # Bruno deals and sells "a quattro" to Carla; tricks 2/1/6/4: transfer 4.
    sold = {
        "game": "DICH",
        "trump": "S",
        "sale": {"buyer": C, "tricks": 4},
        "result": r(2, 1, 6, 4),
    }
    out = Table("king-classico").score(B, [sold])["smazzate"][0]
    assert out["points"] == r(2, 5, 2, 4)
    assert out["dealer"] == B and out["chooser"] == C
    assert out["sale"] == {"seller": B, "buyer": C, "tricks": 4, "transfer": 4}
    assert (out["trump"], out["blind"]) == ("S", False)


def test_sale_short_by_two_costs_two_per_missing_trick():
    # Dario sells "a cinque" to Anna, who makes 3: moved 3, shortfall 2, transfer 3 + 2 × 2 = 7.
    sold = {
        "game": "DICH",
        "trump": "H",
        "sale": {"buyer": A, "tricks": 5},
        "result": r(3, 4, 2, 4),
    }
    out = Table("king-classico").score(D, [sold])["smazzate"][0]
    assert out["points"] == r(-4, 4, 2, 11)
    assert out["sale"]["transfer"] == 7
    assert sum(out["points"].values()) == 13


@pytest.mark.parametrize(
    ("edits", "price", "counts", "points"),
    [
        (None, 3, (4, 3, 3, 3), [4 - 3, 3, 3, 3 + 3]),  # exactly made: 3 moved
        (None, 3, (0, 5, 4, 4), [0 - 6, 5, 4, 4 + 6]),  # nothing made: 3 short, 2 × 3
        ({"sale_shortfall": 1}, 5, (3, 4, 2, 4), [3 - 5, 4, 2, 4 + 5]),  # 3 + 1 × 2
        ({"points": {"DICH": 2}}, 5, (3, 4, 2, 4), [6 - 10, 8, 4, 8 + 10]),  # 2 × 3 + 2 × 2
    ],
)
def test_sale_outcomes(edits, price, counts, points):
    sold = {"game": "DICH", "trump": "NT", "sale": {"buyer": A, "tricks": price}}
    sold["result"] = r(*counts)
    assert Table("king-classico", edits).points(D, [sold]) == [points]


def test_blind_dichiarazione_doubles_the_declarers_tricks():
    blind = {"game": "DICH", "trump": "NT", "blind": True, "result": r(3, 3, 5, 2)}
    out = Table("king-classico").score(C, [blind])["smazzate"][0]
    assert out["points"] == r(3, 3, 10, 2)
    assert (out["trump"], out["blind"], out["sale"], out["chooser"]) == ("NT", True, None, C)
    assert Table("king-classico", {"blind_factor": 3}).points(C, [blind]) == [[3, 3, 15, 2]]


def test_non_dich_smazzate_have_no_trump_or_blind_fields():
    out = Table("king-classico").score(A, [{"game": "NQ", "result": r(1, 2, 0, 1)}])
    assert list(out["smazzate"][0]) == ["number", "game", "dealer", "chooser", "sale", "points"]
    assert out["smazzate"][0]["chooser"] == A


def test_order_of_play_each_dealer_chooses_each_game_once():
    system = get_system("king-classico")
    rules = system.rules()
    table = Table("king-classico")
    first = system.next_step(rules, table.turno(B, []))
    assert first["number"] == 1 and first["dealer"] == B and first["chooser"] == B
    assert first["games"] == ["NQ", "NKH", "NF", "DOMINO", "DICH"]
    assert first["seller"] == B and first["buyers"] == [A, C, D] and first["blind"] is True
    assert first["tricks"] == [1, 13] and first["smazzate"] == 20
    played = [
        {"game": "DICH", "trump": "H", "result": r(4, 3, 3, 3)},  # Bruno
        {"game": "NQ", "result": r(1, 1, 1, 1)},  # Carla
        {"game": "NQ", "result": r(1, 1, 1, 1)},  # Dario
        {"game": "NKH", "result": r(1, 0, 0, 0)},  # Anna
    ]
    step = system.next_step(rules, table.turno(B, played))
    assert step["number"] == 5 and step["dealer"] == B
    assert step["games"] == ["NQ", "NKH", "NF", "DOMINO"]  # DICH already chosen by Bruno
    assert step["seller"] is None and step["blind"] is False
    step = system.next_step(rules, table.turno(B, played[:3]))
    assert step["dealer"] == A and "NKH" in step["games"]


def test_worked_turno():
    # §E: 20 smazzate, two sales (one short by 2), one blind, a penalità.
    out = get_system("king-classico").score_document(sample("king-classico"))
    (t,) = out["turni"]
    assert len(t["smazzate"]) == 20
    assert [s["dealer"] for s in t["smazzate"][:5]] == [A, B, C, D, A]
    assert t["penalties"] == r(0, 0, 0, -2)
    assert t["totals"] == r(-21, -21, -16, -19)
    assert t["balance"] == -75  # −80 of the default programme, +5 for Carla's blind tricks
    assert t["places"] == r(3, 3, 1, 2)
    assert t["matchpoints"] == r(1, 1, 6, 4)
    assert [row["player"] for row in out["classifica"]] == [C, D, A, B]
    assert [row["place"] for row in out["classifica"]] == [1, 2, 3, 3]
