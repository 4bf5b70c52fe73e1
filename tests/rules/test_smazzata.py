"""One smazzata: base points (§4), scazzata (§5), cappotto (§6), validation of counts (§2).

Every expected number is written by hand from SPEC.md. Players are P1..PN; P1 is the chiamante.
C (cards per hand = tricks per deal) is 17, 13, 10, 8, 7 for N = 3..7; hearts are 13 (12 for N=6).
"""

from __future__ import annotations

import pytest

from scoring.rules.caf.ruleset import caf
from scoring.rules.caf.turno import check_result, score_smazzata

RULES = caf()
NS = (3, 4, 5, 6, 7)
C = {3: 17, 4: 13, 5: 10, 6: 8, 7: 7}
HEARTS = {3: 13, 4: 13, 5: 13, 6: 12, 7: 13}
SUM = {"NJ": 4, "NK": 4, "NJK": 8, "NQS": 1, "NU2": 2}


def players(n):
    return [f"P{i}" for i in range(1, n + 1)]


def as_result(n, counts):
    assert len(counts) == n
    return dict(zip(players(n), counts, strict=True))


def trump_for(game):
    return "S" if game == "BRISCOLA" else None


def total_of(game, n):
    """What the counts of ``game`` add up to with N players (SPEC §2); None for Domino."""
    if game == "NH":
        return HEARTS[n]
    if game in ("NF", "SEMPLICE", "BRISCOLA"):
        return C[n]
    return SUM.get(game)


def fill(game, n, caller_count):
    """A valid result where P1 (the caller) has ``caller_count``: test data, not expectations."""
    others = [0] * (n - 1)
    if game == "DOMINO":
        # P2 goes out (0 cards), the others keep 1 card
        others = [0] + [1] * (n - 2)
    else:
        rest = total_of(game, n) - caller_count
        i = 0
        while rest:  # round robin over P2..PN
            others[i % (n - 1)] += 1
            rest -= 1
            i += 1
    return as_result(n, [caller_count, *others])


def score(game, n, result, forced=False, caller="P1"):
    return score_smazzata(RULES, players(n), game, caller, forced, result)


