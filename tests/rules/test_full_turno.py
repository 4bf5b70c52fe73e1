"""A complete 4-player turno scored by hand (SPEC §3-§7): 19 smazzate, first dealer Anna.

Seats (counterclockwise): Anna, Bruno, Carla, Dario. C = 13 tricks, 13 hearts.
NF scazzata from floor(13/2) = 6 tricks, DOMINO scazzata from floor(13/2) - 1 = 5 cards left.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from scoring.rules.caf.interchange import input_document, score_json
from scoring.rules.caf.records import Penalty, SmazzataRecord, TurnoRecord
from scoring.rules.caf.ruleset import caf, default_ruleset_dict
from scoring.rules.caf.turno import score_turno

RULES = caf()
SEATS = ("Anna", "Bruno", "Carla", "Dario")

# (game, caller, trump, counts A B C D, dealer, forced, scazzata, cappotto, points A B C D)
ROWS = [
    # 1: dealer Anna (drawn). Bruno calls NJ voluntarily and takes 3 jacks: scazzata -4*3 = -12.
    #    Anna 1 jack: -3.
    ("NJ", "Bruno", None, (1, 3, 0, 0), "Anna", False, True, None, (-3, -12, 0, 0)),
    # 2: dealer Bruno. Carla calls NK, 1 king (< 3): -3. Anna 2 kings -6, Dario -3.
    ("NK", "Carla", None, (2, 0, 1, 1), "Bruno", False, False, None, (-6, 0, -3, -3)),
    # 3: dealer Carla. Carla calls again, as dealer: forced (negative phase). She takes Q♠:
    #    base -8, not the -12 scazzata.
    ("NQS", "Carla", None, (0, 0, 1, 0), "Carla", True, False, None, (0, 0, -8, 0)),
    # 4: dealer Carla. Dario calls NH and takes all 13 hearts: cappotto, Dario 0, others -15;
    #    never a scazzata.
    ("NH", "Dario", None, (0, 0, 0, 13), "Carla", False, False, "Dario", (-15, -15, -15, 0)),
    # 5: dealer Dario. Anna calls NU2, takes one of the last two: -5 (no scazzata). Bruno -5.
    ("NU2", "Anna", None, (1, 1, 0, 0), "Dario", False, False, None, (-5, -5, 0, 0)),
    # 6: dealer Anna. Bruno calls NF and takes 6 tricks: scazzata -4*6 = -24.
    #    Anna 2 -> -6, Carla 3 -> -9, Dario 2 -> -6 (2+6+3+2 = 13).
    ("NF", "Bruno", None, (2, 6, 3, 2), "Anna", False, True, None, (-6, -24, -9, -6)),
    # 7: dealer Bruno. Dario calls NJK, 3 J/K (< 4): -9. Anna 2 -> -6, Bruno 3 -> -9 (sum 8).
    ("NJK", "Dario", None, (2, 3, 0, 3), "Bruno", False, False, None, (-6, -9, 0, -9)),
    # --- all seven negative games played; positive phase. Dealer Dario, order A B C D.
    # 8: Anna calls DOMINO and goes out: +7. Bruno 3 cards -6, Carla 4 -8, Dario 2 -4.
    ("DOMINO", "Anna", None, (0, 3, 4, 2), "Dario", False, False, None, (7, -6, -8, -4)),
    # 9: dealer Anna. Bruno SEMPLICE: 3*3, 3*5, 3*2, 3*3 (3+5+2+3 = 13).
    ("SEMPLICE", "Bruno", None, (3, 5, 2, 3), "Anna", False, False, None, (9, 15, 6, 9)),
    # 10: dealer Bruno. Carla BRISCOLA (hearts): 2, 3, 6, 2 tricks -> 6, 9, 18, 6.
    ("BRISCOLA", "Carla", "H", (2, 3, 6, 2), "Bruno", False, False, None, (6, 9, 18, 6)),
    # 11: dealer Carla. Dario DOMINO, keeps 4 cards (< 5): -8. Bruno goes out +7.
    ("DOMINO", "Dario", None, (3, 0, 2, 4), "Carla", False, False, None, (-6, 7, -4, -8)),
    # 12: dealer Dario. Anna SEMPLICE, takes only 2 tricks: scazzata -12 (not +6).
    ("SEMPLICE", "Anna", None, (2, 4, 4, 3), "Dario", False, True, None, (-12, 12, 12, 9)),
    # 13: dealer Anna. Bruno DOMINO, keeps 5 cards: scazzata -4*5 = -20. Carla out +7,
    #     Anna 1 card -2, Dario 3 cards -6.
    ("DOMINO", "Bruno", None, (1, 5, 0, 3), "Anna", False, True, None, (-2, -20, 7, -6)),
    # 14: dealer Bruno. Carla DOMINO, goes out: +7; -4, -4, -2.
    ("DOMINO", "Carla", None, (2, 2, 0, 1), "Bruno", False, False, None, (-4, -4, 7, -2)),
    # 15: dealer Carla. Dario SEMPLICE, 3 tricks (> 2): +9. Anna 4 -> 12.
    ("SEMPLICE", "Dario", None, (4, 3, 3, 3), "Carla", False, False, None, (12, 9, 9, 9)),
    # 16: dealer Dario. Anna BRISCOLA (spades), her last game; Bruno after her still has
    #     BRISCOLA: voluntary. 5, 3, 2, 3 tricks -> 15, 9, 6, 9.
    ("BRISCOLA", "Anna", "S", (5, 3, 2, 3), "Dario", False, False, None, (15, 9, 6, 9)),
    # 17: dealer Anna. Bruno BRISCOLA (diamonds); Carla after him has SEMPLICE: voluntary.
    ("BRISCOLA", "Bruno", "D", (3, 4, 3, 3), "Anna", False, False, None, (9, 12, 9, 9)),
    # 18: dealer Bruno. Carla SEMPLICE; Dario after her has BRISCOLA: voluntary.
    ("SEMPLICE", "Carla", None, (3, 3, 4, 3), "Bruno", False, False, None, (9, 9, 12, 9)),
    # 19: dealer Carla, order Dario, Anna, Bruno, Carla: after Dario nobody has anything left:
    #     forced although Dario is not the dealer. 2 tricks: base +6, not the -12 scazzata.
    ("BRISCOLA", "Dario", "C", (4, 4, 3, 2), "Carla", True, False, None, (12, 12, 9, 6)),
]

PENALTIES = (Penalty("Dario", -5, "9", "carte toccate prima del permesso"),)

# Anna:  -3 -6 +0 -15 -5 -6 -6 | +7 +9 +6 -6 -12 -2 -4 +12 +15 +9 +9 +12
#        negatives -41; positives 7+9+6-6-12-2-4+12+15+9+9+12 = 55; total 14
# Bruno: -12 +0 +0 -15 -5 -24 -9 | -6 +15 +9 +7 +12 -20 -4 +9 +9 +12 +9 +12
#        negatives -65; positives 64; total -1
# Carla: 0 -3 -8 -15 0 -9 0 | -8 +6 +18 -4 +12 +7 +7 +9 +6 +9 +12 +9
#        negatives -35; positives 83; total 48
# Dario: 0 -3 0 0 0 -6 -9 | -4 +9 +6 -8 +9 -6 -2 +9 +9 +9 +9 +6
#        negatives -18; positives 46; smazzate 28; penalità -5 -> 23
TOTALS = {"Anna": 14, "Bruno": -1, "Carla": 48, "Dario": 23}
PLACES = {"Carla": 1, "Dario": 2, "Anna": 3, "Bruno": 4}
# W = 48: 23/48 = 0.4791.. -> 0.47; 14/48 = 0.2916.. -> 0.29; -1/48 = -0.0208.. -> -0.03
RATIOS = {
    "Carla": Decimal("1.00"),
    "Dario": Decimal("0.47"),
    "Anna": Decimal("0.29"),
    "Bruno": Decimal("-0.03"),
}


def record(rows=ROWS, penalties=PENALTIES):
    smazzate = tuple(
        SmazzataRecord(game, caller, dict(zip(SEATS, counts, strict=True)), trump)
        for game, caller, trump, counts, *_ in rows
    )
    return TurnoRecord(players=SEATS, first_dealer="Anna", smazzate=smazzate, penalties=penalties)


SCORE = score_turno(RULES, record())


def test_the_turno_is_valid_and_complete():
    assert SCORE.problems == ()
    assert SCORE.complete is True
    assert len(ROWS) == 19 == len(SCORE.smazzate)


def test_hand_totals_add_up():
    # the hand arithmetic of the comments above, checked against the table itself
    sums = dict.fromkeys(SEATS, 0)
    for *_, points in ROWS:
        for p, v in zip(SEATS, points, strict=True):
            sums[p] += v
    assert sums == {"Anna": 14, "Bruno": -1, "Carla": 48, "Dario": 28}


def test_every_smazzata_number_by_number():
    for i, (row, got) in enumerate(zip(ROWS, SCORE.smazzate, strict=True), start=1):
        game, caller, trump, counts, dealer, forced, scazzata, cappotto, points = row
        assert got.number == i
        assert got.result == dict(zip(SEATS, counts, strict=True)), i
        assert got.game == game, i
        assert got.caller == caller, i
        assert got.trump == trump, i
        assert got.dealer == dealer, i
        assert got.forced is forced, i
        assert got.scazzata is scazzata, i
        assert got.cappotto == cappotto, i
        assert got.points == dict(zip(SEATS, points, strict=True)), i


def test_dealers_follow_the_callers():
    dealers = [s.dealer for s in SCORE.smazzate]
    callers = [s.caller for s in SCORE.smazzate]
    assert dealers == ["Anna", *callers[:-1]]


def test_flags():
    assert [s.number for s in SCORE.smazzate if s.forced] == [3, 19]
    assert [s.number for s in SCORE.smazzate if s.scazzata] == [1, 6, 12, 13]
    assert [(s.number, s.cappotto) for s in SCORE.smazzate if s.cappotto] == [(4, "Dario")]


def test_totals_places_ratios():
    assert SCORE.penalties == {"Anna": 0, "Bruno": 0, "Carla": 0, "Dario": -5}
    assert SCORE.totals == TOTALS
    assert SCORE.places == PLACES
    assert SCORE.order() == ("Carla", "Dario", "Anna", "Bruno")
    assert SCORE.ratios == RATIOS
    assert {p: str(r) for p, r in SCORE.ratios.items()} == {
        "Anna": "0.29",
        "Bruno": "-0.03",
        "Carla": "1.00",
        "Dario": "0.47",
    }


def test_without_the_penalita():
    score = score_turno(RULES, record(penalties=()))
    # Dario 28; W = 48: 28/48 = 0.5833.. -> 0.58
    assert score.totals == {"Anna": 14, "Bruno": -1, "Carla": 48, "Dario": 28}
    assert score.ratios["Dario"] == Decimal("0.58")


def test_a_document_carrying_its_rules_is_scored_by_them():
    # SPEC §9: a club that scores Q♠ at -10. The document carries the season's rules (as a
    # backup does): smazzata 3, Carla's forced NQS, is -10, not the default -8.
    doc = input_document(
        "2026-27", list(SEATS), [dataclasses.replace(record(), date=dt.date(2026, 11, 20))]
    )
    rules = default_ruleset_dict()
    rules["games"]["NQS"]["per_unit"] = -10
    out = score_json({**doc, "rules": rules})["turni"][0]
    assert out["smazzate"][2]["points"] == {"Anna": 0, "Bruno": 0, "Carla": -10, "Dario": 0}
    assert out["totals"] == {"Anna": 14, "Bruno": -1, "Carla": 46, "Dario": 23}
    # W = 46: 23/46 = 0.50; 14/46 = 0.304.. -> 0.30; -1/46 = -0.021.. -> -0.03
    assert out["ratios"] == {"Anna": "0.30", "Bruno": "-0.03", "Carla": "1.00", "Dario": "0.50"}
    # + Scudetto 1, UEFA 0.3, Coppa Italia 0.1, Retrocessione -0.1 (SPEC §8.3)
    assert out["league_points"] == {
        "Anna": "0.40",
        "Bruno": "-0.13",
        "Carla": "2.00",
        "Dario": "0.80",
    }
    # the same document without its rules is scored by the C.A.F. defaults
    assert score_json(doc)["turni"][0]["totals"]["Carla"] == 48
