"""Order of play (SPEC §3): dealers, calling order, callable games, phases, forced calls."""

from __future__ import annotations

import pytest

from scoring.rules.caf.play import Progress, dealers
from scoring.rules.caf.ruleset import caf

RULES = caf()
FOUR = ("Anna", "Bruno", "Carla", "Dario")
NEG = ("NJ", "NK", "NJK", "NQS", "NH", "NU2", "NF")
POS = ("DOMINO", "SEMPLICE", "BRISCOLA")

# the seven negative games, none forced (the caller is never the dealer):
# 1 dealer Anna -> Bruno, 2 dealer Bruno -> Carla, 3 Carla -> Dario, 4 Dario -> Anna,
# 5 Anna -> Bruno, 6 Bruno -> Carla, 7 Carla -> Dario; the first positive dealer is Dario
NEGATIVE_CALLS = [
    ("NJ", "Bruno"),
    ("NK", "Carla"),
    ("NJK", "Dario"),
    ("NQS", "Anna"),
    ("NH", "Bruno"),
    ("NU2", "Carla"),
    ("NF", "Dario"),
]


def progress(calls=(), players=FOUR, first_dealer="Anna"):
    return Progress.after(RULES, players, first_dealer, calls)


def codes(check):
    return [p.code for p in check.problems]


def test_full_order_and_calling_order():
    p = progress()
    assert p.dealer == "Anna"
    # counterclockwise = the stored order; the player after the dealer first, the dealer last
    assert p.full_order() == ("Bruno", "Carla", "Dario", "Anna")
    assert p.calling_order() == ("Bruno", "Carla", "Dario", "Anna")
    p = progress(first_dealer="Carla")
    assert p.full_order() == ("Dario", "Anna", "Bruno", "Carla")
    p = progress(first_dealer="Dario")
    assert p.full_order() == ("Anna", "Bruno", "Carla", "Dario")
    assert p.seat_after("Dario") == "Anna"


def test_dealer_is_the_previous_caller():
    calls = [*NEGATIVE_CALLS, ("DOMINO", "Bruno"), ("SEMPLICE", "Bruno"), ("DOMINO", "Anna")]
    p = Progress(RULES, FOUR, "Anna")
    seen = []
    for game, caller in calls:
        seen.append(p.dealer)
        assert p.advance(game, caller).problems == ()
    assert seen == [
        "Anna",  # first dealer, drawn
        "Bruno",
        "Carla",
        "Dario",
        "Anna",
        "Bruno",
        "Carla",
        "Dario",  # caller of smazzata 7
        "Bruno",  # caller of smazzata 8 (Bruno deals after calling)
        "Bruno",  # Bruno called again: deals again
    ]
    assert p.dealer == "Anna"
    callers = [c for _, c in calls]
    assert dealers(FOUR, "Anna", callers) == seen
    assert dealers(FOUR, "Anna", []) == []


def test_callable_games_negative_phase():
    p = progress()
    assert p.phase == "negative"
    for player in FOUR:
        assert p.callable_games(player) == NEG  # any unplayed negative game, no positive one
    p = progress(NEGATIVE_CALLS[:3])
    for player in FOUR:
        assert p.callable_games(player) == ("NQS", "NH", "NU2", "NF")
    p = progress(NEGATIVE_CALLS[:6])
    assert p.callable_games("Anna") == ("NF",)
    assert p.phase == "negative"
    assert p.callable_games("Zeno") == ()


def test_callable_games_positive_phase():
    p = progress(NEGATIVE_CALLS)
    assert p.phase == "positive"
    for player in FOUR:
        assert p.callable_games(player) == POS
    p = progress([*NEGATIVE_CALLS, ("SEMPLICE", "Anna"), ("DOMINO", "Anna"), ("DOMINO", "Carla")])
    assert p.callable_games("Anna") == ("BRISCOLA",)
    assert p.callable_games("Bruno") == POS  # a game called by Anna is still Bruno's to call
    assert p.callable_games("Carla") == ("SEMPLICE", "BRISCOLA")
    assert p.remaining_games("Carla") == ("SEMPLICE", "BRISCOLA")
    p = progress([*NEGATIVE_CALLS, ("SEMPLICE", "Anna"), ("DOMINO", "Anna"), ("BRISCOLA", "Anna")])
    assert p.callable_games("Anna") == ()
    # Anna has nothing left: she is skipped in the calling order (dealer Anna, last)
    assert p.calling_order() == ("Bruno", "Carla", "Dario")


