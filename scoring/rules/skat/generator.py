"""Random valid Skat lists, dealt card by card (property tests and the demo club).

Each game deals the 32 cards (three hands of ten and the skat), picks a declarer among the three
active players, a game, the announcements and the bid; the matadors are counted from the
declarer's hand and the skat, the tricks are laid out from the three hands and the declarer takes
some of them, so his card points and tricks always agree (a trick of 7-8-9 is worth 0, the skat is
his). Every game type, hand, ouvert, schneider and schwarz (made and announced), overbids,
passed-in games, penalità and ties settled by draw occur.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .game import Game, dealer_of, outcome, sitting_out_of
from .lista import rank, score_list
from .rules import GRAND, NULL, SUITS, SkatRules

CARD_SUITS = ("CLUBS", "SPADES", "HEARTS", "DIAMONDS")  # the jacks' order, highest first
RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
CARD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
DECK = tuple((suit, r) for suit in CARD_SUITS for r in RANKS)

Card = tuple[str, str]


def matadors_of(cards: Sequence[Card], game: str) -> tuple[int, bool]:
    """(matadors, with) of a hand plus skat for a suit or grand game (ISkO 2.4)."""
    trumps = [(suit, "J") for suit in CARD_SUITS]
    if game != GRAND:
        trumps += [(game, r) for r in RANKS if r != "J"]
    held = set(cards)
    with_ = trumps[0] in held
    run = 0
    for card in trumps:
        if (card in held) != with_:
            break
        run += 1
    return run, with_


def _legal_below(rules: SkatRules, value: int) -> list[int]:
    return [b for b in rules.legal_bids if b <= value]


def _pick_bid(rng: random.Random, rules: SkatRules, value: int, overbid: bool) -> int:
    """A bid the declarer held: most often one the game reaches, sometimes above it."""
    above = [b for b in rules.legal_bids if value < b <= 2 * value]
    if overbid and above:
        return rng.choice(above[:4])
    below = _legal_below(rules, value)
    return below[min(len(below) - 1, int(rng.triangular(0, len(below), 0)))]


def random_game(rng: random.Random, rules: SkatRules, active: Sequence[str]) -> dict[str, Any]:
    """One valid played game record among the three ``active`` players."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [deck[0:10], deck[10:20], deck[20:30]]
    skat = deck[30:32]
    seat = rng.randrange(3)
    declarer = active[seat]
    game = rng.choice((*SUITS, GRAND, GRAND, NULL, NULL))
    tricks = [tuple(h[i] for h in hands) for i in range(10)]
    rng.shuffle(tricks)
    if game == NULL:
        hand, ouvert = rng.random() < 0.3, rng.random() < 0.3
        won = rng.random() < 0.65
        record: dict[str, Any] = {
            "declarer": declarer,
            "game": NULL,
            "hand": hand,
            "ouvert": ouvert,
            "declarer_tricks": 0 if won else 1,
        }
        value = rules.null_value(hand, ouvert)
        record["bid"] = _pick_bid(rng, rules, value, overbid=False)
        return {k: v for k, v in record.items() if v is not False}

    matadors, with_ = matadors_of([*hands[seat], *skat], game)
    hand = rng.random() < 0.3
    ouvert = hand and rng.random() < 0.08
    schneider_ann = ouvert or (hand and rng.random() < 0.2)
    schwarz_ann = ouvert or (schneider_ann and rng.random() < 0.35)
    # How many tricks the declarer takes: the announcements make him greedy.
    roll = rng.random()
    if schwarz_ann:
        taken = 10 if roll < 0.7 else rng.randint(6, 9)
    elif roll < 0.06:
        taken = 0
    elif roll < 0.14:
        taken = 10
    else:
        taken = rng.randint(2 if schneider_ann else 1, 9)
    best = rng.random() < 0.7  # he takes the richest tricks, or just some
    ordered = sorted(tricks, key=lambda t: -sum(CARD_POINTS[r] for _, r in t)) if best else tricks
    points = sum(CARD_POINTS[r] for _, r in skat) + sum(
        CARD_POINTS[r] for t in ordered[:taken] for _, r in t
    )
    g = Game(
        declarer=declarer,
        game=game,
        bid=min(rules.legal_bids),
        declarer_tricks=taken,
        hand=hand,
        ouvert=ouvert,
        schneider_announced=schneider_ann,
        schwarz_announced=schwarz_ann,
        matadors=matadors,
        with_=with_,
        declarer_points=points,
    )
    value = outcome(rules, g).value
    record = {
        "declarer": declarer,
        "game": game,
        "bid": _pick_bid(rng, rules, value, overbid=rng.random() < 0.12),
        "hand": hand,
        "ouvert": ouvert,
        "schneider_announced": schneider_ann,
        "schwarz_announced": schwarz_ann,
        "matadors": matadors,
        "with": with_,
        "declarer_points": points,
        "declarer_tricks": taken,
    }
    return {k: v for k, v in record.items() if v is not False or k == "with"}