# --- base points (SPEC §4), a valid deal per game and per N, caller P1 below any threshold ------
# (N, game, counts P1..PN, points P1..PN)
BASE = [
    # N = 3, C = 17, 13 hearts
    (3, "NJ", (0, 1, 3), (0, -3, -9)),  # P3 takes 3 jacks but is not the caller: -3*3
    (3, "NK", (2, 2, 0), (-6, -6, 0)),
    (3, "NJK", (3, 2, 3), (-9, -6, -9)),
    (3, "NQS", (0, 0, 1), (0, 0, -8)),
    (3, "NH", (6, 7, 0), (-12, -14, 0)),  # P2: 7 hearts * -2, no scazzata (not the caller)
    (3, "NU2", (1, 0, 1), (-5, 0, -5)),
    (3, "NF", (7, 5, 5), (-21, -15, -15)),  # 7 < floor(17/2) = 8
    (3, "DOMINO", (6, 0, 17), (-12, 7, -34)),  # 6 < floor(17/2) - 1 = 7; 17 cards * -2
    (3, "SEMPLICE", (3, 10, 4), (9, 30, 12)),
    (3, "BRISCOLA", (3, 4, 10), (9, 12, 30)),
    # N = 4, C = 13, 13 hearts
    (4, "NJ", (2, 1, 1, 0), (-6, -3, -3, 0)),
    (4, "NK", (0, 4, 0, 0), (0, -12, 0, 0)),
    (4, "NJK", (3, 1, 2, 2), (-9, -3, -6, -6)),
    (4, "NQS", (0, 1, 0, 0), (0, -8, 0, 0)),
    (4, "NH", (6, 4, 2, 1), (-12, -8, -4, -2)),
    (4, "NU2", (0, 1, 1, 0), (0, -5, -5, 0)),
    (4, "NF", (5, 4, 3, 1), (-15, -12, -9, -3)),  # 5 < 6
    (4, "DOMINO", (4, 1, 0, 13), (-8, -2, 7, -26)),  # 4 < 5
    (4, "SEMPLICE", (3, 4, 5, 1), (9, 12, 15, 3)),
    (4, "BRISCOLA", (13, 0, 0, 0), (39, 0, 0, 0)),
    # N = 5, C = 10, 13 hearts
    (5, "NJ", (1, 1, 1, 1, 0), (-3, -3, -3, -3, 0)),
    (5, "NK", (2, 0, 0, 0, 2), (-6, 0, 0, 0, -6)),
    (5, "NJK", (3, 0, 0, 5, 0), (-9, 0, 0, -15, 0)),
    (5, "NQS", (0, 0, 0, 0, 1), (0, 0, 0, 0, -8)),
    (5, "NH", (6, 0, 7, 0, 0), (-12, 0, -14, 0, 0)),
    (5, "NU2", (0, 0, 2, 0, 0), (0, 0, -10, 0, 0)),
    (5, "NF", (4, 3, 2, 1, 0), (-12, -9, -6, -3, 0)),  # 4 < 5
    (5, "DOMINO", (3, 0, 10, 1, 2), (-6, 7, -20, -2, -4)),  # 3 < 4
    (5, "SEMPLICE", (3, 2, 2, 2, 1), (9, 6, 6, 6, 3)),
    (5, "BRISCOLA", (10, 0, 0, 0, 0), (30, 0, 0, 0, 0)),
    # N = 6, C = 8, 12 hearts
    (6, "NJ", (0, 0, 0, 0, 0, 4), (0, 0, 0, 0, 0, -12)),
    (6, "NK", (1, 1, 1, 1, 0, 0), (-3, -3, -3, -3, 0, 0)),
    (6, "NJK", (3, 1, 1, 1, 1, 1), (-9, -3, -3, -3, -3, -3)),
    (6, "NQS", (0, 1, 0, 0, 0, 0), (0, -8, 0, 0, 0, 0)),
    (6, "NH", (6, 6, 0, 0, 0, 0), (-12, -12, 0, 0, 0, 0)),
    (6, "NU2", (1, 1, 0, 0, 0, 0), (-5, -5, 0, 0, 0, 0)),
    (6, "NF", (3, 1, 1, 1, 1, 1), (-9, -3, -3, -3, -3, -3)),  # 3 < 4
    (6, "DOMINO", (2, 8, 1, 0, 3, 5), (-4, -16, -2, 7, -6, -10)),  # 2 < 3
    (6, "SEMPLICE", (3, 1, 1, 1, 1, 1), (9, 3, 3, 3, 3, 3)),
    (6, "BRISCOLA", (8, 0, 0, 0, 0, 0), (24, 0, 0, 0, 0, 0)),
    # N = 7, C = 7, 13 hearts
    (7, "NJ", (0, 1, 1, 1, 1, 0, 0), (0, -3, -3, -3, -3, 0, 0)),
    (7, "NK", (2, 1, 1, 0, 0, 0, 0), (-6, -3, -3, 0, 0, 0, 0)),
    (7, "NJK", (3, 0, 1, 1, 1, 1, 1), (-9, 0, -3, -3, -3, -3, -3)),
    (7, "NQS", (0, 0, 0, 1, 0, 0, 0), (0, 0, 0, -8, 0, 0, 0)),
    (7, "NH", (6, 2, 2, 1, 1, 1, 0), (-12, -4, -4, -2, -2, -2, 0)),
    (7, "NU2", (0, 0, 0, 0, 0, 1, 1), (0, 0, 0, 0, 0, -5, -5)),
    (7, "NF", (2, 1, 1, 1, 1, 1, 0), (-6, -3, -3, -3, -3, -3, 0)),  # 2 < 3
    (7, "DOMINO", (1, 0, 7, 1, 1, 1, 1), (-2, 7, -14, -2, -2, -2, -2)),  # 1 < 2
    (7, "SEMPLICE", (3, 1, 1, 1, 1, 0, 0), (9, 3, 3, 3, 3, 0, 0)),
    (7, "BRISCOLA", (3, 1, 1, 1, 1, 0, 0), (9, 3, 3, 3, 3, 0, 0)),
]


@pytest.mark.parametrize(("n", "game", "counts", "expected"), BASE)
def test_base_points(n, game, counts, expected):
    result = as_result(n, counts)
    assert check_result(RULES, players(n), game, result, trump_for(game)) == []
    for forced in (False, True):
        got = score(game, n, result, forced=forced)
        assert got.points == as_result(n, expected)
        assert got.scazzata is False
        assert got.cappotto is None


def test_base_covers_every_game_and_player_count():
    assert {(n, g) for n, g, _, _ in BASE} == {(n, g) for n in NS for g in RULES.games}


