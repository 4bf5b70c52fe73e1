"""Game value, won/lost, overbid and list points: SPEC-skat §13's worked examples and the JSkat
unit-test numbers it cites, each computed by hand in the comment beside it."""

from __future__ import annotations

import pytest

from scoring.rules.skat import game_list_points, outcome, read_game, skat_rules

R = skat_rules()
P3 = ["Anna", "Bruno", "Carla"]
P4 = ["Anna", "Bruno", "Carla", "Dario"]


def suit(game, bid, matadors, with_, points, tricks, **flags):
    return {
        "declarer": "Anna",
        "game": game,
        "bid": bid,
        "matadors": matadors,
        "with": with_,
        "declarer_points": points,
        "declarer_tricks": tricks,
        **flags,
    }


def null(bid, tricks, **flags):
    return {"declarer": "Anna", "game": "NULL", "bid": bid, "declarer_tricks": tricks, **flags}


def scored(record, players=P3, sitting_out=None):
    read = read_game(R, record, players=players, sitting_out=sitting_out, number=1)
    assert read.problems == []
    result = outcome(R, read.game)
    return result, game_list_points(R, players, sitting_out, "Anna", result)


OUVERT = {"hand": True, "ouvert": True, "schneider_announced": True, "schwarz_announced": True}

# (record, multiplier, value, overbid, won, score, declarer's list points)
EXAMPLES = [
    # Wikipedia: Grand with 4, schneider, won: (4 + game + schneider) × 24 = 6 × 24 = 144; +50
    (suit("GRAND", 48, 4, True, 95, 8), 6, 144, False, True, 144, 194),
    # Wikipedia: Diamonds without 2, lost: (2 + 1) × 9 = 27; −2 × 27 = −54; −54 − 50 = −104
    (suit("DIAMONDS", 18, 2, False, 50, 4), 3, 27, False, False, -54, -104),
    # Wikipedia: Null ouvert won: 46; 46 + 50 = 96
    (null(46, 0, ouvert=True), None, 46, False, True, 46, 96),
    # ISkO 5.2.6: Clubs ouvert with 2: 2+1+hand+schn+ann+schw+ann+ouvert = 9 × 12 = 108; +50
    (suit("CLUBS", 60, 2, True, 120, 10, **OUVERT), 9, 108, False, True, 108, 158),
    # ISkO 5.2.6: Grand ouvert with 4: 4 + 7 = 11 × 24 = 264; +50
    (suit("GRAND", 264, 4, True, 120, 10, **OUVERT), 11, 264, False, True, 264, 314),
    # JSkat testOverbid: Diamonds without 1, bid 22, 89 points: 2 × 9 = 18 < 22, overbid,
    # charged ⌈22/9⌉ = 3 × 9 = 27, −54, −104
    (suit("DIAMONDS", 22, 1, False, 89, 7), 3, 27, True, False, -54, -104),
    # JSkat testOverbidWithSchneider: 90 points: (1 + 1 + schneider) × 9 = 27 ≥ 22, won, 77
    (suit("DIAMONDS", 22, 1, False, 90, 7), 3, 27, False, True, 27, 77),
    # JSkat: Clubs without 4 (no jack), 61: (4 + 1) × 12 = 60; 110
    (suit("CLUBS", 24, 4, False, 61, 5), 5, 60, False, True, 60, 110),
    # JSkat: Clubs with 1, 60 points, lost: 2 × 12 = 24, −48, −98
    (suit("CLUBS", 24, 1, True, 60, 5), 2, 24, False, False, -48, -98),
    # JSkat: Clubs with 6, 61: 7 × 12 = 84; 134
    (suit("CLUBS", 24, 6, True, 61, 6), 7, 84, False, True, 84, 134),
    # JSkat: Clubs with 1, 90: (1 + 1 + schneider) × 12 = 36; 86
    (suit("CLUBS", 24, 1, True, 90, 8), 3, 36, False, True, 36, 86),
    # JSkat: Clubs with 1, 120 and all tricks: (1 + 1 + schneider + schwarz) × 12 = 48; 98
    (suit("CLUBS", 24, 1, True, 120, 10), 4, 48, False, True, 48, 98),
    # JSkat: Clubs hand, schneider announced, with 1, 90: (1+1+hand+schn+ann) × 12 = 60; 110
    (
        suit("CLUBS", 24, 1, True, 90, 8, hand=True, schneider_announced=True),
        5, 60, False, True, 60, 110,
    ),
    # JSkat: Clubs hand, schwarz announced, with 1, all tricks: 7 × 12 = 84; 134
    (
        suit(
            "CLUBS", 24, 1, True, 120, 10,
            hand=True, schneider_announced=True, schwarz_announced=True,
        ),
        7, 84, False, True, 84, 134,
    ),
    # preisskat.org: Grand hand with 4, schneider announced, opponents 31 (declarer 89):
    # (4+1+1+1+1) × 24 = 192 lost, −384, −434
    (
        suit("GRAND", 72, 4, True, 89, 7, hand=True, schneider_announced=True),
        8, 192, False, False, -384, -434,
    ),
    # skatblog (ISkO 5.4.2): Spades hand, bid 72, J♣ in the skat so "with 1": 3 × 11 = 33 < 72,
    # ⌈72/11⌉ = 7 → 77, −154, −204
    (suit("SPADES", 72, 1, True, 70, 6, hand=True), 7, 77, True, False, -154, -204),
    # skatblog: Null ouvert lost: −2 × 46 = −92, −142; Null won: 23, 73
    (null(46, 1, ouvert=True), None, 46, False, False, -92, -142),
    (null(23, 0), None, 23, False, True, 23, 73),
    # JSkat NullRuleTest: Null hand 35 / ouvert hand 59 won; lost hand −70, lost ouvert hand −118
    (null(35, 0, hand=True), None, 35, False, True, 35, 85),
    (null(59, 0, hand=True, ouvert=True), None, 59, False, True, 59, 109),
    (null(35, 1, hand=True), None, 35, False, False, -70, -120),
    (null(59, 1, hand=True, ouvert=True), None, 59, False, False, -118, -168),
    # JSkat GrandRuleTest: Grand with 1, 60 lost: 2 × 24 = 48, −96; hand with 1 won: 3 × 24 = 72
    (suit("GRAND", 24, 1, True, 60, 5), 2, 48, False, False, -96, -146),
    (suit("GRAND", 24, 1, True, 61, 6, hand=True), 3, 72, False, True, 72, 122),
    # JSkat GrandRuleTest: schneider announced with 1, 90: 5 × 24 = 120; schwarz announced: 168
    (
        suit("GRAND", 24, 1, True, 90, 8, hand=True, schneider_announced=True),
        5, 120, False, True, 120, 170,
    ),
    (
        suit(
            "GRAND", 24, 1, True, 120, 10,
            hand=True, schneider_announced=True, schwarz_announced=True,
        ),
        7, 168, False, True, 168, 218,
    ),
    # JSkat GrandRuleTest: Grand without 2, 89 points: 3 × 24 = 72
    (suit("GRAND", 24, 2, False, 89, 7), 3, 72, False, True, 72, 122),
]  # fmt: skip