@pytest.mark.parametrize("played", [0, 1, 6])
@pytest.mark.parametrize("game", POS)
def test_no_positive_game_before_all_negative_ones(played, game):
    p = progress(NEGATIVE_CALLS[:played])
    check = p.check(game, "Carla")
    assert codes(check) == ["GAME_PHASE"]
    assert check.problems[0].smazzata == played + 1
    assert check.problems[0].player == "Carla"
    assert check.forced is False
    # the message names the negative games still to play, in the order of SPEC §2
    left = ", ".join(g for g, _ in NEGATIVE_CALLS[played:])
    assert check.problems[0].message.endswith(
        f"non si può chiamare finché restano giochi alla meno da giocare ({left})"
    )


@pytest.mark.parametrize("i", range(7))
def test_negative_game_twice(i):
    game = NEGATIVE_CALLS[i][0]
    p = progress(NEGATIVE_CALLS[: i + 1])
    check = p.check(game, "Anna")
    assert codes(check) == ["GAME_ALREADY_PLAYED"]
    assert (check.problems[0].smazzata, check.problems[0].player) == (i + 2, "Anna")
    # after the whole negative phase a negative game is still "already played"
    assert codes(progress(NEGATIVE_CALLS).check(game, "Anna")) == ["GAME_ALREADY_PLAYED"]


@pytest.mark.parametrize("game", POS)
def test_positive_game_twice_by_the_same_player(game):
    p = progress([*NEGATIVE_CALLS, (game, "Bruno")])
    check = p.check(game, "Bruno")
    assert codes(check) == ["GAME_ALREADY_CALLED"]
    assert (check.problems[0].smazzata, check.problems[0].player) == (9, "Bruno")
    for other in ("Anna", "Carla", "Dario"):
        assert p.check(game, other).problems == ()


def test_unknown_game_and_caller():
    p = progress()
    assert codes(p.check("N8D", "Anna")) == ["GAME_UNKNOWN"]
    assert codes(p.check("NJ", "Zeno")) == ["CALLER_UNKNOWN"]


def test_a_refused_call_is_never_forced():
    # SPEC §3.3: only a chiamante's call is forced. Anna deals: her NJ would be forced (the
    # negative phase), but an unknown game, a game already played or a caller who is not at
    # the table is no call at all
    p = progress()
    assert p.check("NJ", "Anna").forced is True
    refused = [p.check("N8D", "Anna"), p.check("NJ", "Zeno")]
    refused.append(progress(NEGATIVE_CALLS[:3]).check("NJ", "Dario"))  # Dario deals the 4th
    assert [(codes(c), c.forced) for c in refused] == [
        (["GAME_UNKNOWN"], False),
        (["CALLER_UNKNOWN"], False),
        (["GAME_ALREADY_PLAYED"], False),
    ]
    assert progress(NEGATIVE_CALLS[:3]).check("NQS", "Dario").forced is True


def test_forced_in_the_negative_phase_iff_the_caller_deals():
    p = progress()  # dealer Anna
    assert [p.check("NJ", who).forced for who in FOUR] == [True, False, False, False]
    assert p.is_forced("Anna") is True
    p = progress(NEGATIVE_CALLS[:6])  # dealer Carla, one negative game left
    assert [p.check("NF", who).forced for who in FOUR] == [False, False, True, False]
    # Carla deals and calls NJ forced: smazzata 1 and 2
    p = Progress(RULES, FOUR, "Carla")
    assert p.advance("NJ", "Carla").forced is True
    assert p.dealer == "Carla"
    assert p.advance("NK", "Carla").forced is True
    assert p.advance("NJK", "Dario").forced is False


def test_forced_in_the_positive_phase():
    # start of the positive phase, dealer Dario: order Anna, Bruno, Carla, Dario
    p = progress(NEGATIVE_CALLS)
    assert p.dealer == "Dario"
    # everyone has three games left: only the dealer's own call is forced
    assert [p.is_forced(who) for who in FOUR] == [False, False, False, True]
    calls = [
        *NEGATIVE_CALLS,
        ("DOMINO", "Carla"),
        ("SEMPLICE", "Carla"),
        ("DOMINO", "Dario"),
        ("DOMINO", "Anna"),
        ("SEMPLICE", "Anna"),
        ("BRISCOLA", "Anna"),
        ("DOMINO", "Bruno"),
        ("SEMPLICE", "Bruno"),
        ("BRISCOLA", "Bruno"),
    ]
    p = progress(calls)
    # dealer Bruno; order Carla, Dario, Anna, Bruno; left: Carla BRISCOLA, Dario SEMPLICE+BRISCOLA
    assert p.dealer == "Bruno"
    assert p.full_order() == ("Carla", "Dario", "Anna", "Bruno")
    assert p.calling_order() == ("Carla", "Dario")
    # Carla: Dario after her still has games -> voluntary
    assert p.check("BRISCOLA", "Carla").forced is False
    # Dario: after him Anna and Bruno (the dealer) have nothing left -> forced, though not dealer
    assert p.check("SEMPLICE", "Dario").forced is True
    assert p.left == 3
    p.advance("SEMPLICE", "Dario")
    # dealer Dario; order Anna, Bruno, Carla, Dario: Carla's call is voluntary (Dario has one)
    assert p.calling_order() == ("Carla", "Dario")
    assert p.check("BRISCOLA", "Carla").forced is False
    assert p.check("BRISCOLA", "Dario").forced is True  # the dealer
    p.advance("BRISCOLA", "Carla")
    # dealer Carla; only Dario is left: his last call is forced
    assert p.calling_order() == ("Dario",)
    assert p.advance("BRISCOLA", "Dario").forced is True
    assert p.complete