# --- scazzata thresholds (SPEC §5), caller P1 ----------------------------------------------------
# game -> N -> (count just below, caller points, count at threshold, caller points when voluntary,
#               caller points when forced = base rate)
SAME = {
    # 2 jacks: -3*2 = -6; 3 jacks voluntary: -4*3 = -12; forced: -3*3 = -9
    "NJ": (2, -6, 3, -12, -9),
    "NK": (2, -6, 3, -12, -9),
    # 3 J/K: -3*3 = -9; 4 voluntary: -4*4 = -16; forced: -3*4 = -12
    "NJK": (3, -9, 4, -16, -12),
    # no Q♠: 0; Q♠ voluntary: -12 fixed; forced: -8
    "NQS": (0, 0, 1, -12, -8),
    # 6 hearts: -2*6 = -12; 7 voluntary: -3*7 = -21; forced: -2*7 = -14
    "NH": (6, -12, 7, -21, -14),
    # one of the last two: -5; both voluntary: -15; forced: -5*2 = -10
    "NU2": (1, -5, 2, -15, -10),
    # 3 tricks: +3*3 = 9; 2 tricks voluntary: -12; forced: +3*2 = 6
    "SEMPLICE": (3, 9, 2, -12, 6),
    "BRISCOLA": (3, 9, 2, -12, 6),
}
THRESHOLDS = {game: dict.fromkeys(NS, row) for game, row in SAME.items()}
THRESHOLDS["NF"] = {
    3: (7, -21, 8, -32, -24),  # floor(17/2) = 8: -4*8 = -32, forced -3*8 = -24
    4: (5, -15, 6, -24, -18),  # floor(13/2) = 6: -4*6 = -24, forced -3*6 = -18
    5: (4, -12, 5, -20, -15),  # floor(10/2) = 5: -4*5 = -20, forced -3*5 = -15
    6: (3, -9, 4, -16, -12),  # floor(8/2) = 4: -4*4 = -16, forced -3*4 = -12
    7: (2, -6, 3, -12, -9),  # floor(7/2) = 3: -4*3 = -12, forced -3*3 = -9
}
THRESHOLDS["DOMINO"] = {
    3: (6, -12, 7, -28, -14),  # floor(17/2) - 1 = 7 cards: -4*7 = -28, forced -2*7 = -14
    4: (4, -8, 5, -20, -10),  # floor(13/2) - 1 = 5: -4*5 = -20, forced -2*5 = -10
    5: (3, -6, 4, -16, -8),  # floor(10/2) - 1 = 4: -4*4 = -16, forced -2*4 = -8
    6: (2, -4, 3, -12, -6),  # floor(8/2) - 1 = 3: -4*3 = -12, forced -2*3 = -6
    7: (1, -2, 2, -8, -4),  # floor(7/2) - 1 = 2: -4*2 = -8, forced -2*2 = -4
}
THRESHOLD_CASES = [(g, n, *THRESHOLDS[g][n]) for g in RULES.games for n in NS]


@pytest.mark.parametrize(
    ("game", "n", "below", "below_pts", "at", "at_pts", "forced_pts"), THRESHOLD_CASES
)
def test_scazzata_threshold(game, n, below, below_pts, at, at_pts, forced_pts):
    low = fill(game, n, below)
    high = fill(game, n, at)
    for result in (low, high):
        assert check_result(RULES, players(n), game, result, trump_for(game)) == []

    got = score(game, n, low)
    assert (got.points["P1"], got.scazzata, got.cappotto) == (below_pts, False, None)

    got = score(game, n, high)
    assert (got.points["P1"], got.scazzata, got.cappotto) == (at_pts, True, None)

    # a forced call never scores a scazzata: the base rate
    got = score(game, n, high, forced=True)
    assert (got.points["P1"], got.scazzata, got.cappotto) == (forced_pts, False, None)


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize(
    ("game", "count", "points"),
    [
        ("NJ", 4, -16),  # -4*4
        ("NK", 4, -16),  # -4*4
        ("NJK", 8, -32),  # -4*8
        ("SEMPLICE", 0, -12),  # base would be 0
        ("SEMPLICE", 1, -12),  # base would be 3
        ("BRISCOLA", 0, -12),
        ("BRISCOLA", 1, -12),
    ],
)
def test_scazzata_upper_range(n, game, count, points):
    result = fill(game, n, count)
    got = score(game, n, result)
    assert (got.points["P1"], got.scazzata) == (points, True)


