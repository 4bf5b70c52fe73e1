"""The two Skat rule-set options where the references read differently (issue 25), each setting
scored by hand in the comment beside it:

- ``missed_announcement``: a game lost with its announced schneider or schwarz missed counts
  double (``double``, the default: SPEC-skat §6.4 "every lost game counts double", §13's
  preisskat.org row −384) or once (``single``);
- ``null_below_bid``: a Null announced below the bid is refused (``invalid``, the default:
  SPEC-skat §6.3 and §11 ``NULL_BID``) or recorded as an overbid, lost at −2 × its fixed value
  whatever the tricks (``overbid``: JSkat ``NullRuleTest.testOverbid``, −46).
"""

from __future__ import annotations

import pytest

from scoring.rules import RuleViolation
from scoring.rules.skat import game_list_points, outcome, read_game, skat_rules
from scoring.rules.skat.lista import score_list

P3 = ["Anna", "Bruno", "Carla"]
P4 = ["Anna", "Bruno", "Carla", "Dario"]
DOUBLE = skat_rules()
SINGLE = skat_rules({"missed_announcement": "single"})
INVALID = skat_rules()
OVERBID = skat_rules({"null_below_bid": "overbid"})


def scored(rules, record, players=P3, sitting_out=None):
    read = read_game(rules, record, players=players, sitting_out=sitting_out, number=1)
    assert read.problems == []
    result = outcome(rules, read.game)
    return result, game_list_points(rules, players, sitting_out, "Anna", result)


def suit(game, bid, matadors, points, tricks, **flags):
    return {
        "declarer": "Anna",
        "game": game,
        "bid": bid,
        "matadors": matadors,
        "with": True,
        "declarer_points": points,
        "declarer_tricks": tricks,
        **flags,
    }


SCHNEIDER = {"hand": True, "schneider_announced": True}
SCHWARZ = {"hand": True, "schneider_announced": True, "schwarz_announced": True}

# (record, score with "double", list points with "double", score with "single", with "single")
MISSED = [
    # preisskat.org: Grand hand with 4, schneider announced, declarer 89 (opponents 31):
    # (4 + game + hand + schneider + announced) = 8 × 24 = 192; double −384, −384 − 50 = −434;
    # single −192, −192 − 50 = −242
    (suit("GRAND", 72, 4, 89, 7, **SCHNEIDER), -384, -434, -192, -242),
    # Clubs hand with 1, schwarz announced, 95 card points but 9 tricks: (1 + game + hand +
    # schneider (90+) + announced + schwarz (announced) + announced) = 7 × 12 = 84;
    # double −168, −218; single −84, −134
    (suit("CLUBS", 24, 1, 95, 9, **SCHWARZ), -168, -218, -84, -134),
    # Grand hand with 4, schneider announced, only 50 card points: the announcement is missed
    # too: 8 × 24 = 192; double −384, −434; single −192, −242
    (suit("GRAND", 72, 4, 50, 4, **SCHNEIDER), -384, -434, -192, -242),
    # no announcement: Clubs with 1, 60 card points, lost: 2 × 12 = 24, −48, −98 either way
    (suit("CLUBS", 24, 1, 60, 5), -48, -98, -48, -98),
    # announcement reached: Clubs hand with 1, schneider announced, 90: 5 × 12 = 60 won, +110
    (suit("CLUBS", 24, 1, 90, 8, **SCHNEIDER), 60, 110, 60, 110),
    # overbid with an announcement missed: Spades hand with 1, schneider announced, bid 72,
    # 70 card points: (1 + 1 + 1 + 1 + 1) × 11 = 55 < 72, overbid, ⌈72/11⌉ = 7 × 11 = 77;
    # an overbid is charged as such whatever the option: −154, −204
    (suit("SPADES", 72, 1, 70, 6, **SCHNEIDER), -154, -204, -154, -204),
]


@pytest.mark.parametrize(("record", "double", "double_list", "single", "single_list"), MISSED)
def test_a_game_lost_with_its_announcement_missed_counts_as_the_rule_set_says(
    record, double, double_list, single, single_list
):
    result, points = scored(DOUBLE, record)
    assert (result.score, points["Anna"]) == (double, double_list)
    result, points = scored(SINGLE, record)
    assert (result.score, points["Anna"]) == (single, single_list)
    # the opponents get their 40 whether the game counts double or once
    others = 40 if single < 0 else 0
    assert (points["Bruno"], points["Carla"]) == (others, others)