@pytest.mark.parametrize(
    ("record", "multiplier", "value", "overbid", "won", "score", "points"), EXAMPLES
)
def test_worked_example(record, multiplier, value, overbid, won, score, points):
    result, list_points = scored(record)
    assert (result.multiplier, result.value, result.overbid, result.won, result.score) == (
        multiplier,
        value,
        overbid,
        won,
        score,
    )
    assert list_points["Anna"] == points
    others = 0 if won else 40
    assert list_points == {"Anna": points, "Bruno": others, "Carla": others}


def test_the_lost_game_gives_30_to_every_other_player_at_four_and_to_the_sitting_out_dealer():
    # Diamonds without 2 lost at a 4-table where Dario deals: −104 for Anna, +30 for the others
    _, points = scored(suit("DIAMONDS", 18, 2, False, 50, 4), players=P4, sitting_out="Dario")
    assert points == {"Anna": -104, "Bruno": 30, "Carla": 30, "Dario": 30}


def test_the_variant_gives_40_to_the_two_active_opponents_only():
    rules = skat_rules({"opponents_bonus": {"4": 40}, "sitting_out_bonus": False})
    read = read_game(rules, suit("DIAMONDS", 18, 2, False, 50, 4), players=P4, sitting_out="Dario")
    points = game_list_points(rules, P4, "Dario", "Anna", outcome(rules, read.game))
    assert points == {"Anna": -104, "Bruno": 40, "Carla": 40, "Dario": 0}