@pytest.mark.parametrize(
    ("n", "tricks", "points"),
    # one trick short of a cappotto is still a scazzata: -4 per trick
    [(3, 16, -64), (4, 12, -48), (5, 9, -36), (6, 7, -28), (7, 6, -24)],
)
def test_nf_scazzata_up_to_all_but_one(n, tricks, points):
    got = score("NF", n, fill("NF", n, tricks))
    assert (got.points["P1"], got.scazzata, got.cappotto) == (points, True, None)


@pytest.mark.parametrize(
    ("n", "cards", "points"),
    # the caller left with a full hand: -4 * C
    [(3, 17, -68), (4, 13, -52), (5, 10, -40), (6, 8, -32), (7, 7, -28)],
)
def test_domino_scazzata_full_hand(n, cards, points):
    got = score("DOMINO", n, fill("DOMINO", n, cards))
    assert (got.points["P1"], got.scazzata) == (points, True)


@pytest.mark.parametrize(
    ("n", "hearts", "points"),
    [(3, 12, -36), (4, 12, -36), (5, 12, -36), (6, 11, -33), (7, 12, -36)],  # -3 per heart
)
def test_nh_scazzata_up_to_all_but_one(n, hearts, points):
    got = score("NH", n, fill("NH", n, hearts))
    assert (got.points["P1"], got.scazzata, got.cappotto) == (points, True, None)


def test_scazzata_replaces_base_rate_for_the_caller_only():
    # 4 players, NJ called by P1: P1 3 jacks (scazzata -4*3 = -12), P2 1 jack (-3)
    result = {"P1": 3, "P2": 1, "P3": 0, "P4": 0}
    got = score("NJ", 4, result)
    assert got.points == {"P1": -12, "P2": -3, "P3": 0, "P4": 0}
    assert got.scazzata is True
    # same deal, P2 calls: P1 is not the caller and pays the base rate -3*3 = -9
    got = score("NJ", 4, result, caller="P2")
    assert got.points == {"P1": -9, "P2": -3, "P3": 0, "P4": 0}
    assert got.scazzata is False
    # NF, 4 players: P3 takes 7 tricks but P1 called with 2: nobody scazzata
    result = {"P1": 2, "P2": 3, "P3": 7, "P4": 1}
    got = score("NF", 4, result)
    assert got.points == {"P1": -6, "P2": -9, "P3": -21, "P4": -3}
    assert got.scazzata is False
    # Domino, 4 players: P3 called and kept 6 cards: -4*6 = -24; P4 kept 6 too: -2*6 = -12
    result = {"P1": 0, "P2": 2, "P3": 6, "P4": 6}
    got = score("DOMINO", 4, result, caller="P3")
    assert got.points == {"P1": 7, "P2": -4, "P3": -24, "P4": -12}
    assert got.scazzata is True
    # Semplice, 4 players: P1 called and took 2 tricks (-12); P2 took 1 trick (+3)
    result = {"P1": 2, "P2": 1, "P3": 5, "P4": 5}
    got = score("SEMPLICE", 4, result)
    assert got.points == {"P1": -12, "P2": 3, "P3": 15, "P4": 15}


# --- cappotto (SPEC §6) ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("forced", [False, True])
def test_nh_cappotto_by_the_caller(n, forced):
    # all the hearts (13, or 12 with six players): 0 for the taker, -15 for every other player
    result = as_result(n, [HEARTS[n]] + [0] * (n - 1))
    assert check_result(RULES, players(n), "NH", result) == []
    got = score("NH", n, result, forced=forced)
    assert got.points == as_result(n, [0] + [-15] * (n - 1))
    assert got.cappotto == "P1"
    assert got.scazzata is False  # a cappotto is never a scazzata


@pytest.mark.parametrize("n", NS)
def test_nh_cappotto_by_another_player(n):
    result = as_result(n, [0, HEARTS[n]] + [0] * (n - 2))
    got = score("NH", n, result)
    assert got.points == as_result(n, [-15, 0] + [-15] * (n - 2))
    assert got.cappotto == "P2"
    assert got.scazzata is False


