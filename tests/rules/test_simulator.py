"""Property tests of the card-level simulator, and through it of the scoring engine."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.play import Progress
from scoring.rules.caf.records import TurnoRecord
from scoring.rules.caf.ruleset import (
    COUNT_CARDS_LEFT,
    SUITS,
    RuleSet,
    default_ruleset_dict,
)
from scoring.rules.caf.simulator import (
    DOMINO_RANK,
    TRICK_RANK,
    deal,
    domino_playable,
    play_deal,
    play_domino,
    play_tricks,
    rank_of,
    simulate_turno,
    suit_of,
)
from scoring.rules.caf.turno import check_result

RULES = caf()
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina")
GAMES = tuple(RULES.games)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
sizes = st.integers(min_value=3, max_value=7)
fast = settings(max_examples=40, deadline=None)
slow = settings(max_examples=15, deadline=None)


def table(n: int) -> tuple[str, ...]:
    return NAMES[:n]


def trump_for(game: str, rng: random.Random) -> str | None:
    return rng.choice(SUITS) if RULES.games[game].trump else None


def maximum(game: str, n: int) -> int:
    return RULES.deck(n).count_of(RULES.games[game].counts)


def codes(problems) -> list[str]:
    return [p.code for p in problems]


# -- the deal ------------------------------------------------------------------------------------
@fast
@given(seeds, sizes)
def test_deal_splits_the_deck(seed: int, n: int) -> None:
    deck = RULES.deck(n)
    hands = deal(RULES, table(n), random.Random(seed))
    assert list(hands) == list(table(n))
    assert all(len(h) == deck.hand for h in hands.values())
    dealt = [c for h in hands.values() for c in h]
    assert sorted(dealt) == sorted(deck.cards)


# -- one smazzata --------------------------------------------------------------------------------
@fast
@given(seeds, sizes, st.sampled_from(GAMES))
def test_every_deal_is_a_valid_record(seed: int, n: int, game: str) -> None:
    rng = random.Random(seed)
    players = table(n)
    trump = trump_for(game, rng)
    result = play_deal(RULES, players, game, rng.choice(players), rng, trump)
    assert set(result) == set(players)
    assert check_result(RULES, players, game, result, trump) == []


@fast
@given(seeds, sizes, st.booleans())
def test_trick_play_is_legal(seed: int, n: int, with_trump: bool) -> None:
    rng = random.Random(seed)
    players = table(n)
    dealer = rng.choice(players)
    trump = rng.choice(SUITS) if with_trump else None
    hands = deal(RULES, players, rng)
    tricks = play_tricks(players, dealer, hands, rng, trump)
    held = {p: set(h) for p, h in hands.items()}
    assert len(tricks) == RULES.deck(n).hand
    leader = players[(players.index(dealer) + 1) % n]
    for trick in tricks:
        assert trick.leader == leader
        order = [p for p, _ in trick.plays]
        i = players.index(leader)
        assert order == [players[(i + k) % n] for k in range(n)]
        led = suit_of(trick.cards[0])
        for p, card in trick.plays:
            assert card in held[p]
            if suit_of(card) != led:  # may only discard when void in the led suit
                assert not any(suit_of(c) == led for c in held[p])
            held[p].discard(card)
        trumps = [(p, c) for p, c in trick.plays if suit_of(c) == trump]
        contenders = trumps or [(p, c) for p, c in trick.plays if suit_of(c) == led]
        best = max(contenders, key=lambda pc: TRICK_RANK[rank_of(pc[1])])
        assert trick.winner == best[0]
        leader = trick.winner
    assert all(not h for h in held.values())


@fast
@given(seeds, sizes)
def test_domino_play_is_legal(seed: int, n: int) -> None:
    rng = random.Random(seed)
    players = table(n)
    dealer = rng.choice(players)
    hands = deal(RULES, players, rng)
    game = play_domino(players, dealer, hands, rng)
    held = {p: set(h) for p, h in hands.items()}
    rows: dict[str, tuple[int, int]] = {}
    i = (players.index(dealer) + 1) % n
    for who, card in game.moves:
        assert who == players[i]
        playable = [c for c in held[who] if domino_playable(c, rows)]
        if card is None:
            assert playable == []
        else:
            assert card in playable
            held[who].remove(card)
            value = DOMINO_RANK[rank_of(card)]
            low, high = rows.get(suit_of(card), (value, value))
            rows[suit_of(card)] = (min(low, value), max(high, value))
        i = (i + 1) % n
    assert game.moves[-1][0] == game.winner and game.moves[-1][1] is not None
    assert dict(game.left) == {p: len(h) for p, h in held.items()}
    assert game.left[game.winner] == 0
    assert all(game.left[p] >= 1 for p in players if p != game.winner)
    for suit, (low, high) in rows.items():  # every row is a run through the 7
        assert low <= 7 <= high, suit


def test_domino_opens_with_a_seven_and_cannot_pass_a_missing_two() -> None:
    rows: dict[str, tuple[int, int]] = {}
    assert domino_playable("7D", rows)
    assert not domino_playable("8D", rows)
    rows["D"] = (3, 9)
    assert domino_playable("10D", rows) and not domino_playable("AD", rows)
    assert domino_playable("2D", rows)  # only when the deck holds it
    rows["D"] = (1, 13)
    assert not domino_playable("QD", rows)


def test_play_deal_rejects_a_bad_trump_or_game() -> None:
    rng = random.Random(1)
    players = table(4)
    with pytest.raises(ValueError):
        play_deal(RULES, players, "BRISCOLA", "Anna", rng)
    with pytest.raises(ValueError):
        play_deal(RULES, players, "BRISCOLA", "Anna", rng, "X")
    with pytest.raises(ValueError):
        play_deal(RULES, players, "SEMPLICE", "Anna", rng, "S")
    with pytest.raises(ValueError):
        play_deal(RULES, players, "POKER", "Anna", rng)
    with pytest.raises(ValueError):
        play_deal(RULES, players, "NJ", "Zeno", rng)


# -- statistics ----------------------------------------------------------------------------------
@fast
@given(seeds, sizes)
def test_queen_of_spades_goes_to_exactly_one_player(seed: int, n: int) -> None:
    rng = random.Random(seed)
    result = play_deal(RULES, table(n), "NQS", table(n)[0], rng)
    assert sorted(result.values()) == [0] * (n - 1) + [1]


@fast
@given(seeds)
def test_six_players_take_twelve_hearts(seed: int) -> None:
    rng = random.Random(seed)
    result = play_deal(RULES, table(6), "NH", table(6)[0], rng)
    assert sum(result.values()) == 12


def test_statistics_are_fair() -> None:
    rng = random.Random(20261120)
    players = table(4)
    queen = Counter()
    tricks = Counter()
    domino = Counter()
    deals = 2000
    for k in range(deals):
        dealer = players[k % 4]
        queen.update(p for p, c in play_deal(RULES, players, "NQS", dealer, rng).items() if c)
        tricks.update(play_deal(RULES, players, "NF", dealer, rng))
        domino.update(
            p for p, c in play_deal(RULES, players, "DOMINO", dealer, rng).items() if not c
        )
    assert sum(queen.values()) == deals and sum(domino.values()) == deals
    assert sum(tricks.values()) == 13 * deals
    for p in players:  # each player's share is near 1/4 (the tolerance is many sigmas wide)
        assert 0.18 < queen[p] / deals < 0.32
        assert 0.18 < domino[p] / deals < 0.32
        assert 2.9 < tricks[p] / deals < 3.6


# -- the turno -----------------------------------------------------------------------------------
@slow
@given(seeds, sizes)
def test_simulated_turno_scores_cleanly(seed: int, n: int) -> None:
    rng = random.Random(seed)
    players = table(n)
    record = simulate_turno(RULES, players, rng, date=dt.date(2026, 11, 20), penalty_chance=0.3)
    score = score_turno(RULES, record, require_complete=True)
    assert score.problems == ()
    assert score.complete
    assert score.places is not None and sorted(score.places.values()) == list(range(1, n + 1))
    assert score.ratios is not None and max(score.ratios.values()) == 1
    assert len(record.smazzate) == len(score.smazzate) == 7 + 3 * n
    for p in players:
        earned = sum(s.points[p] for s in score.smazzate)
        assert earned == score.totals[p] - score.penalties[p]
    assert sum(score.penalties.values()) == sum(pen.points for pen in record.penalties)
    dealer = record.first_dealer
    for sm, scored in zip(record.smazzate, score.smazzate, strict=True):
        assert scored.dealer == dealer
        assert (sm.trump in SUITS) if sm.game == "BRISCOLA" else sm.trump is None
        dealer = sm.caller
    order = score.order()
    assert all(score.totals[a] >= score.totals[b] for a, b in pairwise(order))
    assert record.tiebreak == () or set(record.tiebreak) == set(players)


@slow
@given(seeds, sizes)
def test_turno_is_deterministic(seed: int, n: int) -> None:
    first = simulate_turno(RULES, table(n), random.Random(seed))
    again = simulate_turno(RULES, table(n), random.Random(seed))
    assert first == again
    assert first.first_dealer in table(n)
    fixed = simulate_turno(RULES, table(n), random.Random(seed), first_dealer=table(n)[-1])
    assert fixed.first_dealer == table(n)[-1]


def test_calls_are_voluntary_and_forced() -> None:
    rng = random.Random(7)
    forced = voluntary = scazzate = 0
    for _ in range(20):
        score = score_turno(RULES, simulate_turno(RULES, table(4), rng))
        assert score.problems == ()
        forced += sum(s.forced for s in score.smazzate)
        voluntary += sum(not s.forced for s in score.smazzate)
        scazzate += sum(s.scazzata for s in score.smazzate)
    assert forced and voluntary and scazzate


@slow
@given(seeds, st.integers(min_value=3, max_value=5))
def test_any_rule_set(seed: int, n: int) -> None:
    """A smaller, renamed game list: the simulator reads the rule set, not the C.A.F. codes."""
    d = default_ruleset_dict()
    games = d["games"]
    d["games"] = {
        "NOJ": games["NJ"],
        "NOH": games["NH"],
        "UU": games["NU2"],
        "DOM": games["DOMINO"],
        "ATOUT": games["BRISCOLA"],
    }
    d["game_order"] = list(d["games"])
    rules = RuleSet.from_dict(d)
    record = simulate_turno(rules, table(n), random.Random(seed))
    score = score_turno(rules, record)
    assert score.problems == () and score.places is not None
    assert len(record.smazzate) == 3 + 2 * n
    assert all((s.trump is not None) == (s.game == "ATOUT") for s in record.smazzate)


# -- mutations are rejected ----------------------------------------------------------------------
def sample(seed: int, n: int) -> tuple[random.Random, TurnoRecord]:
    rng = random.Random(seed)
    return rng, simulate_turno(RULES, table(n), rng)


def with_result(record: TurnoRecord, i: int, result: dict) -> TurnoRecord:
    smazzate = list(record.smazzate)
    smazzate[i] = replace(smazzate[i], result=result)
    return replace(record, smazzate=tuple(smazzate))


def only_problem(record: TurnoRecord):
    score = score_turno(RULES, record)
    assert score.places is None
    assert len(score.problems) == 1, score.problems
    return score.problems[0]


@fast
@given(seeds, sizes)
def test_one_count_too_many(seed: int, n: int) -> None:
    rng, record = sample(seed, n)
    i = rng.choice([k for k, s in enumerate(record.smazzate) if s.game != "DOMINO"])
    sm = record.smazzate[i]
    p = rng.choice(table(n))
    result = dict(sm.result)
    result[p] += 1
    problem = only_problem(with_result(record, i, result))
    assert problem.smazzata == i + 1
    if result[p] > maximum(sm.game, n):
        assert (problem.code, problem.player) == ("COUNT_RANGE", p)
    else:
        assert problem.code == "COUNT_SUM"


@fast
@given(seeds, sizes, st.booleans())
def test_count_out_of_range(seed: int, n: int, above: bool) -> None:
    rng, record = sample(seed, n)
    i = rng.randrange(len(record.smazzate))
    sm = record.smazzate[i]
    p = rng.choice(table(n))
    result = dict(sm.result)
    result[p] = maximum(sm.game, n) + 1 if above else -1
    score = score_turno(RULES, with_result(record, i, result))
    assert score.places is None
    assert ("COUNT_RANGE", i + 1, p) in [(q.code, q.smazzata, q.player) for q in score.problems]
    assert set(codes(score.problems)) <= {"COUNT_RANGE", "DOMINO_WINNER"}
    if sm.game != "DOMINO" or sm.result[p] != 0:
        assert codes(score.problems) == ["COUNT_RANGE"]


@fast
@given(seeds, sizes, st.sampled_from(["3", 2.5, True, None]))
def test_count_not_integer(seed: int, n: int, value: object) -> None:
    rng, record = sample(seed, n)
    i = rng.randrange(len(record.smazzate))
    p = rng.choice(table(n))
    result = dict(record.smazzate[i].result)
    result[p] = value
    problem = only_problem(with_result(record, i, result))
    assert (problem.code, problem.smazzata, problem.player) == ("COUNT_NOT_INTEGER", i + 1, p)


@fast
@given(seeds, sizes)
def test_result_missing(seed: int, n: int) -> None:
    rng, record = sample(seed, n)
    i = rng.randrange(len(record.smazzate))
    p = rng.choice(table(n))
    result = dict(record.smazzate[i].result)
    del result[p]
    problem = only_problem(with_result(record, i, result))
    assert (problem.code, problem.smazzata, problem.player) == ("RESULT_MISSING", i + 1, p)


@fast
@given(seeds, sizes, st.booleans())
def test_domino_needs_exactly_one_winner(seed: int, n: int, two: bool) -> None:
    rng, record = sample(seed, n)
    i = rng.choice([k for k, s in enumerate(record.smazzate) if s.game == "DOMINO"])
    result = dict(record.smazzate[i].result)
    if two:
        result[rng.choice([p for p, c in result.items() if c])] = 0
    else:
        result[next(p for p, c in result.items() if c == 0)] = 1
    problem = only_problem(with_result(record, i, result))
    assert (problem.code, problem.smazzata) == ("DOMINO_WINNER", i + 1)


@fast
@given(seeds, sizes)
def test_negative_game_called_twice(seed: int, n: int) -> None:
    rng, record = sample(seed, n)
    negatives = len(RULES.negative_games)
    j = rng.randrange(1, negatives)
    earlier = record.smazzate[rng.randrange(j)]
    smazzate = list(record.smazzate)
    smazzate[j] = replace(earlier, caller=smazzate[j].caller)
    score = score_turno(RULES, replace(record, smazzate=tuple(smazzate)))
    first = score.problems[0]
    assert (first.code, first.smazzata, first.player) == (
        "GAME_ALREADY_PLAYED",
        j + 1,
        smazzate[j].caller,
    )
    assert score.places is None


@fast
@given(seeds, sizes)
def test_positive_game_before_the_negatives(seed: int, n: int) -> None:
    rng, record = sample(seed, n)
    negatives = len(RULES.negative_games)
    j = rng.randrange(negatives)
    k = rng.randrange(negatives, len(record.smazzate))
    smazzate = list(record.smazzate)
    smazzate[j], smazzate[k] = smazzate[k], smazzate[j]
    score = score_turno(RULES, replace(record, smazzate=tuple(smazzate)))
    first = score.problems[0]
    assert (first.code, first.smazzata, first.player) == ("GAME_PHASE", j + 1, smazzate[j].caller)
    assert all(p.code == "GAME_PHASE" for p in score.problems)
    assert score.places is None


@fast
@given(seeds, sizes, st.integers(min_value=1, max_value=30))
def test_truncated_turno(seed: int, n: int, cut: int) -> None:
    _, record = sample(seed, n)
    short = replace(record, smazzate=record.smazzate[: -min(cut, len(record.smazzate))])
    score = score_turno(RULES, short)
    assert codes(score.problems) == ["TURNO_INCOMPLETE"]
    assert not score.complete and score.places is None
    live = score_turno(RULES, short, require_complete=False)
    assert live.problems == () and not live.complete and live.places is None
    progress = Progress.after(
        RULES, short.players, short.first_dealer, ((s.game, s.caller) for s in short.smazzate)
    )
    assert progress.left == len(record.smazzate) - len(short.smazzate)


@fast
@given(seeds, sizes)
def test_briscola_without_trump(seed: int, n: int) -> None:
    rng, record = sample(seed, n)
    i = rng.choice([k for k, s in enumerate(record.smazzate) if s.game == "BRISCOLA"])
    smazzate = list(record.smazzate)
    smazzate[i] = replace(smazzate[i], trump=None)
    problem = only_problem(replace(record, smazzate=tuple(smazzate)))
    assert (problem.code, problem.smazzata, problem.field) == ("TRUMP_MISSING", i + 1, "trump")


@fast
@given(seeds, sizes)
def test_trump_on_a_game_without_one(seed: int, n: int) -> None:
    rng, record = sample(seed, n)
    i = rng.choice([k for k, s in enumerate(record.smazzate) if s.game != "BRISCOLA"])
    smazzate = list(record.smazzate)
    smazzate[i] = replace(smazzate[i], trump="S")
    problem = only_problem(replace(record, smazzate=tuple(smazzate)))
    assert (problem.code, problem.smazzata) == ("TRUMP_UNEXPECTED", i + 1)


@fast
@given(seeds, sizes)
def test_check_result_mutations_directly(seed: int, n: int) -> None:
    """The same mutations through check_result, for every game of one deal each."""
    rng = random.Random(seed)
    players = table(n)
    for game in GAMES:
        trump = trump_for(game, rng)
        result = play_deal(RULES, players, game, rng.choice(players), rng, trump)
        p = rng.choice(players)
        high = {**result, p: maximum(game, n) + 1}
        assert ("COUNT_RANGE", p) in [
            (q.code, q.player) for q in check_result(RULES, players, game, high, trump, number=3)
        ]
        low = {**result, p: -1}
        assert all(q.smazzata == 3 for q in check_result(RULES, players, game, low, trump, 3))
        assert "COUNT_RANGE" in codes(check_result(RULES, players, game, low, trump))
        if RULES.games[game].counts != COUNT_CARDS_LEFT:
            moved = dict(result)
            donor = next(q for q in players if moved[q] > 0)
            moved[donor] -= 1
            moved[p] += 1
            assert check_result(RULES, players, game, moved, trump) == []
