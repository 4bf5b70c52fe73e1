"""The contracts of the King family (SPEC-king-family §0.2): what the segretario counts per
player, what the counts add up to and the per-player maximum, for a given deck."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..problems import gettext_noop
from .rules import Deck

TRICKS = "tricks"  # tricks taken
LAST_TWO = "last_two"  # how many of the last two tricks
CARDS = "cards"  # cards of a kind taken
CARDS_LEFT = "cards_left"  # Domino: cards still in hand

_CARD_KINDS: dict[str, Callable[[str], bool]] = {
    "NH": lambda c: c.endswith("H"),
    "NQ": lambda c: c[0] == "Q",
    "NJK": lambda c: c[0] in "JK",
    "NKH": lambda c: c == "KH",
    "N8D": lambda c: c == "8D",
    "P7H": lambda c: c == "7H",
    "NKQJ10": lambda c: c in ("KS", "QH", "JD", "10C"),
}
NAMES = {
    "NF": gettext_noop("Non fare mani"),
    "NH": gettext_noop("Non prendere cuori"),
    "NQ": gettext_noop("Non prendere le regine"),
    "NJK": gettext_noop("Non prendere J e K"),
    "NKH": gettext_noop("Non prendere il K♥"),
    "NU2": gettext_noop("Non fare le ultime due"),
    "N8D": gettext_noop("Non prendere l'8♦"),
    "P7H": gettext_noop("Prendere il 7♥"),
    "NKQJ10": gettext_noop("Non prendere K♠ Q♥ J♦ 10♣"),
    "U2": gettext_noop("Fare le ultime due"),
    "DOMINO": gettext_noop("Domino"),
    "DICH": gettext_noop("Dichiarazione"),
    "ASTA": gettext_noop("Asta"),
    "RECUP": gettext_noop("Récupération"),
}

# what the running check of the live screen calls the counted thing (§0.2's "counted per player")
UNITS = {
    TRICKS: gettext_noop("prese"),
    LAST_TWO: gettext_noop("ultime due prese"),
    CARDS_LEFT: gettext_noop("carte in mano"),
}
CARD_UNITS = {
    "NH": gettext_noop("cuori"),
    "NQ": gettext_noop("regine"),
    "NJK": gettext_noop("fanti e re"),
}
CARDS_UNIT = gettext_noop("carte")  # one card (K♥, 8♦, 7♥) or the four of NKQJ10

# the asta's modes (§B.4), as the form names them
MODE_NAMES = {
    "POSITIVE": gettext_noop("positiva"),
    "NEGATIVE": gettext_noop("negativa"),
    "UNPLAYED": gettext_noop("non giocata"),
}


@dataclass(frozen=True)
class Contract:
    code: str
    counts: str  # TRICKS, LAST_TWO, CARDS or CARDS_LEFT

    def is_card(self, card: str) -> bool:
        """Whether ``card`` counts for a CARDS contract."""
        return _CARD_KINDS[self.code](card)

    def total(self, deck: Deck) -> int | None:
        """What the counts add up to (None for Domino: exactly one winner instead)."""
        if self.counts == TRICKS:
            return deck.tricks
        if self.counts == LAST_TWO:
            return 2
        if self.counts == CARDS:
            return sum(1 for c in deck.cards if self.is_card(c))
        return None

    def maximum(self, deck: Deck) -> int:
        total = self.total(deck)
        return deck.tricks if total is None else total

    def unit(self) -> str:
        """What is counted, as the running check names it (a text to translate)."""
        if self.counts == CARDS:
            return CARD_UNITS.get(self.code, CARDS_UNIT)
        return UNITS[self.counts]

    def check(self, deck: Deck) -> dict[str, Any]:
        """What the live screen's running check needs, the totals the engine checks (§0.2):
        ``{"kind": "sum", "total": what the counts add up to, "unit"}``, or for Domino
        ``{"kind": "one_zero", "total": the per-player maximum, "unit"}`` (exactly one 0)."""
        kind = "one_zero" if self.counts == CARDS_LEFT else "sum"
        return {"kind": kind, "total": self.maximum(deck), "unit": self.unit()}

    def count(self, players: Sequence[str], tricks: Sequence[tuple[str, Sequence[str]]]) -> dict:
        """The counts per player from played tricks ``(winner, cards)`` (the simulator)."""
        out = dict.fromkeys(players, 0)
        if self.counts == TRICKS:
            for winner, _ in tricks:
                out[winner] += 1
        elif self.counts == LAST_TWO:
            for winner, _ in tricks[-2:]:
                out[winner] += 1
        elif self.counts == CARDS:
            for winner, cards in tricks:
                out[winner] += sum(1 for c in cards if self.is_card(c))
        else:
            raise ValueError("Domino is not played in tricks")
        return out


CONTRACTS: dict[str, Contract] = {
    code: Contract(code, counts)
    for code, counts in [
        ("NF", TRICKS),
        ("NH", CARDS),
        ("NQ", CARDS),
        ("NJK", CARDS),
        ("NKH", CARDS),
        ("NU2", LAST_TWO),
        ("N8D", CARDS),
        ("P7H", CARDS),
        ("NKQJ10", CARDS),
        ("U2", LAST_TWO),
        ("DOMINO", CARDS_LEFT),
        ("DICH", TRICKS),
        ("ASTA", TRICKS),
        ("RECUP", TRICKS),
    ]
}