def test_forced_positive_after_the_caller_nothing_but_before_yes():
    # dealer Anna, order Bruno, Carla, Dario, Anna. Carla and Dario and Anna are done,
    # Bruno has one game: Bruno's call is forced
    calls = [
        *NEGATIVE_CALLS,  # dealer Dario
        ("DOMINO", "Carla"),
        ("SEMPLICE", "Carla"),
        ("BRISCOLA", "Carla"),
        ("DOMINO", "Dario"),
        ("SEMPLICE", "Dario"),
        ("BRISCOLA", "Dario"),
        ("DOMINO", "Bruno"),
        ("SEMPLICE", "Bruno"),
        ("DOMINO", "Anna"),
        ("SEMPLICE", "Anna"),
        ("BRISCOLA", "Anna"),
    ]
    p = progress(calls)
    assert p.dealer == "Anna"
    assert p.calling_order() == ("Bruno",)
    assert p.check("BRISCOLA", "Bruno").forced is True
    # the same with Bruno still holding two games and the dealer Anna with one
    calls = [
        *NEGATIVE_CALLS,
        ("DOMINO", "Carla"),
        ("SEMPLICE", "Carla"),
        ("BRISCOLA", "Carla"),
        ("DOMINO", "Dario"),
        ("SEMPLICE", "Dario"),
        ("BRISCOLA", "Dario"),
        ("DOMINO", "Bruno"),
        ("DOMINO", "Anna"),
        ("SEMPLICE", "Anna"),
    ]
    p = progress(calls)
    assert p.dealer == "Anna"
    assert p.calling_order() == ("Bruno", "Anna")
    assert p.check("BRISCOLA", "Bruno").forced is False  # Anna, the dealer, still has BRISCOLA
    assert p.check("BRISCOLA", "Anna").forced is True


@pytest.mark.parametrize(("n", "total"), [(3, 16), (4, 19), (5, 22), (6, 25), (7, 28)])
def test_smazzate_left_and_complete(n, total):
    seats = tuple(f"P{i}" for i in range(1, n + 1))
    p = Progress(RULES, seats, "P1")
    assert (p.total, p.left, p.number, p.complete) == (total, total, 1, False)
    # the calls: every negative game by the player after the dealer, then each player's
    # three positive games, player by player
    calls = []
    dealer = "P1"
    for game in NEG:
        caller = p.seat_after(dealer)
        calls.append((game, caller))
        dealer = caller
    for who in seats:
        calls.extend((game, who) for game in POS)
    assert len(calls) == total
    for k, (game, caller) in enumerate(calls, start=1):
        assert p.advance(game, caller).problems == ()
        assert p.left == total - k
        assert p.number == k + 1
    assert p.complete
    assert p.phase is None
    assert p.callable_games("P1") == ()
    check = p.check("DOMINO", "P1")
    assert codes(check) == ["TURNO_TOO_MANY_SMAZZATE"]


def test_three_players_positive_phase():
    seats = ("Ada", "Bea", "Ciro")
    calls = [
        ("NJ", "Bea"),
        ("NK", "Ciro"),
        ("NJK", "Ada"),
        ("NQS", "Bea"),
        ("NH", "Ciro"),
        ("NU2", "Ada"),
        ("NF", "Bea"),
    ]
    p = Progress.after(RULES, seats, "Ada", calls)
    assert p.dealer == "Bea"
    assert p.full_order() == ("Ciro", "Ada", "Bea")
    assert p.left == 9  # 3 games * 3 players
    assert [p.is_forced(x) for x in seats] == [False, True, False]  # only the dealer Bea
