"""What one smazzata of the King family is (recorded, checked, scored), and the checks the three
rule sets share: the result counts, the trump, the sale's shape (SPEC-king-family §0.2, §D)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..problems import Problem, Said, gettext_noop
from .contracts import CARDS_LEFT, CONTRACTS, NAMES
from .rules import TRUMPS, KingRules

OPTIONAL_KEYS = ("sale", "trump", "blind", "mode", "last")


@dataclass(frozen=True)
class Sale:
    buyer: str
    price: int  # tricks (classico, le-king) or the offer (internazionale)


@dataclass(frozen=True)
class Deal:
    """One valid smazzata as recorded."""

    game: str
    result: Mapping[str, int] | None  # None only for an unplayed asta
    trump: str | None = None
    blind: bool = False
    mode: str | None = None
    sale: Sale | None = None
    last: str | None = None


@dataclass(frozen=True)
class Slot:
    """What the next smazzata of a turno may be, derived from the turno so far."""

    number: int
    dealer: str
    chooser: str | None  # who chooses (dealer, Main, banditore) before any sale; None: nobody
    games: tuple[str, ...]  # the contracts it may be (one when the order imposes it)
    seller: str | None = None  # who may sell the choice; None when nothing can be sold
    recup_takers: tuple[str, ...] = ()  # le-king FREE: who may still choose a Récupération


@dataclass
class Checked:
    """A smazzata after its checks: the deal when valid, and what the order of play needs."""

    game: str | None  # the recorded contract when it is one of the rule set's
    chooser: str | None
    deal: Deal | None
    problems: list[Problem] = field(default_factory=list)


@dataclass(frozen=True)
class Scored:
    number: int
    game: str
    dealer: str
    chooser: str | None
    sale: dict[str, Any] | None
    extra: dict[str, Any]  # the rule set's own fields (trump, blind, mode, last)
    points: dict[str, int]

    def output(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "game": self.game,
            "dealer": self.dealer,
            "chooser": self.chooser,
            "sale": self.sale,
            **self.extra,
            "points": self.points,
        }


Seats = Sequence[str]  # the players in the order of play
History = Sequence[Checked]  # the smazzate of the turno so far, checked


class Variant(Protocol):
    """One rule set's order of play, record checks and scoring."""

    code: str

    def codes(self, rules: KingRules) -> tuple[str, ...]: ...

    def smazzate_count(self, rules: KingRules, players: int) -> int: ...

    def slot(
        self, rules: KingRules, players: Seats, first_dealer: str, history: History
    ) -> Slot: ...

    def check(
        self, rules: KingRules, players: Sequence[str], slot: Slot, raw: Mapping[str, Any]
    ) -> Checked: ...

    def score(self, rules: KingRules, players: Sequence[str], slot: Slot, deal: Deal) -> Scored: ...

    def offer(self, rules: KingRules, players: int, slot: Slot) -> dict[str, Any]:
        """The rule set's own keys of the next step (prices, modes, blind...)."""
        ...


def is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def seat_after(players: Sequence[str], player: str, k: int = 1) -> str:
    return players[(list(players).index(player) + k) % len(players)]


