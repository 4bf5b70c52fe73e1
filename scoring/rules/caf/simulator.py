"""A card-level simulator of King C.A.F.: it deals real cards and plays legal random deals.

Pure Python, stdlib only. It produces :class:`TurnoRecord` values in the segretario's recording
form (SPEC §2), so property tests and demo data can feed the scoring engine with realistic turni.
Choices are random but legal; there is no strategy. Every function takes a ``random.Random``,
so the same seed gives the same cards, calls and results.
"""

from __future__ import annotations

import datetime as dt
import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from .play import Progress
from .records import Penalty, SmazzataRecord, TurnoRecord
from .ruleset import (
    COUNT_CARDS_LEFT,
    COUNT_HEARTS,
    COUNT_JACKS,
    COUNT_JACKS_KINGS,
    COUNT_KINGS,
    COUNT_LAST_TWO,
    COUNT_QUEEN_SPADES,
    COUNT_TRICKS,
    RANKS,
    SUITS,
    Deck,
    RuleSet,
)
from .turno import score_turno

# Trick play: A high (14) down to 2. Domino rows: A low (1), 2..10, J 11, Q 12, K 13.
TRICK_RANK = {r: 14 - i for i, r in enumerate(RANKS)}
DOMINO_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(v): v for v in range(2, 11)}}
DOMINO_OPENER = 7
# card -> (suit, trick rank, Domino rank), for every card of the 52
_CARD = {r + s: (s, TRICK_RANK[r], DOMINO_RANK[r]) for r in RANKS for s in SUITS}

_CARD_COUNTS: dict[str, Callable[[str], bool]] = {
    COUNT_JACKS: lambda c: c[0] == "J",
    COUNT_KINGS: lambda c: c[0] == "K",
    COUNT_JACKS_KINGS: lambda c: c[0] in "JK",
    COUNT_QUEEN_SPADES: lambda c: c == "QS",
    COUNT_HEARTS: lambda c: c[-1] == "H",
}

PENALTY_ARTICLES = ("6", "9", "15", "16")


@dataclass(frozen=True)
class Trick:
    """One trick: who led, the cards in play order, who took it."""

    leader: str
    plays: tuple[tuple[str, str], ...]  # (player, card)
    winner: str

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(card for _, card in self.plays)


@dataclass(frozen=True)
class DominoGame:
    """A Domino deal: every turn in order (card played, or None for a pass) and the outcome."""

    moves: tuple[tuple[str, str | None], ...]
    left: Mapping[str, int]  # cards still in hand per player
    winner: str


def suit_of(card: str) -> str:
    """ "10H" -> "H"."""
    return card[-1]


def rank_of(card: str) -> str:
    """ "10H" -> "10"."""
    return card[:-1]


@functools.cache
def _deck_cards(deck: Deck) -> tuple[str, ...]:
    return deck.cards  # Deck.cards is rebuilt at every access


def deal(rules: RuleSet, players: Sequence[str], rng: random.Random) -> dict[str, list[str]]:
    """Shuffle the deck for ``len(players)`` and deal C cards to each player, in seat order."""
    cards = list(_deck_cards(rules.deck(len(players))))
    rng.shuffle(cards)
    c = len(cards) // len(players)
    return {p: cards[i * c : (i + 1) * c] for i, p in enumerate(players)}


def _seat_after(players: Sequence[str], player: str) -> int:
    if player not in players:
        raise ValueError(f"{player!r} does not sit at this table")
    return (list(players).index(player) + 1) % len(players)