def test_twelve_hearts_is_cappotto_only_with_six_players():
    got = score("NH", 6, as_result(6, [12, 0, 0, 0, 0, 0]))
    assert got.cappotto == "P1"
    assert got.points == as_result(6, [0, -15, -15, -15, -15, -15])
    # with four players 12 of 13 hearts is a scazzata: -3*12 = -36
    got = score("NH", 4, as_result(4, [12, 1, 0, 0]))
    assert got.cappotto is None
    assert got.scazzata is True
    assert got.points == as_result(4, [-36, -2, 0, 0])
    # and by a non-caller it is just the base rate: -2*12 = -24
    got = score("NH", 4, as_result(4, [1, 12, 0, 0]))
    assert (got.cappotto, got.scazzata) == (None, False)
    assert got.points == as_result(4, [-2, -24, 0, 0])


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("forced", [False, True])
def test_nf_cappotto_by_the_caller(n, forced):
    # every trick (C of them): 0 for the taker, -20 for every other player
    result = as_result(n, [C[n]] + [0] * (n - 1))
    assert check_result(RULES, players(n), "NF", result) == []
    got = score("NF", n, result, forced=forced)
    assert got.points == as_result(n, [0] + [-20] * (n - 1))
    assert got.cappotto == "P1"
    assert got.scazzata is False


@pytest.mark.parametrize("n", NS)
def test_nf_cappotto_by_another_player(n):
    result = as_result(n, [0] * (n - 1) + [C[n]])
    got = score("NF", n, result)
    assert got.points == as_result(n, [-20] * (n - 1) + [0])
    assert got.cappotto == f"P{n}"


@pytest.mark.parametrize(
    ("game", "counts", "expected"),
    [
        # taking everything in another game is no cappotto: plain (or scazzata) points
        ("NJ", (0, 4, 0, 0), (0, -12, 0, 0)),
        ("NJK", (0, 8, 0, 0), (0, -24, 0, 0)),
        ("NU2", (0, 2, 0, 0), (0, -10, 0, 0)),
        ("SEMPLICE", (0, 13, 0, 0), (-12, 39, 0, 0)),  # P1 called with 0 tricks: scazzata
    ],
)
def test_no_cappotto_in_other_games(game, counts, expected):
    got = score(game, 4, as_result(4, counts))
    assert got.cappotto is None
    assert got.points == as_result(4, expected)


# --- validation of the counts (SPEC §2) -----------------------------------------------------------
def codes(problems):
    return sorted(p.code for p in problems)


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("game", ["NJ", "NK", "NJK", "NQS", "NH", "NU2", "NF", "SEMPLICE"])
def test_count_sum(n, game):
    total = total_of(game, n)
    good = fill(game, n, 0)
    assert sum(good.values()) == total
    assert check_result(RULES, players(n), game, good) == []
    short = dict(good, P1=good["P1"] + 1)  # one more than the deck holds
    problems = check_result(RULES, players(n), game, short, number=5)
    assert codes(problems) == ["COUNT_SUM"]
    assert problems[0].smazzata == 5
    assert problems[0].field == "result"
    less = fill(game, n, 0)
    less["P2"] -= 1  # one less
    assert codes(check_result(RULES, players(n), game, less)) == ["COUNT_SUM"]


@pytest.mark.parametrize(
    ("n", "counts"),
    [
        (4, (13, 0, 0, 0)),  # 13 hearts with four players
        (6, (12, 0, 0, 0, 0, 0)),  # 12 hearts with six players (no 2♥)
    ],
)
def test_hearts_total_per_deck(n, counts):
    assert check_result(RULES, players(n), "NH", as_result(n, counts)) == []


def test_hearts_total_wrong_per_deck():
    # 6 players: 12 hearts in the deck, 13 is wrong
    assert codes(check_result(RULES, players(6), "NH", as_result(6, (7, 6, 0, 0, 0, 0)))) == [
        "COUNT_SUM"
    ]
    # 4 players: 13 hearts, 12 is wrong
    assert codes(check_result(RULES, players(4), "NH", as_result(4, (6, 6, 0, 0)))) == ["COUNT_SUM"]


@pytest.mark.parametrize("n", NS)
def test_tricks_add_up_to_c(n):
    # C tricks exactly: C - 1 and C + 1 are wrong
    for game in ("NF", "SEMPLICE", "BRISCOLA"):
        ok = as_result(n, [C[n]] + [0] * (n - 1))
        assert check_result(RULES, players(n), game, ok, trump_for(game)) == []
        bad = as_result(n, [C[n] - 1] + [0] * (n - 1))
        assert codes(check_result(RULES, players(n), game, bad, trump_for(game))) == ["COUNT_SUM"]