def test_the_default_is_the_specs_every_lost_game_counts_double():
    assert DOUBLE.missed_announcement == "double"
    assert DOUBLE.to_dict()["missed_announcement"] == "double"
    assert SINGLE.to_dict()["missed_announcement"] == "single"


NULL_24 = {"declarer": "Anna", "game": "NULL", "bid": 24, "declarer_tricks": 0}
NULL_OUVERT_48 = {**NULL_24, "bid": 48, "ouvert": True}


def test_a_null_below_the_bid_is_refused_by_default():
    assert INVALID.null_below_bid == "invalid"
    for record in (NULL_24, NULL_OUVERT_48):
        read = read_game(INVALID, record, players=P3, sitting_out=None, number=1)
        assert [p.code for p in read.problems] == ["NULL_BID"]


@pytest.mark.parametrize(
    ("record", "value", "score", "declarer", "others"),
    [
        # JSkat NullRuleTest.testOverbid: Null (23) at a bid of 24, no trick taken: overbid,
        # lost −2 × 23 = −46; list −46 − 50 = −96, the opponents +40
        (NULL_24, 23, -46, -96, 40),
        # the example: Null ouvert (46) at a bid of 48, no trick: −2 × 46 = −92;
        # list −92 − 50 = −142
        (NULL_OUVERT_48, 46, -92, -142, 40),
        # lost on the tricks as well: the same −92 (the game is lost once)
        ({**NULL_OUVERT_48, "declarer_tricks": 1}, 46, -92, -142, 40),
        # a Null reaching its bid is untouched: Null hand (35) at 35, won: +35, +85
        ({**NULL_24, "bid": 35, "hand": True}, 35, 35, 85, 0),
    ],
)
def test_a_null_below_the_bid_as_an_overbid(record, value, score, declarer, others):
    result, points = scored(OVERBID, record)
    assert (result.multiplier, result.value, result.score) == (None, value, score)
    assert result.overbid is (record["bid"] > value)
    assert result.won is (score > 0)
    assert points == {"Anna": declarer, "Bruno": others, "Carla": others}


def test_a_null_overbid_at_four_gives_30_to_the_sitting_out_dealer_too():
    # Null (23) at 24 while Dario deals: −46 − 50 = −96 for Anna, +30 for each of the others
    _, points = scored(OVERBID, NULL_24, players=P4, sitting_out="Dario")
    assert points == {"Anna": -96, "Bruno": 30, "Carla": 30, "Dario": 30}


def test_a_list_with_a_null_overbid_adds_up():
    # a 36-game list: game 1 Anna's Null at 24 (−96 / +40 / +40), 35 games passed in
    games = [NULL_24] + [{"passed": True}] * 35
    turno = {"date": "2026-11-20", "number": 1, "players": P3, "first_dealer": "Carla"}
    out = score_list(OVERBID, {**turno, "smazzate": games, "tiebreak": ["Bruno", "Carla"]})
    assert out["totals"] == {"Anna": -96, "Bruno": 40, "Carla": 40}
    assert out["smazzate"][0]["overbid"] is True and out["smazzate"][0]["score"] == -46
    with pytest.raises(RuleViolation) as exc:
        score_list(INVALID, {**turno, "smazzate": games, "tiebreak": ["Bruno", "Carla"]})
    assert [p.code for p in exc.value.problems] == ["NULL_BID"]


@pytest.mark.parametrize(
    ("edits", "key"),
    [
        ({"missed_announcement": "triple"}, "missed_announcement"),
        ({"missed_announcement": True}, "missed_announcement"),
        ({"null_below_bid": "refuse"}, "null_below_bid"),
    ],
)
def test_a_bad_option_is_refused_naming_its_key(edits, key):
    with pytest.raises(RuleViolation) as exc:
        skat_rules(edits)
    assert [(p.code, p.field) for p in exc.value.problems] == [("RULES", key)]
