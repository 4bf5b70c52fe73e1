"""A turno (SPEC §7): totals with penalità, every problem at once, completeness, ratios, ties.

The base turno is a hand-scored 3-player turno (C = 17, 13 hearts, 7 + 3*3 = 16 smazzate).
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from scoring.rules.caf.records import Penalty, Sanction, SmazzataRecord, TurnoRecord
from scoring.rules.caf.ruleset import caf
from scoring.rules.caf.turno import check_smazzata, ratios, score_turno
from scoring.rules.problems import Problem

RULES = caf()
SEATS = ("Ada", "Bea", "Ciro")


def sm(game, caller, ada, bea, ciro, trump=None):
    return SmazzataRecord(game, caller, {"Ada": ada, "Bea": bea, "Ciro": ciro}, trump)


# No scazzata (every caller is under the threshold) and one forced call (the last one).
#        game        caller   Ada Bea Ciro      points Ada, Bea, Ciro     dealer
BASE = (
    sm("NJ", "Bea", 4, 0, 0),  # -12, 0, 0                                  Ada
    sm("NK", "Ciro", 4, 0, 0),  # -12, 0, 0                                 Bea
    sm("NJK", "Ada", 0, 8, 0),  # 0, -24, 0                                 Ciro
    sm("NQS", "Bea", 0, 0, 1),  # 0, 0, -8                                  Ada
    sm("NH", "Ciro", 6, 7, 0),  # -12, -14, 0  (Bea 7 hearts: not the caller) Bea
    sm("NU2", "Ada", 0, 2, 0),  # 0, -10, 0                                 Ciro
    sm("NF", "Bea", 9, 0, 8),  # -27, 0, -24  (17 tricks)                   Ada
    sm("DOMINO", "Ciro", 1, 1, 0),  # -2, -2, +7                            Bea
    sm("DOMINO", "Ada", 0, 1, 1),  # +7, -2, -2                             Ciro
    sm("DOMINO", "Bea", 1, 0, 1),  # -2, +7, -2                             Ada
    sm("SEMPLICE", "Ciro", 5, 6, 6),  # 15, 18, 18                          Bea
    sm("SEMPLICE", "Ada", 6, 5, 6),  # 18, 15, 18                           Ciro
    sm("SEMPLICE", "Bea", 6, 6, 5),  # 18, 18, 15                           Ada
    sm("BRISCOLA", "Ciro", 5, 6, 6, "S"),  # 15, 18, 18                     Bea
    sm("BRISCOLA", "Ada", 6, 5, 6, "H"),  # 18, 15, 18                      Ciro
    sm("BRISCOLA", "Bea", 6, 6, 5, "D"),  # 18, 18, 15  forced: only Bea left  Ada
)
# negative games: Ada -12-12-12-27 = -63, Bea -24-14-10 = -48, Ciro -8-24 = -32
# positive games, the same for everyone: Domino 7-2-2 = 3, Semplice 15+18+18 = 51, Briscola 51
#   -> 105 each
TOTALS = {"Ada": 42, "Bea": 57, "Ciro": 73}  # -63+105, -48+105, -32+105
DEALERS = ["Ada", "Bea", "Ciro"] * 5 + ["Ada"]


def turno(smazzate=BASE, **kw):
    return TurnoRecord(players=SEATS, first_dealer="Ada", smazzate=tuple(smazzate), **kw)


def problem_keys(score):
    return sorted((p.code, p.smazzata, p.player) for p in score.problems)


def test_base_turno():
    score = score_turno(RULES, turno())
    assert score.problems == ()
    assert score.complete is True
    assert score.totals == TOTALS
    assert score.penalties == {"Ada": 0, "Bea": 0, "Ciro": 0}
    assert score.places == {"Ciro": 1, "Bea": 2, "Ada": 3}
    assert score.order() == ("Ciro", "Bea", "Ada")
    # 57/73 = 0.7808 -> 0.78; 42/73 = 0.5753 -> 0.57
    assert score.ratios == {"Ciro": Decimal("1.00"), "Bea": Decimal("0.78"), "Ada": Decimal("0.57")}
    assert [s.number for s in score.smazzate] == list(range(1, 17))
    assert [s.dealer for s in score.smazzate] == DEALERS
    assert [s.forced for s in score.smazzate] == [False] * 15 + [True]
    assert not any(s.scazzata for s in score.smazzate)
    assert [s.trump for s in score.smazzate][13:] == ["S", "H", "D"]
    assert score.smazzate[4].points == {"Ada": -12, "Bea": -14, "Ciro": 0}
    assert score.smazzate[6].points == {"Ada": -27, "Bea": 0, "Ciro": -24}
    assert score.smazzate[7].points == {"Ada": -2, "Bea": -2, "Ciro": 7}


def test_penalita_count_in_the_totals():
    pens = (
        Penalty("Ada", -2, "9", "carte toccate prima del permesso"),
        Penalty("Ada", -3, "6", "ritardo"),
        Penalty("Ciro", -10, "15", "comportamento"),
    )
    score = score_turno(RULES, turno(penalties=pens))
    assert score.problems == ()
    assert score.penalties == {"Ada": -5, "Bea": 0, "Ciro": -10}
    # Ada 42-2-3 = 37, Bea 57, Ciro 73-10 = 63
    assert score.totals == {"Ada": 37, "Bea": 57, "Ciro": 63}
    assert score.places == {"Ciro": 1, "Bea": 2, "Ada": 3}
    # 57/63 = 0.9047 -> 0.90; 37/63 = 0.5873 -> 0.58
    assert score.ratios == {"Ciro": Decimal("1.00"), "Bea": Decimal("0.90"), "Ada": Decimal("0.58")}


def test_a_penalita_can_change_the_winner():
    # Ciro -20: 73-20 = 53 < Bea 57
    score = score_turno(RULES, turno(penalties=(Penalty("Ciro", -20, "16", "x"),)))
    assert score.totals == {"Ada": 42, "Bea": 57, "Ciro": 53}
    assert score.places == {"Bea": 1, "Ciro": 2, "Ada": 3}
    # 53/57 = 0.9298 -> 0.92; 42/57 = 0.7368 -> 0.73
    assert score.ratios == {"Bea": Decimal("1.00"), "Ciro": Decimal("0.92"), "Ada": Decimal("0.73")}


def test_every_problem_at_once():
    bad = list(BASE)
    bad[3] = sm("NQS", "Bea", 0, 0, 2)  # 4: Ciro 2 Q♠ -> COUNT_RANGE
    bad[4] = sm("NH", "Ciro", 6, 6, 0)  # 5: 12 hearts, not 13 -> COUNT_SUM
    bad[8] = sm("DOMINO", "Ada", 0, 0, 1)  # 9: two winners -> DOMINO_WINNER
    bad[9] = sm("DOMINO", "Bea", 1, 0, "1")  # 10: Ciro "1" -> COUNT_NOT_INTEGER
    bad[10] = SmazzataRecord("SEMPLICE", "Ciro", {"Ada": 5, "Ciro": 6})  # 11: RESULT_MISSING Bea
    bad[11] = sm("SEMPLICE", "Ada", 6, 5, 6, "S")  # 12: TRUMP_UNEXPECTED
    bad[12] = SmazzataRecord(  # 13: RESULT_PLAYER_UNKNOWN Zeno
        "SEMPLICE", "Bea", {"Ada": 6, "Bea": 6, "Ciro": 5, "Zeno": 0}
    )
    bad[13] = sm("BRISCOLA", "Ciro", 5, 6, 6)  # 14: TRUMP_MISSING
    bad[14] = sm("BRISCOLA", "Ada", 6, 5, 6, "X")  # 15: TRUMP_INVALID
    bad[15] = sm("DOMINO", "Bea", 6, 0, 5)  # 16: Bea already called DOMINO (10)
    record = turno(
        bad,
        penalties=(Penalty("Zeno", -5, "9", "x"), Penalty("Ada", -2, "", "no article")),
        sanctions=(Sanction("Bea", reason=""),),
    )
    score = score_turno(RULES, record)
    assert problem_keys(score) == sorted(
        [
            ("COUNT_RANGE", 4, "Ciro"),
            ("COUNT_SUM", 5, None),
            ("DOMINO_WINNER", 9, None),
            ("COUNT_NOT_INTEGER", 10, "Ciro"),
            ("RESULT_MISSING", 11, "Bea"),
            ("TRUMP_UNEXPECTED", 12, None),
            ("RESULT_PLAYER_UNKNOWN", 13, "Zeno"),
            ("TRUMP_MISSING", 14, None),
            ("TRUMP_INVALID", 15, None),
            ("GAME_ALREADY_CALLED", 16, "Bea"),
            ("PENALTY_PLAYER", None, "Zeno"),
            ("PENALTY_ARTICLE", None, "Ada"),
            ("SANCTION_REASON", None, "Bea"),
        ]
    )
    assert score.places is None
    assert score.ratios is None
    # every problem names the rule and can be printed on one line
    for p in score.problems:
        line = p.describe()
        assert f"[{p.code}]" in line
        if p.smazzata is not None:
            assert f"smazzata {p.smazzata}" in line


def test_call_problems_in_a_turno_in_progress():
    calls = [
        sm("NJ", "Bea", 4, 0, 0),
        sm("NJ", "Ciro", 4, 0, 0),  # 2: NJ again -> GAME_ALREADY_PLAYED, Ciro
        sm("DOMINO", "Ada", 0, 1, 1),  # 3: a positive game too early -> GAME_PHASE, Ada
        sm("NQS", "Ada", 0, 0, 1),
        sm("NH", "Bea", 0, 0, 12),  # 5: 12 hearts -> COUNT_SUM
    ]
    score = score_turno(RULES, turno(calls), require_complete=False)
    assert problem_keys(score) == [
        ("COUNT_SUM", 5, None),
        ("GAME_ALREADY_PLAYED", 2, "Ciro"),
        ("GAME_PHASE", 3, "Ada"),
    ]
    score = score_turno(RULES, turno(calls))
    assert [p.code for p in score.problems].count("TURNO_INCOMPLETE") == 1
    assert len(score.problems) == 4


def test_turno_incomplete():
    record = turno(BASE[:15])
    score = score_turno(RULES, record)
    assert [p.code for p in score.problems] == ["TURNO_INCOMPLETE"]
    assert score.complete is False
    assert score.places is None
    assert score.ratios is None
    # in progress: no problem, the running totals without the last Briscola (18, 18, 15)
    score = score_turno(RULES, record, require_complete=False)
    assert score.problems == ()
    assert score.totals == {"Ada": 24, "Bea": 39, "Ciro": 58}  # 42-18, 57-18, 73-15
    assert score.complete is False
    assert score.places is None
    score = score_turno(RULES, turno(()), require_complete=False)
    assert score.problems == ()
    assert score.totals == {"Ada": 0, "Bea": 0, "Ciro": 0}


def test_too_many_smazzate():
    record = turno((*BASE, sm("BRISCOLA", "Ada", 6, 6, 5, "S")))
    score = score_turno(RULES, record)
    assert problem_keys(score) == [("TURNO_TOO_MANY_SMAZZATE", 17, None)]


def test_turno_header():
    score = score_turno(RULES, TurnoRecord(players=("Ada", "Bea"), first_dealer="Ada"))
    assert [p.code for p in score.problems] == ["TURNO_PLAYERS_COUNT"]
    eight = tuple(f"P{i}" for i in range(8))
    score = score_turno(RULES, TurnoRecord(players=eight, first_dealer="P0"))
    assert [p.code for p in score.problems] == ["TURNO_PLAYERS_COUNT"]
    score = score_turno(RULES, TurnoRecord(players=("Ada", "Bea", "Ada"), first_dealer="Ada"))
    assert [p.code for p in score.problems] == ["PLAYER_DUPLICATE"]
    score = score_turno(RULES, replace(turno(), first_dealer="Zeno"))
    assert "FIRST_DEALER" in [p.code for p in score.problems]


# --- ties and the spareggio ------------------------------------------------------------
TIE = (Penalty("Ciro", -16, "9", "x"),)  # Ciro 73-16 = 57 = Bea


def test_tie_without_spareggio_is_an_error():
    score = score_turno(RULES, turno(penalties=TIE))
    assert score.totals == {"Ada": 42, "Bea": 57, "Ciro": 57}
    assert [p.code for p in score.problems] == ["TIE_UNRESOLVED"]
    assert score.places is None
    assert score.ratios is None
    assert score.tied == (("Bea", "Ciro"),)


@pytest.mark.parametrize(
    ("tiebreak", "places"),
    [
        (("Ciro", "Bea"), {"Ciro": 1, "Bea": 2, "Ada": 3}),
        (("Bea", "Ciro"), {"Bea": 1, "Ciro": 2, "Ada": 3}),
        (("Bea", "Ciro", "Ada"), {"Bea": 1, "Ciro": 2, "Ada": 3}),  # Ada listed, in order
    ],
)
def test_tie_settled_by_the_spareggio(tiebreak, places):
    score = score_turno(RULES, turno(penalties=TIE, tiebreak=tiebreak))
    assert score.problems == ()
    assert score.places == places
    # W = 57: both tied players 1.00; 42/57 = 0.7368 -> 0.73
    assert score.ratios == {"Ada": Decimal("0.73"), "Bea": Decimal("1.00"), "Ciro": Decimal("1.00")}


def test_spareggio_against_the_totals():
    # Ada (42) before Bea (57): TIEBREAK_ORDER, though the Bea-Ciro tie is settled
    score = score_turno(RULES, turno(penalties=TIE, tiebreak=("Ada", "Bea", "Ciro")))
    assert problem_keys(score) == [("TIEBREAK_ORDER", None, "Ada")]
    assert score.places is None
    # without any tie: Ada (42) listed before Ciro (73)
    score = score_turno(RULES, turno(tiebreak=("Ada", "Ciro")))
    assert problem_keys(score) == [("TIEBREAK_ORDER", None, "Ada")]
    # a spareggio that agrees with the totals is harmless
    score = score_turno(RULES, turno(tiebreak=("Ciro", "Ada")))
    assert score.problems == ()
    assert score.places == {"Ciro": 1, "Bea": 2, "Ada": 3}


def test_three_way_tie():
    # Bea 57-15 = 42, Ciro 73-31 = 42, Ada 42
    pens = (Penalty("Bea", -15, "9", "x"), Penalty("Ciro", -31, "9", "x"))
    score = score_turno(RULES, turno(penalties=pens, tiebreak=("Bea", "Ada")))
    assert problem_keys(score) == [("TIE_UNRESOLVED", None, "Ciro")]
    score = score_turno(RULES, turno(penalties=pens, tiebreak=("Bea", "Ada", "Ciro")))
    assert score.problems == ()
    assert score.places == {"Bea": 1, "Ada": 2, "Ciro": 3}
    assert set(score.ratios.values()) == {Decimal("1.00")}


def test_spareggio_naming_strangers_or_twice():
    score = score_turno(RULES, turno(penalties=TIE, tiebreak=("Ciro", "Zeno", "Bea")))
    assert problem_keys(score) == [("TIEBREAK_PLAYER", None, "Zeno")]
    score = score_turno(RULES, turno(penalties=TIE, tiebreak=("Ciro", "Bea", "Ciro")))
    assert problem_keys(score) == [("TIEBREAK_DUPLICATE", None, "Ciro")]


# --- ratios (SPEC §7): rounded down (toward -inf) to two decimals ---------------------------------
@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ({"w": 3, "x": 2}, {"w": "1.00", "x": "0.66"}),  # 2/3 = 0.666.. -> 0.66
        ({"w": 8, "x": 1}, {"w": "1.00", "x": "0.12"}),  # 1/8 = 0.125 -> 0.12
        ({"w": 40, "x": 25, "y": -17}, {"w": "1.00", "x": "0.62", "y": "-0.43"}),
        # 25/40 = 0.625 -> 0.62; -17/40 = -0.425 -> -0.43 (toward -inf)
        ({"w": 3, "x": 1, "y": -1}, {"w": "1.00", "x": "0.33", "y": "-0.34"}),
        # -1/3 = -0.333.. -> -0.34
        ({"w": 48, "x": -1}, {"w": "1.00", "x": "-0.03"}),  # -0.0208.. -> -0.03
        ({"w": 7, "x": 0}, {"w": "1.00", "x": "0.00"}),
        # W < 0: W / total. -10/-10 = 1; -10/-40 = 0.25; -10/-15 = 0.666.. -> 0.66
        ({"w": -10, "x": -40, "y": -15}, {"w": "1.00", "x": "0.25", "y": "0.66"}),
        ({"w": -3, "x": -3, "y": -7}, {"w": "1.00", "x": "1.00", "y": "0.42"}),  # 3/7 = 0.428
        # W = 0: 1.00 for players at 0, 0.00 for the others
        ({"w": 0, "x": 0, "y": -5}, {"w": "1.00", "x": "1.00", "y": "0.00"}),
        ({"w": 0, "x": -1, "y": -50}, {"w": "1.00", "x": "0.00", "y": "0.00"}),
    ],
)
def test_ratios(totals, expected):
    got = ratios(RULES, totals)
    assert all(isinstance(v, Decimal) for v in got.values())
    assert {p: str(v) for p, v in got.items()} == expected


def test_a_problem_is_what_it_says_and_where():
    # a problem is its code, its sentence and where it is (smazzata, player, field): the same
    # problem written by hand is equal to the one the engine reports, whatever template its
    # sentence came from (the template is only for the reader's language)
    wrong = list(BASE)
    wrong[1] = sm("NK", "Zeno", 4, 0, 0)
    score = score_turno(RULES, turno(wrong))
    assert score.problems[0] == Problem(
        "CALLER_UNKNOWN",
        "il chiamante 'Zeno' non siede a questo tavolo",
        smazzata=2,
        player="Zeno",
        field="caller",
    )
    assert score.problems[0].template == "il chiamante %(player)s non siede a questo tavolo"


def test_an_unknown_game_is_one_problem_of_the_call_not_of_its_counts():
    # the counts of a game the rules do not know cannot be checked: the call check names it
    unknown = SmazzataRecord("N8D", "Bea", {"Ada": 0, "Bea": 0, "Ciro": 0})
    assert check_smazzata(RULES, turno(()), unknown) == (
        [Problem("GAME_UNKNOWN", "gioco sconosciuto: 'N8D'", smazzata=1, field="game")],
        False,
    )
