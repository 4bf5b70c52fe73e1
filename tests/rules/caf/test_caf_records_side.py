"""King C.A.F.'s records side (issue "One ledger", step 5) on turni whose every number is worked
out by hand from SPEC.md: a normal turno, a spareggio, a cappotto, a late joiner's season.

The turno: four players in seat order Anna, Bruno, Carla, Dario (counterclockwise, SPEC §3.1),
Anna deals first; every chiamante is the player after the dealer, so the next dealer is the next
seat. Four players: 13 cards a hand, 13 tricks, 13 hearts (SPEC §1); 7 + 3·4 = 19 smazzate.

=== ========= ======== ============ ===== ===== ===== =====
 #  game      caller   counts A B C D   Anna Bruno Carla Dario
=== ========= ======== ============ ===== ===== ===== =====
 1  NJ        Bruno    1 3 0 0        -3   -12     0     0   (Bruno's 3 jacks: scazzata, -4·3)
 2  NK        Carla    2 0 1 1        -6     0    -3    -3
 3  NJK       Dario    2 2 2 2        -6    -6    -6    -6
 4  NQS       Anna     0 1 0 0         0    -8     0     0
 5  NH        Bruno    4 3 3 3        -8    -6    -6    -6
 6  NU2       Carla    1 1 0 0        -5    -5     0     0
 7  NF        Dario    4 3 3 3       -12    -9    -9    -9
 8  DOMINO    Anna     0 2 3 4        +7    -4    -6    -8   (cards left; 0 wins +7)
 9  DOMINO    Bruno    1 2 0 3        -2    -4    +7    -6
10  DOMINO    Carla    2 1 3 0        -4    -2    -6    +7
11  DOMINO    Dario    3 0 1 2        -6    +7    -2    -4
12  SEMPLICE  Anna     4 3 3 3       +12    +9    +9    +9
13  SEMPLICE  Bruno    3 5 3 2        +9   +15    +9    +6
14  SEMPLICE  Carla    3 3 4 3        +9    +9   +12    +9
15  SEMPLICE  Dario    4 3 3 3       +12    +9    +9    +9
16  BRISCOLA  Anna H   5 3 3 2       +15    +9    +9    +6
17  BRISCOLA  Bruno S  3 4 3 3        +9   +12    +9    +9
18  BRISCOLA  Carla D  3 3 4 3        +9    +9   +12    +9
19  BRISCOLA  Dario C  4 4 4 1       +12   +12   +12    +3   (forced: no scazzata, SPEC §3.3)
=== ========= ======== ============ ===== ===== ===== =====
totals                                42    35    50    25

Deal 19 is the only forced call: after Dario, Anna, Bruno and Carla (the dealer) have nothing
left to call. Carla wins (W = 50): ratios 1.00, 42/50 = 0.84, 35/50 = 0.70, 25/50 = 0.50; in
Serie A the winner takes the Scudetto (+1), second the UEFA (+0.3), third (not last) the Coppa
Italia (+0.1), last the Retrocessione (-0.1) and goes down to B (SPEC §8.2-§8.3).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from scoring.rules.caf import caf
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import get_system

SEATS = ["Anna", "Bruno", "Carla", "Dario"]
DEALS = [  # game, caller, trump, counts in seat order
    ("NJ", "Bruno", None, (1, 3, 0, 0)),
    ("NK", "Carla", None, (2, 0, 1, 1)),
    ("NJK", "Dario", None, (2, 2, 2, 2)),
    ("NQS", "Anna", None, (0, 1, 0, 0)),
    ("NH", "Bruno", None, (4, 3, 3, 3)),
    ("NU2", "Carla", None, (1, 1, 0, 0)),
    ("NF", "Dario", None, (4, 3, 3, 3)),
    ("DOMINO", "Anna", None, (0, 2, 3, 4)),
    ("DOMINO", "Bruno", None, (1, 2, 0, 3)),
    ("DOMINO", "Carla", None, (2, 1, 3, 0)),
    ("DOMINO", "Dario", None, (3, 0, 1, 2)),
    ("SEMPLICE", "Anna", None, (4, 3, 3, 3)),
    ("SEMPLICE", "Bruno", None, (3, 5, 3, 2)),
    ("SEMPLICE", "Carla", None, (3, 3, 4, 3)),
    ("SEMPLICE", "Dario", None, (4, 3, 3, 3)),
    ("BRISCOLA", "Anna", "H", (5, 3, 3, 2)),
    ("BRISCOLA", "Bruno", "S", (3, 4, 3, 3)),
    ("BRISCOLA", "Carla", "D", (3, 3, 4, 3)),
    ("BRISCOLA", "Dario", "C", (4, 4, 4, 1)),
]
CAF = get_system("caf")
RULES = caf()


def turno(date="2026-10-02", seats=SEATS, deals=DEALS, **more) -> dict:
    """The hand turno as its interchange record (``turno_to_input``'s shape), the players of
    ``seats`` sitting where Anna, Bruno, Carla and Dario sit in the table above."""
    names = dict(zip(SEATS, seats, strict=True))
    return {
        "date": date,
        "number": 1,
        "players": list(seats),
        "first_dealer": seats[0],
        "smazzate": [
            {
                "game": game,
                "caller": names[caller],
                **({"trump": trump} if trump else {}),
                "result": dict(zip(seats, counts, strict=True)),
            }
            for game, caller, trump, counts in deals
        ],
        "penalties": [],
        "tiebreak": [],
        "sanctions": [],
        **more,
    }


def seats_of(record, before=None) -> dict:
    """Per player: total, place, ratio, league points (Decimals), series after, titles."""
    results = CAF.seat_results(CAF.score_turno(RULES, record, before=before))
    return {
        p: (
            r["total"],
            r["place"],
            r["ratio"],
            r["score"],
            r["extra"]["series_after"],
            r["extra"]["titles"],
        )
        for p, r in results.items()
    }


def test_a_normal_turno_deal_by_deal_and_at_the_close():
    running = CAF.score_running(RULES, turno())
    keys = [CAF.smazzata_keys(sm) for sm in running["smazzate"]]
    assert [k["forced"] for k in keys] == [False] * 18 + [True]
    assert [n for n, k in enumerate(keys, start=1) if k["scazzata"]] == [1]
    assert all(k["cappotto"] is None for k in keys)
    assert keys[0] == {
        "game": "NJ",
        "caller": "Bruno",
        "trump": None,
        "forced": False,
        "scazzata": True,
        "cappotto": None,
    }
    assert [k["trump"] for k in keys[15:]] == ["H", "S", "D", "C"]
    assert running["smazzate"][0]["points"] == {"Anna": -3, "Bruno": -12, "Carla": 0, "Dario": 0}
    assert running["smazzate"][18]["points"] == {"Anna": 12, "Bruno": 12, "Carla": 12, "Dario": 3}
    assert running["totals"] == {"Anna": 42, "Bruno": 35, "Carla": 50, "Dario": 25}
    assert CAF.ties(RULES, turno()) == []
    assert seats_of(turno()) == {
        "Carla": (50, 1, Decimal("1.00"), Decimal("2.00"), "A", ["SCUDETTO"]),
        "Anna": (42, 2, Decimal("0.84"), Decimal("1.14"), "A", ["UEFA"]),
        "Bruno": (35, 3, Decimal("0.70"), Decimal("0.80"), "A", ["COPPA_ITALIA"]),
        "Dario": (25, 4, Decimal("0.50"), Decimal("0.40"), "B", ["RETROCESSIONE"]),
    }
    assert CAF.describe({**running["smazzate"][18]}) == (
        "Dario chiama Briscola, briscola fiori, obbligato"
    )


def test_a_spareggio_settles_the_tie_that_a_penalita_makes():
    # Carla's penalità of -8 (article 9): 50 - 8 = 42, level with Anna
    fined = turno(penalties=[{"player": "Carla", "points": -8, "article": "9", "reason": "x"}])
    assert CAF.score_running(RULES, fined)["totals"] == {
        "Anna": 42,
        "Bruno": 35,
        "Carla": 42,
        "Dario": 25,
    }
    assert CAF.ties(RULES, fined) == [["Anna", "Carla"]]  # in seat order
    drawn = {**fined, "tiebreak": ["Carla", "Anna"]}  # Carla wins the high-card draw
    assert CAF.ties(RULES, drawn) == []
    # W = 42: 35/42 = 0.833... -> 0.83, 25/42 = 0.595... -> 0.59 (rounded down)
    assert seats_of(drawn) == {
        "Carla": (42, 1, Decimal("1.00"), Decimal("2.00"), "A", ["SCUDETTO"]),
        "Anna": (42, 2, Decimal("1.00"), Decimal("1.30"), "A", ["UEFA"]),
        "Bruno": (35, 3, Decimal("0.83"), Decimal("0.93"), "A", ["COPPA_ITALIA"]),
        "Dario": (25, 4, Decimal("0.59"), Decimal("0.49"), "B", ["RETROCESSIONE"]),
    }
    extra = CAF.seat_results(CAF.score_turno(RULES, drawn))["Carla"]["extra"]
    assert extra == {
        "penalties": -8,
        "ratio": "1.00",
        "series_before": "A",
        "series_after": "A",
        "titles": ["SCUDETTO"],
        "league_points": "2.00",
    }


def test_a_cappotto_of_hearts():
    # deal 5 (NH, Bruno calls): Anna takes all 13 hearts -> Anna 0, every other -15 (SPEC §6)
    # instead of -8 -6 -6 -6: Anna 42 + 8 = 50, Bruno 35 - 9 = 26, Carla 50 - 9 = 41, Dario 16
    deals = [*DEALS[:4], ("NH", "Bruno", None, (13, 0, 0, 0)), *DEALS[5:]]
    record = turno(deals=deals)
    deal = CAF.score_running(RULES, record)["smazzate"][4]
    assert deal["points"] == {"Anna": 0, "Bruno": -15, "Carla": -15, "Dario": -15}
    assert CAF.smazzata_keys(deal) == {
        "game": "NH",
        "caller": "Bruno",
        "trump": None,
        "forced": False,
        "scazzata": False,
        "cappotto": "Anna",
    }
    assert CAF.describe(deal) == "Bruno chiama Non fare cuori, cappotto di Anna"
    # W = 50: 41/50 = 0.82, 26/50 = 0.52, 16/50 = 0.32
    assert seats_of(record) == {
        "Anna": (50, 1, Decimal("1.00"), Decimal("2.00"), "A", ["SCUDETTO"]),
        "Carla": (41, 2, Decimal("0.82"), Decimal("1.12"), "A", ["UEFA"]),
        "Bruno": (26, 3, Decimal("0.52"), Decimal("0.62"), "A", ["COPPA_ITALIA"]),
        "Dario": (16, 4, Decimal("0.32"), Decimal("0.22"), "B", ["RETROCESSIONE"]),
    }


# A season of two giornate. 2 October: the hand turno. 9 October: the same deals with Elena,
# who joins the club late, in Anna's seat (Anna stays home). On 9 October Carla, Scudetto the
# giornata before, wins again in A: Scudetto + Coppa dei Campioni, 1.00 + 1 + 1.5 = 3.50;
# Elena second in A 0.84 + 0.3 = 1.14; Bruno 0.80 again; Dario, last in B, 0.40 again and goes
# down to C1. The lowest league points: 0.40 both giornate, so Anna (absent on the 9th) and
# Elena (on the roster, absent on the 2nd: SPEC §8.1) each take 0.40 once.
ROSTER = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
FIRST = turno("2026-10-02")
SECOND = turno("2026-10-09", seats=["Elena", "Bruno", "Carla", "Dario"])
CLASSIFICA = [
    # place, player, league points, series, turni, absences, Scudetti, titles
    (1, "Carla", "5.50", "A", 2, 0, 2, {"SCUDETTO": 2, "COPPA_CAMPIONI": 1}),
    (2, "Bruno", "1.60", "A", 2, 0, 0, {"COPPA_ITALIA": 2}),
    (3, "Anna", "1.54", "A", 1, 1, 0, {"UEFA": 1}),  # 1.14 + 0.40
    (3, "Elena", "1.54", "A", 1, 1, 0, {"UEFA": 1}),  # 0.40 + 1.14: level, by name
    (5, "Dario", "0.80", "C1", 2, 0, 0, {"RETROCESSIONE": 2}),
]


def rows(standing) -> list[tuple]:
    keys = ("place", "player", "league_points", "series", "turni", "absences", "scudetti")
    return [(*(r[k] for k in keys), r["titles"]) for r in standing]


def test_a_late_joiner_takes_the_lowest_score_of_the_giornata_before_joining():
    assert rows(CAF.standing(RULES, ROSTER, [FIRST, SECOND])) == CLASSIFICA
    # the same, giornata by giornata, as the ledger folds the seats it keeps
    state = CAF.standing_start(RULES)
    first = CAF.seat_results(CAF.score_turno(RULES, FIRST, before=CAF.standing_chain(state)))
    state = CAF.standing_fold(state, [first], rules=RULES)
    assert (state["giornate"], state["lowest"]) == (1, "0.40")
    assert CAF.standing_chain(state) == {
        "series": {"Anna": "A", "Bruno": "A", "Carla": "A", "Dario": "B"},
        "streak": {"Carla": 1},
    }
    assert rows(CAF.standing_rank(RULES, ROSTER, state))[-1] == (
        4,
        "Elena",
        "0.40",
        "A",
        0,
        1,
        0,
        {},
    )  # on the roster, never seated yet: the lowest score of the 2nd
    second = CAF.seat_results(CAF.score_turno(RULES, SECOND, before=CAF.standing_chain(state)))
    assert {p: (r["score"], r["extra"]["titles"]) for p, r in second.items()} == {
        "Carla": (Decimal("3.50"), ["SCUDETTO", "COPPA_CAMPIONI"]),
        "Elena": (Decimal("1.14"), ["UEFA"]),
        "Bruno": (Decimal("0.80"), ["COPPA_ITALIA"]),
        "Dario": (Decimal("0.40"), ["RETROCESSIONE"]),
    }
    assert second["Dario"]["extra"]["series_before"] == "B"
    assert second["Dario"]["extra"]["series_after"] == "C1"
    outcomes = CAF.giornata_outcomes(RULES, state, [second])
    assert {p: o["league_points"] for p, o in outcomes[0].items()} == {
        p: r["score"] for p, r in second.items()
    }
    after = CAF.standing_fold(state, [second], rules=RULES)
    assert rows(CAF.standing_rank(RULES, ROSTER, after)) == CLASSIFICA
    # from the checkpoint after 2 October, only the 9th is played again
    checkpoint = (dt.date(2026, 10, 2), state)
    assert rows(CAF.standing(RULES, ROSTER, [FIRST, SECOND], checkpoint=checkpoint)) == CLASSIFICA


def test_a_turno_still_open_excuses_its_players_from_the_giornata():
    state = CAF.standing_start(RULES)
    first = CAF.seat_results(CAF.score_turno(RULES, FIRST))
    # Elena sits at a second table of the 2nd that is not closed yet: not absent
    pending = {"Elena": {"total": 0, "place": None, "extra": {}}}
    state = CAF.standing_fold(state, [first, pending], rules=RULES)
    elena = [r for r in CAF.standing_rank(RULES, ROSTER, state) if r["player"] == "Elena"]
    assert [(r["league_points"], r["turni"], r["absences"]) for r in elena] == [("0.00", 0, 0)]
    # a giornata whose turni are all open has no lowest score yet: nothing changes
    assert CAF.standing_fold(state, [pending], rules=RULES) == state


def test_a_series_carried_over_and_a_retrocessione_per_contatore():
    # Dario starts in B (carried from the season before); the segretario relegates Bruno
    sanctioned = {
        **FIRST,
        "sanctions": [{"player": "Bruno", "kind": "RETROCESSIONE_CONTATORE", "reason": "x"}],
    }
    standing = CAF.standing(RULES, SEATS, [sanctioned], start={"Dario": "B"})
    assert [(r["player"], r["league_points"], r["series"]) for r in standing] == [
        ("Carla", "2.00", "A"),
        ("Anna", "1.14", "A"),
        ("Bruno", "0.60", "B"),  # 0.70 + 0.1 - 0.2; down one series
        ("Dario", "0.40", "C1"),  # from B, last: down to C1
    ]


def test_the_standing_names_every_problem_of_its_turni_instead_of_failing():
    undated = {k: v for k, v in FIRST.items() if k != "date"}
    twice = {**SECOND, "date": FIRST["date"], "number": 2}  # Bruno, Carla, Dario again that day
    with pytest.raises(RuleViolation) as refused:
        CAF.standing(RULES, ROSTER, [undated, FIRST, twice])
    assert [p.code for p in refused.value.problems] == ["FORMAT"]
    with pytest.raises(RuleViolation) as refused:
        CAF.standing(RULES, ROSTER, [FIRST, twice])
    assert sorted((p.code, p.player) for p in refused.value.problems) == [
        ("PLAYER_TWICE_IN_GIORNATA", "Bruno"),
        ("PLAYER_TWICE_IN_GIORNATA", "Carla"),
        ("PLAYER_TWICE_IN_GIORNATA", "Dario"),
    ]


def test_the_fold_plays_the_season_s_own_rule_set():
    """The ledger folds each giornata with the season's rules (SPEC §9: titles are data): with
    the Scudetto worth 2, Carla's 1.00 + 2 = 3.00 after the 2nd, not the standard 2.00."""
    d = RULES.to_dict()
    d["league"]["titles"]["SCUDETTO"] = "2"
    edited = CAF.rules(d)
    first = CAF.seat_results(CAF.score_turno(edited, FIRST))
    state = CAF.standing_fold(CAF.standing_start(edited), [first], rules=edited)
    carla = next(r for r in CAF.standing_rank(edited, ROSTER, state) if r["player"] == "Carla")
    assert (carla["place"], carla["league_points"], carla["scudetti"]) == (1, "3.00", 1)