@pytest.mark.parametrize(
    ("points", "tricks", "multiplier", "won"),
    [
        (61, 5, 2, True),  # Hearts with 1: game only, 2 × 10
        (60, 5, 2, False),  # one point short: lost
        (89, 9, 2, True),  # 89: no schneider
        (90, 9, 3, True),  # 90: opponents schneider
        (31, 2, 2, False),  # 31: declarer not schneider
        (30, 2, 3, False),  # 30: declarer schneider counts one level (lost at 3 × 10)
        (0, 0, 4, False),  # no trick: schneider and schwarz, 4 × 10, lost
        (22, 0, 4, False),  # the skat's points and no trick: still schwarz
        (0, 1, 3, False),  # a trick of 7-8-9 (0 points): not schwarz, declarer schneider
        (120, 9, 3, True),  # 120 points but a 0-point trick lost: schneider, not schwarz
        (120, 10, 4, True),  # all tricks: schneider and schwarz
    ],
)
def test_schneider_and_schwarz_thresholds(points, tricks, multiplier, won):
    result, _ = scored(suit("HEARTS", 18, 1, True, points, tricks))
    assert (result.multiplier, result.value, result.won) == (multiplier, 10 * multiplier, won)


def test_announced_schneider_not_reached_loses_at_the_announced_level():
    # Spades hand with 2, schneider announced, 75 points: (2+1+1+1+1) × 11 = 66, lost −132
    result, points = scored(suit("SPADES", 18, 2, True, 75, 7, hand=True, schneider_announced=True))
    assert (result.value, result.won, result.score, points["Anna"]) == (66, False, -132, -182)


def test_no_eigenschneider_the_declarer_schneider_counts_once():
    # Spades hand with 2, schneider announced, declarer 20 points: still (2+1+1+1+1) × 11 = 66
    result, _ = scored(suit("SPADES", 18, 2, True, 20, 2, hand=True, schneider_announced=True))
    assert (result.multiplier, result.value, result.score) == (6, 66, -132)


def test_schwarz_announced_missing_one_trick_is_lost():
    # Hearts hand with 3, schwarz announced, 9 tricks and 119 points:
    # (3 + 1 + hand + schneider + ann + schwarz + ann) = 9 × 10 = 90, lost −180
    result, _ = scored(
        suit(
            "HEARTS", 18, 3, True, 119, 9,
            hand=True, schneider_announced=True, schwarz_announced=True,
        )
    )  # fmt: skip
    assert (result.multiplier, result.value, result.won, result.score) == (9, 90, False, -180)


def test_an_overbid_game_is_lost_whatever_the_points():
    # Hearts with 1, bid 30, 120 points and every trick: (1+1+schn+schw) × 10 = 40 ≥ 30: won;
    # the same with 61 points: 2 × 10 = 20 < 30, overbid, charged ⌈30/10⌉ × 10 = 30, −60
    won, _ = scored(suit("HEARTS", 30, 1, True, 120, 10))
    assert (won.value, won.won, won.overbid) == (40, True, False)
    lost, points = scored(suit("HEARTS", 30, 1, True, 61, 6))
    assert (lost.multiplier, lost.value, lost.overbid, lost.score, points["Anna"]) == (
        3,
        30,
        True,
        -60,
        -110,
    )


def test_a_won_game_reaching_exactly_the_bid_is_not_overbid():
    # Spades with 2, bid 33: 3 × 11 = 33
    result, _ = scored(suit("SPADES", 33, 2, True, 70, 7))
    assert (result.value, result.overbid, result.won) == (33, False, True)


def test_the_lost_factor_is_data():
    rules = skat_rules({"lost_factor": 1, "won_bonus": 0, "lost_bonus": 0})
    read = read_game(rules, suit("CLUBS", 24, 1, True, 60, 5), players=P3, sitting_out=None)
    result = outcome(rules, read.game)
    assert result.score == -24
    assert game_list_points(rules, P3, None, "Anna", result) == {
        "Anna": -24,
        "Bruno": 40,
        "Carla": 40,
    }