def _copy_hands(players: Sequence[str], hands: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    if set(hands) != set(players):
        raise ValueError("hands must be given for exactly the players at the table")
    return {p: list(hands[p]) for p in players}


def trick_winner(plays: Sequence[tuple[str, str]], trump: str | None = None) -> str:
    """The highest trump if any was played, else the highest card of the led suit."""
    best_player, best_card = plays[0]  # always of the led suit or a trump
    best_suit, best_rank, _ = _CARD[best_card]
    for player, card in plays[1:]:
        suit, rank, _ = _CARD[card]
        if (suit == best_suit and rank > best_rank) or (suit != best_suit and suit == trump):
            best_player, best_suit, best_rank = player, suit, rank
    return best_player


def play_tricks(
    players: Sequence[str],
    dealer: str,
    hands: Mapping[str, Sequence[str]],
    rng: random.Random,
    trump: str | None = None,
) -> list[Trick]:
    """Play every card as tricks: follow suit if able; the seat after the dealer leads first."""
    players = tuple(players)
    held = _copy_hands(players, hands)
    sizes = {len(h) for h in held.values()}
    if len(sizes) != 1:
        raise ValueError("every player must hold the same number of cards")
    n = len(players)
    lead = _seat_after(players, dealer)
    tricks: list[Trick] = []
    for _ in range(sizes.pop()):
        plays: list[tuple[str, str]] = []
        led: str | None = None
        for k in range(n):
            p = players[(lead + k) % n]
            hand = held[p]
            legal = hand if led is None else [c for c in hand if c[-1] == led] or hand
            card = rng.choice(legal)
            hand.remove(card)
            if led is None:
                led = card[-1]
            plays.append((p, card))
        winner = trick_winner(plays, trump)
        tricks.append(Trick(players[lead], tuple(plays), winner))
        lead = players.index(winner)
    return tricks


def count_tricks(counts: str, players: Sequence[str], tricks: Sequence[Trick]) -> dict[str, int]:
    """What the segretario records for a trick game counting ``counts`` (a ruleset.COUNT_*)."""
    out = dict.fromkeys(players, 0)
    if counts == COUNT_TRICKS:
        for t in tricks:
            out[t.winner] += 1
    elif counts == COUNT_LAST_TWO:
        for t in tricks[-2:]:
            out[t.winner] += 1
    elif counts in _CARD_COUNTS:
        taken = _CARD_COUNTS[counts]
        for t in tricks:
            out[t.winner] += sum(1 for c in t.cards if taken(c))
    else:
        raise ValueError(f"not a trick count: {counts!r}")
    return out


def domino_playable(card: str, table: Mapping[str, tuple[int, int]]) -> bool:
    """A 7 opens its suit's row; else the card must extend an open row by one rank."""
    suit, _, value = _CARD[card]
    row = table.get(suit)
    if row is None:
        return value == DOMINO_OPENER
    return value in (row[0] - 1, row[1] + 1)


def play_domino(
    players: Sequence[str],
    dealer: str,
    hands: Mapping[str, Sequence[str]],
    rng: random.Random,
) -> DominoGame:
    """Play a Domino deal: play one legal card or pass, in turn; the first out wins."""
    players = tuple(players)
    held = _copy_hands(players, hands)
    n = len(players)
    table: dict[str, tuple[int, int]] = {}
    moves: list[tuple[str, str | None]] = []
    i = _seat_after(players, dealer)
    passes = 0
    while True:
        p = players[i]
        hand = held[p]
        legal = [c for c in hand if domino_playable(c, table)]
        if legal:
            card = rng.choice(legal)
            hand.remove(card)
            suit, _, value = _CARD[card]
            low, high = table.get(suit, (value, value))
            table[suit] = (min(low, value), max(high, value))
            moves.append((p, card))
            passes = 0
            if not hand:
                return DominoGame(tuple(moves), {q: len(held[q]) for q in players}, p)
        else:
            moves.append((p, None))
            passes += 1
            if passes >= n:
                raise RuntimeError("Domino blocked: a full round without a playable card")
        i = (i + 1) % n


def play_deal(
    rules: RuleSet,
    players: Sequence[str],
    game: str,
    dealer: str,
    rng: random.Random,
    trump: str | None = None,
    *,
    hands: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, int]:
    """Deal (unless ``hands`` is given) and play one smazzata of ``game``; return its counts."""
    players = tuple(players)
    rule = rules.games.get(game)
    if rule is None:
        raise ValueError(f"unknown game {game!r}")
    if len(players) not in rules.decks:
        raise ValueError(f"no deck for {len(players)} players")
    if rule.trump and trump not in SUITS:
        raise ValueError(f"{game} needs a trump suit among {SUITS}, not {trump!r}")
    if not rule.trump and trump is not None:
        raise ValueError(f"{game} has no trump suit")
    if hands is None:
        hands = deal(rules, players, rng)
    if rule.counts == COUNT_CARDS_LEFT:
        return dict(play_domino(players, dealer, hands, rng).left)
    tricks = play_tricks(players, dealer, hands, rng, trump)
    return count_tricks(rule.counts, players, tricks)


def _choose_call(progress: Progress, rng: random.Random, call_chance: float) -> tuple[str, str]:
    order = progress.calling_order()
    if not order:
        raise RuntimeError("nobody can call, but the turno is not complete")
    caller = order[-1]  # the last who can call must call (a forced call)
    for p in order[:-1]:
        if rng.random() < call_chance:
            caller = p
            break
    return caller, rng.choice(progress.callable_games(caller))


def simulate_turno(
    rules: RuleSet,
    players: Sequence[str],
    rng: random.Random,
    first_dealer: str | None = None,
    date: dt.date | None = None,
    number: int = 1,
    *,
    call_chance: float = 0.5,
    penalty_chance: float = 0.0,
) -> TurnoRecord:
    """Play a whole turno card by card and return it as the segretario records it.

    Each player in calling order calls with probability ``call_chance`` (the last who can call
    must); each player gets a random penalità with probability ``penalty_chance``. Tied totals
    get a random spareggio order listing every player.
    """
    players = tuple(players)
    if first_dealer is None:
        first_dealer = rng.choice(players)
    progress = Progress(rules, players, first_dealer)
    smazzate: list[SmazzataRecord] = []
    while not progress.complete:
        dealer = progress.dealer
        assert dealer is not None
        hands = deal(rules, players, rng)
        caller, game = _choose_call(progress, rng, call_chance)
        trump = rng.choice(SUITS) if rules.games[game].trump else None
        result = play_deal(rules, players, game, dealer, rng, trump, hands=hands)
        smazzate.append(SmazzataRecord(game, caller, result, trump))
        progress.advance(game, caller)
    penalties = tuple(
        Penalty(
            p,
            -rng.choice((1, 2, 3, 5, 10)),
            article=rng.choice(PENALTY_ARTICLES),
            reason="penalità simulata",
        )
        for p in players
        if rng.random() < penalty_chance
    )
    record = TurnoRecord(
        players=players,
        first_dealer=first_dealer,
        smazzate=tuple(smazzate),
        penalties=penalties,
        date=date,
        number=number,
    )
    score = score_turno(rules, record, require_complete=True)
    if score.tied:
        draw = {p: rng.random() for p in players}
        order = sorted(players, key=lambda p: (-score.totals[p], draw[p]))
        record = replace(record, tiebreak=tuple(order))
    return record