@pytest.mark.parametrize(
    ("game", "n", "value"),
    [
        ("NJ", 4, 5),  # at most 4 jacks
        ("NJ", 4, -1),
        ("NK", 5, 5),
        ("NJK", 3, 9),  # at most 8
        ("NQS", 4, 2),  # at most 1
        ("NH", 4, 14),  # at most 13 hearts
        ("NH", 6, 13),  # at most 12 hearts with six players
        ("NU2", 7, 3),  # at most 2
        ("NF", 7, 8),  # at most C = 7
        ("NF", 3, 18),  # at most C = 17
        ("SEMPLICE", 6, 9),  # at most C = 8
        ("DOMINO", 7, 8),  # at most C = 7 cards in hand
        ("DOMINO", 5, 11),  # at most C = 10
        ("DOMINO", 4, -1),
    ],
)
def test_count_range(game, n, value):
    result = fill(game, n, 1) if game == "DOMINO" else fill(game, n, 0)
    result["P1"] = value
    problems = check_result(RULES, players(n), game, result, number=3)
    assert codes(problems) == ["COUNT_RANGE"]  # no COUNT_SUM on top of an out-of-range count
    assert (problems[0].smazzata, problems[0].player) == (3, "P1")


@pytest.mark.parametrize("n", NS)
def test_domino_needs_exactly_one_winner(n):
    nobody = as_result(n, [1] * n)
    problems = check_result(RULES, players(n), "DOMINO", nobody, number=8)
    assert codes(problems) == ["DOMINO_WINNER"]
    assert problems[0].smazzata == 8
    two = as_result(n, [0, 0] + [3] * (n - 2))
    assert codes(check_result(RULES, players(n), "DOMINO", two)) == ["DOMINO_WINNER"]
    one = as_result(n, [0] + [C[n]] * (n - 1))  # every loser with a full hand is fine
    assert check_result(RULES, players(n), "DOMINO", one) == []


@pytest.mark.parametrize("value", [1.0, 1.5, "1", True, None])
def test_count_not_integer(value):
    result = {"P1": 1, "P2": 1, "P3": 1, "P4": 1}
    result["P3"] = value
    problems = check_result(RULES, players(4), "NJ", result, number=2)
    assert codes(problems) == ["COUNT_NOT_INTEGER"]
    assert (problems[0].player, problems[0].smazzata) == ("P3", 2)


def test_result_missing_and_unknown_player():
    result = {"P1": 1, "P2": 1, "P3": 2, "Zeno": 0}
    problems = check_result(RULES, players(4), "NJ", result, number=1)
    assert sorted((p.code, p.player) for p in problems) == [
        ("RESULT_MISSING", "P4"),
        ("RESULT_PLAYER_UNKNOWN", "Zeno"),
    ]
    assert {p.smazzata for p in problems} == {1}


def test_trump():
    ok = {"P1": 4, "P2": 3, "P3": 3, "P4": 3}
    for suit in ("S", "H", "D", "C"):
        assert check_result(RULES, players(4), "BRISCOLA", ok, suit) == []
    for missing in (None, ""):
        problems = check_result(RULES, players(4), "BRISCOLA", ok, missing, number=12)
        assert codes(problems) == ["TRUMP_MISSING"]
        assert (problems[0].field, problems[0].smazzata) == ("trump", 12)
    assert codes(check_result(RULES, players(4), "BRISCOLA", ok, "X")) == ["TRUMP_INVALID"]
    assert codes(check_result(RULES, players(4), "BRISCOLA", ok, "♠")) == ["TRUMP_INVALID"]
    assert codes(check_result(RULES, players(4), "SEMPLICE", ok, "S")) == ["TRUMP_UNEXPECTED"]
    assert codes(check_result(RULES, players(4), "NF", ok, "H")) == ["TRUMP_UNEXPECTED"]


def test_every_problem_of_one_smazzata_at_once():
    # BRISCOLA with no trump, P2 out of range, P4 missing, an unknown player
    result = {"P1": 3, "P2": 14, "P3": 2, "Zeno": 1}
    problems = check_result(RULES, players(4), "BRISCOLA", result, None, number=17)
    assert codes(problems) == [
        "COUNT_RANGE",
        "RESULT_MISSING",
        "RESULT_PLAYER_UNKNOWN",
        "TRUMP_MISSING",
    ]
    assert {p.smazzata for p in problems} == {17}
