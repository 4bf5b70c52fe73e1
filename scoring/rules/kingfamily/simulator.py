"""A card-level simulator of the King family: it deals real cards, plays every trick following
suit (the C.A.F. simulator's trick play) and Domino, and takes the choices the rule set allows
at random: the contract, the trump, the sale of the dichiarazione or of the Récupération, the
asta with its offers or unplayed, the blind declaration. Every turno it returns is valid."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..caf.simulator import play_domino, play_tricks
from .contracts import CARDS_LEFT, CONTRACTS
from .internazionale import offers
from .records import Checked, Slot
from .rules import TRUMPS, KingRules
from .turno import VARIANTS


def deal_hands(rules: KingRules, players: Sequence[str], rng: random.Random) -> dict:
    cards = list(rules.deck(len(players)).cards)
    rng.shuffle(cards)
    c = len(cards) // len(players)
    return {p: cards[i * c : (i + 1) * c] for i, p in enumerate(players)}


def play(
    rules: KingRules,
    players: Sequence[str],
    game: str,
    dealer: str,
    rng: random.Random,
    trump: str | None = None,
) -> tuple[dict[str, int], str]:
    """Deal and play one smazzata of ``game``: the counts and who took the last trick (for
    Domino: the winner)."""
    hands = deal_hands(rules, players, rng)
    contract = CONTRACTS[game]
    if contract.counts == CARDS_LEFT:
        domino = play_domino(players, dealer, hands, rng)
        return dict(domino.left), domino.winner
    suit = None if trump in (None, "NT") else trump
    tricks = play_tricks(players, dealer, hands, rng, suit)
    return contract.count(players, [(t.winner, t.cards) for t in tricks]), tricks[-1].winner


def _others(players: Sequence[str], player: str) -> list[str]:
    return [p for p in players if p != player]


def _classico(rules, players, slot, rng, sale_chance) -> dict[str, Any]:
    game = rng.choice(slot.games)
    if game != "DICH":
        return {"game": game, "result": play(rules, players, game, slot.dealer, rng)[0]}
    trump = rng.choice(TRUMPS)
    record: dict[str, Any] = {"game": game, "trump": trump}
    if rules["blind_allowed"] and rng.random() < 0.15:
        record["blind"] = True
    elif rng.random() < sale_chance:
        record["sale"] = {
            "buyer": rng.choice(_others(players, slot.dealer)),
            "tricks": rng.randint(1, 6),
        }
    record["result"] = play(rules, players, game, slot.dealer, rng, trump)[0]
    return record


def _internazionale(rules, players, slot, rng, sale_chance) -> dict[str, Any]:
    game = slot.games[0]
    if game != "ASTA":
        return {"game": game, "result": play(rules, players, game, slot.dealer, rng)[0]}
    if rng.random() < 0.1:
        return {"game": game, "mode": "UNPLAYED"}
    record: dict[str, Any] = {"game": game}
    if rng.random() < sale_chance:
        offer = rng.choice(offers(rules))
        mode = "POSITIVE" if offer > 0 else "NEGATIVE"
        record["sale"] = {"buyer": rng.choice(_others(players, slot.dealer)), "offer": offer}
    else:
        mode = rng.choice(("POSITIVE", "NEGATIVE"))
    record["mode"] = mode
    trump = rng.choice(TRUMPS) if mode == "POSITIVE" else None
    if trump:
        record["trump"] = trump
    record["result"] = play(rules, players, game, slot.dealer, rng, trump)[0]
    return record


def _leking(rules, players, slot, rng, sale_chance) -> dict[str, Any]:
    main = slot.chooser
    free = rules["order"] == "FREE"
    sellable = slot.seller is not None and (free or slot.games[0] == "RECUP")
    buyer = None
    if sellable and rng.random() < sale_chance:
        buyer = rng.choice(_others(players, main))
    if free:
        chooser = buyer or main
        options = [g for g in slot.games if g != "RECUP" or chooser in slot.recup_takers]
        if not options:  # only Récupérations left and the chooser has had his
            buyer = None if main in slot.recup_takers else rng.choice(slot.recup_takers)
            options = ["RECUP"]
        game = rng.choice(options)
    else:
        game = slot.games[0]
    record: dict[str, Any] = {"game": game}
    trump = rng.choice(TRUMPS) if game == "RECUP" else None
    if trump:
        record["trump"] = trump
    if buyer is not None:
        record["sale"] = {"buyer": buyer, "tricks": rng.randint(1, 5)}
    counts, last = play(rules, players, game, slot.dealer, rng, trump)
    record["result"] = counts
    if game == "NU2":
        record["last"] = last
    return record


_CHOICES = {"king-classico": _classico, "king-internazionale": _internazionale, "le-king": _leking}


def random_turno(
    rules: KingRules,
    players: Sequence[str],
    rng: random.Random,
    *,
    first_dealer: str | None = None,
    date: str | None = None,
    number: int = 1,
    sale_chance: float = 0.3,
    penalty_chance: float = 0.0,
) -> dict[str, Any]:
    """A whole turno played card by card, as the segretario records it (input record)."""
    players = tuple(players)
    variant = VARIANTS[rules.code]
    first_dealer = first_dealer or rng.choice(players)
    checked: list[Checked] = []
    smazzate: list[Mapping[str, Any]] = []
    for _ in range(variant.smazzate_count(rules, len(players))):
        slot: Slot = variant.slot(rules, players, first_dealer, checked)
        record = _CHOICES[rules.code](rules, players, slot, rng, sale_chance)
        result = variant.check(rules, players, slot, record)
        if result.problems:  # the simulator only takes legal choices
            raise AssertionError(f"simulated smazzata invalid: {result.problems}")
        checked.append(result)
        smazzate.append(record)
    penalties = [
        {"player": p, "points": -rng.choice((1, 2, 3, 5)), "reason": "penalità simulata"}
        for p in players
        if rng.random() < penalty_chance
    ]
    return {
        "date": date,
        "number": number,
        "players": list(players),
        "first_dealer": first_dealer,
        "smazzate": smazzate,
        "penalties": penalties,
    }