def random_list(
    rng: random.Random,
    rules: SkatRules,
    players: Sequence[str],
    *,
    first_dealer: str | None = None,
    date: str | None = None,
    number: int = 1,
    passed_chance: float = 0.05,
    penalty_chance: float = 0.1,
    tie_chance: float = 0.1,
) -> dict[str, Any]:
    """A complete, valid list (turno record) for 3 or 4 ``players``; ties get a random draw.

    With ``tie_chance`` two players play mirrored lists (each game one of them declares, the
    other declares too, elsewhere in the list), so that they end equal on points, games won and
    games lost and only the draw separates them.
    """
    players = list(players)
    first = first_dealer if first_dealer is not None else rng.choice(players)
    games = []
    for k in range(1, rules.games_per_list[len(players)] + 1):
        sitting_out = sitting_out_of(players, dealer_of(players, first, k))
        if rng.random() < passed_chance:
            games.append({"passed": True})
        else:
            games.append(random_game(rng, rules, [p for p in players if p != sitting_out]))
    if rng.random() < tie_chance:
        games = _mirrored(rng, games, players, first) or games
        penalty_chance = 0.0
    penalties = [
        {"player": p, "points": -rng.choice((5, 10, 25, 50)), "reason": "ritardo"}
        for p in players
        if rng.random() < penalty_chance / len(players)
    ]
    turno: dict[str, Any] = {
        "date": date,
        "number": number,
        "players": players,
        "first_dealer": first,
        "smazzate": games,
        "penalties": penalties,
        "tiebreak": [],
    }
    scored = score_list(rules, turno, ranked=False)
    won, lost, totals = scored["won"], scored["lost"], scored["totals"]
    if rank(players, totals, won, lost, [])[0] is None:
        # a tie: the draw orders everyone, the tied players in a random order
        shuffled = rng.sample(players, len(players))
        turno["tiebreak"] = sorted(shuffled, key=lambda p: (-totals[p], -won[p], lost[p]))
    return turno


def _mirrored(
    rng: random.Random, games: list[dict[str, Any]], players: list[str], first: str
) -> list[dict[str, Any]] | None:
    """The games with B's own games replaced by copies of A's (A, B two random players), each
    copy on a free slot where B does not sit out (a passed game's, else a third player's game's);
    None if the slots do not suffice."""
    a, b = rng.sample(players, 2)
    out = [{"passed": True} if g.get("declarer") == b else g for g in games]
    for g in [g for g in games if g.get("declarer") == a]:
        slots = [
            k
            for k in range(len(out))
            if sitting_out_of(players, dealer_of(players, first, k + 1)) != b
        ]
        free = [k for k in slots if out[k].get("passed")] or [
            k for k in slots if out[k].get("declarer") not in (a, b)
        ]
        if not free:
            return None
        out[rng.choice(free)] = {**g, "declarer": b}
    return out
