"""Property tests from the card-level generator: every generated turno validates smazzata by
smazzata against the order of play, the zero-sum variants balance at 0, matchpoints add up to
N(N − 1) and places agree with the totals; a broken count is always caught."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.problems import RuleViolation
from scoring.rules.systems import get_system

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
# (rule set, edits, table size)
TABLES = [
    ("king-classico", None, 4),
    ("king-classico", {"games": ["NJK", "N8D", "NH", "NU2", "DICH", "DOMINO"]}, 4),
    ("king-internazionale", None, 4),
    ("le-king", None, 4),
    ("le-king", None, 3),
    ("le-king", {"order": "NEGATIVES_FIRST"}, 4),
    ("le-king", {"order": "FREE"}, 4),
    ("le-king", {"order": "FREE"}, 3),
    ("le-king", {"with_nu2": False, "points": {"NKH": -10}}, 4),
    ("le-king", {"nu2_points": [-2, -3], "points": {"NKH": -5}, "order": "FREE"}, 4),
]
# the deal totals of the international King (§B.2)
DEAL_TOTAL = {"NF": -260, "NH": -260, "NQ": -200, "NJK": -240, "NKH": -160, "NU2": -180}

turni = st.builds(
    lambda table, seed, sale, penalty: (table, seed, sale, penalty),
    st.sampled_from(TABLES),
    st.integers(0, 2**32 - 1),
    st.sampled_from([0.0, 0.3, 1.0]),
    st.sampled_from([0.0, 0.5]),
)


def generate(table, seed, sale, penalty):
    code, edits, n = table
    system = get_system(code)
    rules = system.rules(edits)
    turno = system.random_turno(
        random.Random(seed),
        NAMES[:n],
        rules,
        date="2026-11-22",
        sale_chance=sale,
        penalty_chance=penalty,
    )
    return system, rules, turno


@settings(max_examples=60, deadline=None)
@given(turni)
def test_every_generated_turno_validates_step_by_step(args):
    system, rules, turno = generate(*args)
    scored = system.score_turno(rules, turno)
    for k, (record, out) in enumerate(zip(turno["smazzate"], scored["smazzate"], strict=True)):
        head = {**turno, "smazzate": turno["smazzate"][:k]}
        step = system.next_step(rules, head)
        assert step["number"] == k + 1 and not step["complete"]
        assert step["dealer"] == out["dealer"]
        assert record["game"] in step["games"]
        assert system.check_smazzata(rules, head, record) == []
        if record.get("sale"):
            assert step["seller"] == out["sale"]["seller"]
            assert record["sale"]["buyer"] in step["buyers"]
    assert system.next_step(rules, turno)["complete"] is True


@settings(max_examples=60, deadline=None)
@given(turni)
def test_totals_balance_places_and_matchpoints(args):
    system, rules, turno = generate(*args)
    out = system.score_turno(rules, turno)
    players = turno["players"]
    n = len(players)
    points = [s["points"] for s in out["smazzate"]]
    assert out["balance"] == sum(sum(p.values()) for p in points)
    for p in players:
        penalties = sum(x["points"] for x in turno["penalties"] if x["player"] == p)
        assert out["penalties"][p] == penalties
        assert out["totals"][p] == sum(pts[p] for pts in points) + penalties
        higher = sum(1 for q in players if out["totals"][q] > out["totals"][p])
        assert out["places"][p] == 1 + higher
    assert sum(out["matchpoints"].values()) == n * (n - 1)
    assert min(out["places"].values()) == 1
    if system.code == "king-internazionale":
        assert out["balance"] == 0
        for s in out["smazzate"]:
            assert sum(s["points"].values()) == DEAL_TOTAL.get(s["game"], 325)
    if system.code == "le-king":
        assert out["balance"] == (0 if n == 4 else -6)
    if system.code == "king-classico":
        # every deal of the programme at its fixed sum; blind tricks counted twice
        blind = sum(
            sm["result"][s["dealer"]]
            for sm, s in zip(turno["smazzate"], out["smazzate"], strict=True)
            if sm.get("blind")
        )
        per_game = {"NQ": -12, "NKH": -8, "NF": -13, "DOMINO": 0, "DICH": 13, "NJK": -16}
        per_game |= {"N8D": -8, "NH": -13, "NU2": -8}
        assert out["balance"] == 4 * sum(per_game[g] for g in rules["games"]) + blind


@settings(max_examples=40, deadline=None)
@given(turni, st.integers(0, 100), st.integers(0, 3))
def test_a_broken_count_is_always_caught(args, which, seat):
    system, rules, turno = generate(*args)
    played = [s for s in turno["smazzate"] if s.get("result")]
    record = played[which % len(played)]
    player = turno["players"][seat % len(turno["players"])]
    if record["game"] == "DOMINO":  # cards left have no sum: a loser with one more is valid
        player = next(p for p, left in record["result"].items() if left == 0)
    record["result"][player] += 1
    try:
        system.score_turno(rules, turno)
    except RuleViolation as exc:
        codes = {p.code for p in exc.problems}
        assert codes & {"COUNT_SUM", "COUNT_RANGE", "DOMINO_WINNER", "NU2_LAST"}, codes
    else:
        raise AssertionError("a broken count was accepted")


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(TABLES), st.integers(0, 2**32 - 1), st.sampled_from(["MATCHPOINTS", "POINTS"])
)
def test_season_standing_from_generated_turni(table, seed, standing):
    code, edits, n = table
    system = get_system(code)
    rules = system.rules({**(edits or {}), "standing": standing})
    rng = random.Random(seed)
    roster = [*NAMES, "Elena", "Franco"]
    docs = []
    for day in range(1, 4):
        players = rng.sample(roster, n)
        docs.append(system.random_turno(rng, players, rules, date=f"2026-12-0{day}"))
    rows = system.standing(rules, roster, docs)
    scored = [system.score_turno(rules, t) for t in docs]
    row = {r["player"]: r for r in rows}
    assert list(row) == sorted(row, key=lambda p: (row[p]["place"], -row[p]["wins"], p))
    assert sum(r["matchpoints"] for r in rows) == 3 * n * (n - 1)
    assert sum(r["turni"] for r in rows) == 3 * n
    assert sum(r["wins"] for r in rows) == sum(list(t["places"].values()).count(1) for t in scored)
    key = "points" if standing == "POINTS" else "matchpoints"
    for r in rows:
        assert r["place"] == 1 + sum(1 for q in rows if q[key] > r[key])
        if r["turni"] == 0:
            assert (r["matchpoints"], r["points"], r["wins"]) == (0, 0, 0)