class Checker:
    """Collects the problems of one smazzata, each naming the smazzata (and player)."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.problems: list[Problem] = []

    def add(
        self,
        code: str,
        message: str,
        who: str | None = None,
        fld: str | None = None,
        **params: Any,
    ) -> None:
        """A problem of the smazzata; ``message`` a sentence marked with gettext_noop, its
        values in ``params`` (translated by the frame)."""
        self.problems.append(
            Problem.said(code, message, params or None, smazzata=self.number, player=who, field=fld)
        )

    def out_of_order(self, slot: Slot, game: str) -> None:
        """The contract played is not the one the order fixes for this smazzata (the first of
        the slot's games)."""
        self.add(
            "GAME_ORDER",
            gettext_noop("Contratto: la smazzata %(n)s è %(expected)s, non %(game)s."),
            fld="game",
            n=slot.number,
            expected=Said(NAMES[slot.games[0]]),
            game=Said(NAMES.get(game, game)),
        )

    def game(self, raw: Any, codes: Sequence[str]) -> str | None:
        """The recorded contract, or None (FIELD_TYPE / GAME_UNKNOWN reported)."""
        if not isinstance(raw, Mapping):
            self.add("FIELD_TYPE", gettext_noop("La smazzata deve essere un oggetto JSON."))
            return None
        game = raw.get("game")
        if not isinstance(game, str) or game not in codes:
            problem = (
                Problem.said("GAME_UNKNOWN", gettext_noop("Contratto: scegliere il contratto."), {})
                if game is None or game == ""
                else Problem.said(
                    "GAME_UNKNOWN",
                    gettext_noop(
                        "Contratto: «%(value)s» non è un contratto di questo regolamento."
                    ),
                    {"value": str(game)},
                )
            )
            self.problems.append(replace(problem, smazzata=self.number, field="game"))
            return None
        return game

    def keys(self, raw: Mapping[str, Any], allowed: Sequence[str], game: str) -> None:
        """FIELD_UNEXPECTED for every key ``game`` does not record (a null optional key is
        the same as an absent one)."""
        for key, value in raw.items():
            if key in ("game", "result") or key in allowed:
                continue
            if key in OPTIONAL_KEYS and value is None:
                continue
            self.add(
                "FIELD_UNEXPECTED",
                gettext_noop("%(game)s non registra «%(key)s»."),
                fld=str(key),
                game=Said(NAMES.get(game, game)),
                key=str(key),
            )

    def result(
        self, rules: KingRules, players: Sequence[str], game: str, raw: Mapping[str, Any]
    ) -> dict[str, int] | None:
        """The counts, checked against the contract (§0.2), or None when any is wrong."""
        result = raw.get("result")
        if not isinstance(result, Mapping):
            self.add(
                "RESULT_PLAYERS",
                gettext_noop("Conteggio: scrivere il conteggio di ogni giocatore."),
                fld="result",
            )
            return None
        for p in players:
            if p not in result:
                self.add(
                    "RESULT_PLAYERS",
                    gettext_noop("Conteggio: scrivere il conteggio di %(player)s."),
                    p,
                    "result",
                    player=p,
                )
        for name in result:
            if name not in players:
                self.add(
                    "RESULT_PLAYERS",
                    gettext_noop("Conteggio: %(player)s non siede a questo tavolo."),
                    name,
                    "result",
                    player=name,
                )
        if set(result) != set(players):
            return None
        contract = CONTRACTS[game]
        deck = rules.deck(len(players))
        maximum = contract.maximum(deck)
        ok = True
        for p in players:
            v = result[p]
            if not is_int(v) or v < 0:
                self.add(
                    "COUNT_TYPE",
                    gettext_noop("Conteggio: quello di %(player)s è un numero intero da 0 in su."),
                    p,
                    "result",
                    player=p,
                )
                ok = False
            elif v > maximum:
                self.add(
                    "COUNT_RANGE",
                    gettext_noop(
                        "Conteggio: %(value)s per %(player)s, ma in %(game)s si conta al "
                        "massimo %(max)s."
                    ),
                    p,
                    "result",
                    value=v,
                    player=p,
                    game=Said(NAMES[game]),
                    max=maximum,
                )
                ok = False
        if not ok:
            return None
        counts = {p: result[p] for p in players}
        total = contract.total(deck)
        if contract.counts == CARDS_LEFT:
            winners = [p for p in players if counts[p] == 0]
            if len(winners) != 1:
                self.add(
                    "DOMINO_WINNER",
                    gettext_noop(
                        "Conteggio: nel Domino esattamente un giocatore resta senza carte "
                        "(sono %(n)s)."
                    ),
                    fld="result",
                    n=len(winners),
                )
                return None
        elif sum(counts.values()) != total:
            self.add(
                "COUNT_SUM",
                gettext_noop(
                    "Conteggio: in %(game)s i conteggi fanno %(sum)s, devono fare %(total)s."
                ),
                fld="result",
                game=Said(NAMES[game]),
                sum=sum(counts.values()),
                total=total,
            )
            return None
        return counts

    def trump(self, raw: Mapping[str, Any], required: bool) -> str | None:
        trump = raw.get("trump")
        if required and trump not in TRUMPS:
            if trump is None or trump == "":
                self.add("TRUMP", gettext_noop("Briscola: scegliere la briscola."), fld="trump")
            else:
                self.add(
                    "TRUMP",
                    gettext_noop("Briscola: «%(value)s» non è una briscola (S, H, D, C o NT)."),
                    fld="trump",
                    value=str(trump),
                )
            return None
        if not required and trump is not None:
            self.add(
                "TRUMP",
                gettext_noop("Briscola: questo contratto si gioca senza briscola."),
                fld="trump",
            )
            return None
        return trump

    def sale(
        self, raw: Mapping[str, Any], players: Sequence[str], seller: str, price_key: str
    ) -> tuple[bool, Sale | None]:
        """(shape ok, the sale or None). Checks the shape and the buyer, not the price range."""
        sale = raw.get("sale")
        if sale is None:
            return True, None
        if (
            not isinstance(sale, Mapping)
            or set(sale) != {"buyer", price_key}
            or not isinstance(sale["buyer"], str)
            or not is_int(sale[price_key])
        ):
            self.add(
                "FIELD_TYPE",
                gettext_noop("Vendita: serve un oggetto {buyer, %(key)s}."),
                fld="sale",
                key=price_key,
            )
            return False, None
        buyer = sale["buyer"]
        if buyer not in players or buyer == seller:
            if buyer not in players:
                message = gettext_noop("Vendita: %(player)s non siede a questo tavolo.")
            else:
                message = gettext_noop("Vendita: %(player)s è il venditore e non compra.")
            self.add("SALE_BUYER", message, buyer, "sale", player=buyer)
            return False, None
        return True, Sale(buyer, sale[price_key])

    def tricks_price(self, sale: Sale | None, tricks: int) -> Sale | None:
        if sale is not None and not 1 <= sale.price <= tricks:
            self.add(
                "SALE_PRICE",
                gettext_noop("Prese promesse: %(value)s, devono essere da 1 a %(tricks)s."),
                fld="sale",
                value=sale.price,
                tricks=tricks,
            )
            return None
        return sale


def unit_points(rules: KingRules, game: str, counts: Mapping[str, int]) -> dict[str, int]:
    """Points per unit counted (§0.3): the rule's value times the count."""
    value = rules.points[game]
    assert value is not None
    return {p: value * c for p, c in counts.items()}


def sale_out(seller: str, sale: Sale | None, price_key: str, transfer: int) -> dict | None:
    if sale is None:
        return None
    return {"seller": seller, "buyer": sale.buyer, price_key: sale.price, "transfer": transfer}


def move(points: dict[str, int], sale: Sale | None, seller: str, transfer: int) -> None:
    """Move ``transfer`` points from the buyer to the seller."""
    if sale is not None:
        points[sale.buyer] -= transfer
        points[seller] += transfer
