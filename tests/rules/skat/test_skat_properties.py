"""Property tests from the generator of random valid lists (dealt card by card)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.rules.skat import (
    check_game,
    random_list,
    score_document,
    score_list,
    skat_rules,
)
from scoring.rules.skat.generator import DECK, matadors_of

R = skat_rules()
NAMES = ["Anna", "Bruno", "Carla", "Dario"]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def generated(seed: int, n: int) -> dict:
    return random_list(random.Random(seed), R, NAMES[:n], date="2026-11-20")


@SETTINGS
@given(seed=st.integers(0, 2**32), n=st.sampled_from([3, 4]))
def test_every_generated_list_validates_game_by_game(seed, n):
    t = generated(seed, n)
    assert len(t["smazzate"]) == (36 if n == 3 else 48)
    for k, record in enumerate(t["smazzate"]):
        assert check_game(R, {**t, "smazzate": t["smazzate"][:k]}, record) == []
    score_list(R, t)  # complete, ties settled: no RuleViolation


@SETTINGS
@given(seed=st.integers(0, 2**32), n=st.sampled_from([3, 4]))
def test_won_games_reach_the_bid_and_overbids_are_charged_the_least_multiple(seed, n):
    t = generated(seed, n)
    scored = score_list(R, t)
    for record, row in zip(t["smazzate"], scored["smazzate"], strict=True):
        if row["passed"]:
            assert (row["value"], row["score"], set(row["points"].values())) == (0, 0, {0})
            continue
        bid = record["bid"]
        if row["won"]:
            assert row["score"] == row["value"] >= bid
        else:
            assert row["score"] == -2 * row["value"]
        if row["game"] == "NULL":
            assert row["multiplier"] is None and not row["overbid"]
            assert row["value"] in (23, 35, 46, 59) and row["value"] >= bid
            continue
        base = R.base_values[row["game"]]
        assert row["value"] == base * row["multiplier"]
        if row["overbid"]:
            assert not row["won"]
            assert row["value"] >= bid > row["value"] - base  # the least multiple reaching it
        else:
            assert row["value"] >= bid


@SETTINGS
@given(seed=st.integers(0, 2**32), n=st.sampled_from([3, 4]))
def test_the_list_points_of_a_table_sum_to_what_the_games_imply(seed, n):
    t = generated(seed, n)
    s = score_list(R, t)
    bonus = 40 if n == 3 else 30
    implied = 0
    for row in s["smazzate"]:
        if row["passed"]:
            continue
        if row["won"]:
            implied += row["score"] + 50
        else:  # the declarer's −2v − 50, and the bonus to every other player at the table
            implied += row["score"] - 50 + bonus * (n - 1)
        assert sum(row["points"].values()) == (
            row["score"] + 50 if row["won"] else row["score"] - 50 + bonus * (n - 1)
        )
    assert sum(s["totals"].values()) == implied + sum(s["penalties"].values())
    for p in t["players"]:
        assert s["totals"][p] == (
            s["game_points"][p]
            + 50 * s["won"][p]
            - 50 * s["lost"][p]
            + bonus * s["opponents_lost"][p]
            + s["penalties"][p]
        )
    lost_games = sum(s["lost"].values())
    assert sum(s["opponents_lost"].values()) == (n - 1) * lost_games


@SETTINGS
@given(seed=st.integers(0, 2**32), n=st.sampled_from([3, 4]))
def test_places_follow_points_then_won_then_fewer_lost(seed, n):
    s = score_list(R, generated(seed, n))
    order = sorted(s["places"], key=lambda p: s["places"][p])
    assert sorted(s["places"].values()) == list(range(1, n + 1))
    keys = [(s["totals"][p], s["won"][p], -s["lost"][p]) for p in order]
    assert keys == sorted(keys, reverse=True)


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_a_season_of_generated_lists_scores_and_its_standing_adds_up(seed):
    rng = random.Random(seed)
    turni = [
        random_list(rng, R, rng.sample(NAMES, n), date=f"2026-11-{day:02d}")
        for day, n in [(6, 3), (13, 4), (20, 3)]
    ]
    out = score_document(
        {"format": "kingclub/v1", "ruleset": "skat-isko", "roster": NAMES, "turni": turni}
    )
    for row in out["classifica"]:
        p = row["player"]
        assert row["list_points"] == sum(t["totals"].get(p, 0) for t in out["turni"])
        assert row["turni"] == sum(p in t["totals"] for t in out["turni"])


def test_the_generator_covers_every_case():
    seen: Counter = Counter()
    rng = random.Random(2026)
    for i in range(40):
        n = 3 + i % 2
        t = random_list(rng, R, NAMES[:n], date="2026-11-20")
        s = score_list(R, t)
        seen["table", n] += 1
        seen["penalty"] += bool(t["penalties"])
        seen["tiebreak"] += bool(t["tiebreak"])
        for record, row in zip(t["smazzate"], s["smazzate"], strict=True):
            if row["passed"]:
                seen["passed"] += 1
                continue
            seen[row["game"]] += 1
            seen["won" if row["won"] else "lost"] += 1
            seen["overbid"] += row["overbid"]
            for flag in ("hand", "ouvert", "schneider_announced", "schwarz_announced"):
                seen[row["game"] == "NULL", flag] += bool(record.get(flag))
            if row["game"] != "NULL":
                points, tricks = record["declarer_points"], record["declarer_tricks"]
                seen["schneider made"] += points >= 90
                seen["declarer schneider"] += points <= 30
                seen["schwarz made"] += tricks == 10
                seen["declarer schwarz"] += tricks == 0
                seen["without"] += record["with"] is False
                seen["won schwarz announced"] += bool(
                    row["won"] and record.get("schwarz_announced")
                )
                seen["ouvert won"] += bool(row["won"] and record.get("ouvert"))
    wanted = [
        ("table", 3), ("table", 4), "penalty", "tiebreak", "passed", "won", "lost", "overbid",
        "DIAMONDS", "HEARTS", "SPADES", "CLUBS", "GRAND", "NULL",
        (False, "hand"), (False, "ouvert"), (False, "schneider_announced"),
        (False, "schwarz_announced"), (True, "hand"), (True, "ouvert"),
        "schneider made", "declarer schneider", "schwarz made", "declarer schwarz", "without",
        "won schwarz announced", "ouvert won",
    ]  # fmt: skip
    assert [w for w in wanted if not seen[w]] == []


def test_matadors_are_counted_from_the_cards():
    jacks = [("CLUBS", "J"), ("SPADES", "J"), ("HEARTS", "J"), ("DIAMONDS", "J")]
    assert matadors_of([*jacks, ("HEARTS", "A"), ("HEARTS", "10")], "HEARTS") == (6, True)
    assert matadors_of([*jacks, ("HEARTS", "A")], "GRAND") == (4, True)
    assert matadors_of([jacks[0], jacks[2]], "CLUBS") == (1, True)
    assert matadors_of([jacks[3], ("CLUBS", "A")], "CLUBS") == (3, False)  # without 3
    assert matadors_of([], "GRAND") == (4, False)
    hearts = [c for c in DECK if c[0] == "HEARTS" and c[1] != "J"]
    assert matadors_of([*jacks, *hearts], "HEARTS") == (11, True)
    assert matadors_of([("SPADES", "7")], "HEARTS") == (11, False)
