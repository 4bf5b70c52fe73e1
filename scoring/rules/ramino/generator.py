"""Random valid Ramino 101 matches, for property tests and the demo club.

It draws what a segretario records (who closed and how, the points left in hand, who re-enters)
with every case of the SPEC: each kind of close, eliminations, re-entries, totals landing on the
threshold exactly, instant wins, several players out in one smazzata, ties settled by a draw.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .match import MatchState, check_hand, places, play_hand
from .rules import RaminoRules

MAX_HANDS = 400


def _penalty(rng: random.Random, rules: RaminoRules, total: int) -> int:
    roll = rng.random()
    if roll < 0.08:  # land exactly on the threshold, or one below it
        target = rules.elimination - total - rng.choice((0, 1))
        if 0 <= target <= rules.max_penalty:
            return target
    if roll < 0.12:
        return 0
    if roll < 0.16:
        return rng.randint(0, rules.max_penalty)
    return min(rules.max_penalty, int(rng.triangular(0, 80, 25)))


def _close(rng: random.Random, rules: RaminoRules, hands: int) -> str:
    weighted = [("NORMALE", 60), ("COLORE", 8), ("FIGURA", 4), (rules.two_card_close, 14)]
    weighted += [(c, 1) for c in rules.instant_wins]
    codes = [
        c
        for c, _ in weighted
        if c in rules.close_values or c == rules.two_card_close or c in rules.instant_wins
    ]
    weights = [w for c, w in weighted if c in codes]
    if hands >= MAX_HANDS and rules.instant_wins:
        return rules.instant_wins[0]
    return rng.choices(codes, weights)[0]


def random_hand(rng: random.Random, rules: RaminoRules, state: MatchState) -> dict[str, Any]:
    """One valid smazzata for ``state`` (re-entries decided at random among the eligible)."""
    active = state.active
    closer = rng.choice(active)
    close = _close(rng, rules, state.played)
    hand: dict[str, Any] = {"closer": closer, "close": close}
    if close in rules.instant_wins:
        return hand
    hand["penalties"] = {p: _penalty(rng, rules, state.totals[p]) for p in active if p != closer}
    if close == rules.two_card_close:
        hand["closer_points"] = rng.randint(rules.two_card_min, rules.two_card_max)
    candidates = [
        p
        for p in active
        if state.reentries.get(p, 0) < rules.reentries_per_player and rng.random() < 0.7
    ]
    # keep only the re-entries the rules allow (eliminated now, someone still in)
    hand["reentries"] = [
        p for p in candidates if not check_hand(rules, state, {**hand, "reentries": [p]})
    ]
    if not hand["reentries"]:
        del hand["reentries"]
    return hand


def random_match(
    rng: random.Random, players: Sequence[str], rules: RaminoRules, first_dealer: str | None = None
) -> dict[str, Any]:
    """A complete, valid match record (the date is the caller's to set)."""
    players = list(players)
    first = first_dealer or rng.choice(players)
    state = MatchState.start(players, first)
    hands: list[dict[str, Any]] = []
    while not state.over:
        hand = random_hand(rng, rules, state)
        problems = check_hand(rules, state, hand)
        assert not problems, problems
        play_hand(rules, state, hand)
        hands.append(hand)
    tiebreak = list(players)
    rng.shuffle(tiebreak)
    _, unsettled = places(state, [])
    return {
        "number": 1,
        "players": players,
        "first_dealer": first,
        "smazzate": hands,
        "tiebreak": tiebreak if unsettled else [],
    }
