"""king-internazionale (SPEC-king-family §B): the six negative deals, the asta in both
directions with and without a sale, the unplayed asta, the order of play and the worked turno."""

from __future__ import annotations

import pytest

from scoring.rules.systems import get_system

from .conftest import A, B, C, D, Table, r, sample

NEGATIVES = [
    ("NF", (4, 0, 2, 7), [-80, 0, -40, -140]),  # −20 per trick
    ("NH", (5, 0, 6, 2), [-100, 0, -120, -40]),  # −20 per heart card
    ("NQ", (1, 2, 0, 1), [-50, -100, 0, -50]),  # −50 per queen
    ("NJK", (2, 3, 1, 2), [-60, -90, -30, -60]),  # −30 per king or jack
    ("NKH", (0, 1, 0, 0), [0, -160, 0, 0]),  # −160
    ("NU2", (1, 0, 0, 1), [-90, 0, 0, -90]),  # −90 per each of the last two tricks
]


def _negatives():
    return [{"game": g, "result": r(*counts)} for g, counts, _ in NEGATIVES]


def test_the_six_negative_deals_in_order():
    table = Table("king-internazionale")
    out = table.score(A, _negatives())
    assert [s["points"] for s in out["smazzate"]] == [r(*p) for _, _, p in NEGATIVES]
    assert [s["dealer"] for s in out["smazzate"]] == [A, B, C, D, A, B]
    assert {s["chooser"] for s in out["smazzate"]} == {None}
    assert {s["sale"] for s in out["smazzate"]} == {None}
    assert list(out["smazzate"][0]) == ["number", "game", "dealer", "chooser", "sale", "points"]


def _asta(banditore_seat: int, record: dict) -> dict:
    """Score ``record`` as the asta of the player at ``banditore_seat`` (deal 7..10)."""
    table = Table("king-internazionale")
    # deal 7 is dealt by first_dealer + 6: choose the first dealer so that deal 7 is his
    first = table.players[(banditore_seat - 6) % 4]
    return table.score(first, [*_negatives(), record])["smazzate"][6]


def test_asta_positive_sold_at_plus_three_pays_in_full():
    # Anna's asta sold to Carla at +3, ♥; tricks 4/3/2/4; Carla pays 75 although she made 2.
    rec = {"game": "ASTA", "mode": "POSITIVE", "trump": "H", "sale": {"buyer": C, "offer": 3}}
    out = _asta(0, {**rec, "result": r(4, 3, 2, 4)})
    assert out["points"] == r(175, 75, -25, 100)
    assert out["sale"] == {"seller": A, "buyer": C, "offer": 3, "transfer": 75}
    assert (out["dealer"], out["chooser"], out["mode"], out["trump"]) == (A, C, "POSITIVE", "H")
    assert sum(out["points"].values()) == 325


def test_asta_negative_sold_at_minus_two():
    # Bruno's asta sold to Dario at −2; tricks 5/2/4/2: base 325 − 75 t, Dario pays 150.
    rec = {"game": "ASTA", "mode": "NEGATIVE", "sale": {"buyer": D, "offer": -2}}
    out = _asta(1, {**rec, "result": r(5, 2, 4, 2)})
    assert out["points"] == r(-50, 325, 25, 25)
    assert out["sale"] == {"seller": B, "buyer": D, "offer": -2, "transfer": 150}
    assert (out["chooser"], out["mode"], out["trump"]) == (D, "NEGATIVE", None)


def test_asta_unplayed():
    out = _asta(2, {"game": "ASTA", "mode": "UNPLAYED"})
    assert out["points"] == r(75, 75, 100, 75)
    assert (out["chooser"], out["sale"], out["trump"], out["mode"]) == (C, None, None, "UNPLAYED")
    # a null sale or trump is the same as none
    nulls = _asta(2, {"game": "ASTA", "mode": "UNPLAYED", "sale": None, "trump": None})
    assert nulls["points"] == r(75, 75, 100, 75)


@pytest.mark.parametrize(
    ("record", "points"),
    [
        ({"mode": "POSITIVE", "trump": "NT", "result": r(3, 2, 1, 7)}, [75, 50, 25, 175]),
        ({"mode": "NEGATIVE", "result": r(3, 2, 1, 7)}, [100, 175, 250, -200]),
        (  # Dario's asta sold at +8 to Bruno, who takes 10 tricks: 200 moves to Dario
            {"mode": "POSITIVE", "trump": "S", "sale": {"buyer": B, "offer": 8}},
            [25, 250 - 200, 25, 25 + 200],
        ),
        (  # Dario's asta sold at −1 to Anna: 75 moves to Dario
            {"mode": "NEGATIVE", "sale": {"buyer": A, "offer": -1}},
            [325 - 75 - 75, 325 - 750, 325 - 75, 325 - 75 + 75],
        ),
    ],
)
def test_asta_without_and_with_sale(record, points):
    out = _asta(3, {"game": "ASTA", "result": r(1, 10, 1, 1), **record})
    assert [out["points"][p] for p in (A, B, C, D)] == points
    assert sum(points) == 325


def test_next_step_offers_the_fixed_deal_and_the_asta():
    system = get_system("king-internazionale")
    rules = system.rules()
    table = Table("king-internazionale")
    step = system.next_step(rules, table.turno(C, []))
    assert (step["dealer"], step["chooser"], step["games"], step["seller"]) == (
        C,
        None,
        ["NF"],
        None,
    )
    assert step["smazzate"] == 10
    step = system.next_step(rules, table.turno(C, _negatives()))
    assert (step["number"], step["dealer"], step["chooser"], step["games"]) == (7, A, A, ["ASTA"])
    assert step["modes"] == ["POSITIVE", "NEGATIVE", "UNPLAYED"]
    assert step["offers"] == [-2, -1, 1, 2, 3, 4, 5, 6, 7, 8]
    assert step["buyers"] == [B, C, D]


def test_worked_turno():
    out = get_system("king-internazionale").score_document(sample("king-internazionale"))
    (t,) = out["turni"]
    assert t["totals"] == r(-85, 255, -155, -15)
    negatives = sum(sum(s["points"].values()) for s in t["smazzate"][:6])
    aste = sum(sum(s["points"].values()) for s in t["smazzate"][6:])
    assert (negatives, aste, t["balance"]) == (-1300, 1300, 0)
    assert t["places"] == r(3, 1, 4, 2)
    assert t["matchpoints"] == r(2, 6, 0, 4)
    assert [s["dealer"] for s in t["smazzate"][6:]] == [A, B, C, D]  # four banditori
