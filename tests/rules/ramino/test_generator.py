"""Ramino 101: property tests from the generator of random valid matches."""

import random
from collections import Counter
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.ramino import ramino_101
from scoring.rules.ramino.document import score_match, score_season
from scoring.rules.ramino.generator import random_match
from scoring.rules.systems import get_system

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena"]


def generated(seed: int, n: int) -> dict:
    match = random_match(random.Random(seed), NAMES[:n], ramino_101())
    return {**match, "date": "2026-11-20"}


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), n=st.integers(2, 5))
def test_every_generated_match_is_valid_and_consistent(seed, n):
    rules = ramino_101()
    turno = generated(seed, n)
    out = score_match(rules, turno)
    players = turno["players"]
    assert sorted(out["places"].values()) == list(range(1, n + 1))
    assert out["places"][out["winner"]] == 1
    assert sum(out["league_points"].values()) == n * (n - 1) // 2
    assert all(out["league_points"][p] == n - out["places"][p] for p in players)
    reentries = Counter(r["player"] for r in out["reentries"])
    assert all(count <= rules.reentries_per_player for count in reentries.values())
    assert out["fees"] == {p: f"{Decimal('1.00') * reentries[p]:.2f}" for p in players}
    gone: list[str] = []
    for s in out["smazzate"]:
        assert s["dealer"] not in gone  # the dealer skips players out for good
        assert s["closer"] not in gone
        assert not set(s["points"]) & set(gone)
        for p in s["eliminated"]:
            assert s["totals"][p] >= rules.elimination
        for total in s["reentered"].values():
            still_in = [q for q in s["totals"] if q not in s["eliminated"]]
            assert total == max(s["totals"][q] for q in still_in)
        gone += s["out"]
    for p in gone:
        assert out["final_totals"][p] >= rules.elimination
    if not out["smazzate"][-1]["instant_win"]:
        assert len(set(players) - set(gone)) <= 1


def test_the_generator_covers_every_case():
    seen: Counter = Counter()
    for seed in range(300):
        turno = generated(seed, 2 + seed % 4)
        out = score_match(ramino_101(), turno)
        for hand, s in zip(turno["smazzate"], out["smazzate"], strict=True):
            seen[hand["close"]] += 1
            seen["reentry"] += len(s["reentered"])
            seen["out together"] += len(s["out"]) > 1
            seen["exactly 101"] += any(s["totals"][p] == 101 for p in s["eliminated"])
            seen["100 stays in"] += any(t == 100 for t in s["totals"].values())
        seen["tiebreak"] += bool(turno["tiebreak"])
    for case in ["NORMALE", "COLORE", "FIGURA", "DUE_CARTE", "SCALA_REALE", "POKERISSIMO",
                 "reentry", "out together", "exactly 101", "100 stays in", "tiebreak"]:  # fmt: skip
        assert seen[case] > 0, case


def test_a_generated_season_through_kingscore_and_the_system_agree():
    rng = random.Random(11)
    system = get_system("ramino-101")
    rules = system.rules()
    turni = []
    for day in range(1, 7):
        players = rng.sample(NAMES, rng.randint(2, 5))
        turni.append({**system.random_turno(rng, players, rules), "date": f"2026-11-{day:02d}"})
    doc = {"format": "kingclub/v1", "ruleset": "ramino-101", "roster": NAMES, "turni": turni}
    out = score_season(doc)
    assert out["classifica"] == system.standing(rules, NAMES, turni)
    total = sum(r["league_points"] for r in out["classifica"])
    assert total == sum(len(t["players"]) * (len(t["players"]) - 1) // 2 for t in turni)
