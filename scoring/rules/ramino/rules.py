"""The Ramino 101 rule set as data (SPEC-ramino §9): defaults, a club's edits, their checks."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path
from typing import Any

from ..calendar import CALENDAR, calendar_errors
from ..problems import Problem, RuleViolation, Said, gettext_noop

DEFAULT_PATH = Path(__file__).with_name("ramino-101.json")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = 4
CLOSE_CODES = ("NORMALE", "COLORE", "FIGURA", "DUE_CARTE", "SCALA_REALE", "POKERISSIMO")
CLOSE_TARGETS = ("CLOSER", "OTHERS")
SHORT_DECK = gettext_noop("regolamento: il mazzo non basta per servire ogni giocatore")
LEAGUE_POINTS = ("PLAYERS_BEATEN",)


@cache
def default_rules_dict() -> dict[str, Any]:
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class RaminoRules:
    """A checked Ramino rule set. Every number of the engine comes from here."""

    table_sizes: tuple[int, int]
    cards_per_hand: int
    decks: int
    jokers: int
    card_values: Mapping[str, int]
    elimination: int
    close_values: Mapping[str, int]
    close_values_to: str
    two_card_close: str
    two_card_max: int
    instant_wins: tuple[str, ...]
    reentries_per_player: int
    reentry_min_in: int
    reentry_fee: Decimal
    league_points: str

    @property
    def min_players(self) -> int:
        return self.table_sizes[0]

    @property
    def max_players(self) -> int:
        return self.table_sizes[1]

    @property
    def max_penalty(self) -> int:
        """The most ``cards_per_hand`` uncombined cards of the deck can be worth (SPEC §2)."""
        values = [self.card_values["JOKER"]] * self.jokers
        for rank in RANKS:
            values += [self.card_values[rank]] * (SUITS * self.decks)
        return sum(sorted(values, reverse=True)[: self.cards_per_hand])

    @property
    def two_card_min(self) -> int:
        """The least two cards can be worth (A + A with the ace at 1)."""
        return 2 * min(self.card_values[r] for r in RANKS)

    def close_value(self, close: str) -> int:
        return self.close_values.get(close, 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "table_sizes": list(self.table_sizes),
            "cards_per_hand": self.cards_per_hand,
            "decks": self.decks,
            "jokers": self.jokers,
            "card_values": dict(self.card_values),
            "elimination": self.elimination,
            "close_values": dict(self.close_values),
            "close_values_to": self.close_values_to,
            "two_card_close": self.two_card_close,
            "two_card_max": self.two_card_max,
            "instant_wins": list(self.instant_wins),
            "reentries_per_player": self.reentries_per_player,
            "reentry_min_in": self.reentry_min_in,
            "reentry_fee": str(self.reentry_fee),
            "league_points": self.league_points,
        }


def build_rules(edits: Mapping[str, Any] | None = None) -> RaminoRules:
    """The defaults with ``edits`` applied; RuleViolation (code ``RULES``) naming every bad key."""
    problems: list[Problem] = []

    def bad(key: str, message: str, **params: Any) -> None:
        """One RULES problem naming ``key``; ``message`` marked with gettext_noop, its values
        in ``params``, or a Said (the calendar's) kept as it is."""
        said = message if isinstance(message, Said) else Said(message, params)
        problems.append(
            Problem.said(
                "RULES",
                gettext_noop("regolamento, %(key)s: %(message)s"),
                {"key": key, "message": said},
                field="rules",
            )
        )

    data = dict(default_rules_dict())
    if edits is not None and not isinstance(edits, Mapping):
        raise RuleViolation(
            [Problem.said("RULES", gettext_noop("regolamento: deve essere un oggetto"))]
        )
    for key, value in (edits or {}).items():
        if key == CALENDAR:  # every game's table (dates, one turno a day)
            for k, m in calendar_errors(value):
                bad(k, m)
        elif key not in data:
            bad(str(key), gettext_noop("chiave sconosciuta"))
        elif key in ("card_values", "close_values") and isinstance(value, Mapping):
            data[key] = {**data[key], **value}
        else:
            data[key] = value

    sizes = data["table_sizes"]
    if not (isinstance(sizes, list) and len(sizes) == 2 and all(_is_int(s) for s in sizes)) or not (
        2 <= sizes[0] <= sizes[1] <= 8
    ):
        bad("table_sizes", gettext_noop("servono due interi [minimo, massimo] tra 2 e 8"))
        sizes = [2, 5]
    for key, low, high in (
        ("cards_per_hand", 2, 20),
        ("decks", 1, 4),
        ("jokers", 0, 16),
        ("elimination", 1, 10_000),
        ("two_card_max", 0, 100),
        ("reentries_per_player", 0, 10),
        ("reentry_min_in", 1, 8),
    ):
        if not _is_int(data[key]) or not low <= data[key] <= high:
            bad(
                key,
                gettext_noop("deve essere un intero tra %(low)s e %(high)s"),
                low=low,
                high=high,
            )
            data[key] = default_rules_dict()[key]
    values = data["card_values"]
    if not isinstance(values, Mapping) or set(values) != {*RANKS, "JOKER"}:
        bad("card_values", gettext_noop("servono i valori di A, 2…10, J, Q, K e JOKER"))
        values = default_rules_dict()["card_values"]
    elif not all(_is_int(v) and 0 <= v <= 100 for v in values.values()):
        bad("card_values", gettext_noop("ogni valore deve essere un intero tra 0 e 100"))
        values = default_rules_dict()["card_values"]
    closes = data["close_values"]
    if not isinstance(closes, Mapping) or not set(closes) <= set(CLOSE_CODES):
        bad(
            "close_values",
            gettext_noop("chiusure ammesse: %(codes)s"),
            codes=", ".join(CLOSE_CODES),
        )
        closes = default_rules_dict()["close_values"]
    elif not all(_is_int(v) and 0 <= v <= 1000 for v in closes.values()):
        bad("close_values", gettext_noop("ogni valore deve essere un intero tra 0 e 1000"))
        closes = default_rules_dict()["close_values"]
    if data["close_values_to"] not in CLOSE_TARGETS:
        bad(
            "close_values_to",
            gettext_noop("deve essere uno di %(codes)s"),
            codes=", ".join(CLOSE_TARGETS),
        )
    if data["two_card_close"] not in CLOSE_CODES:
        bad("two_card_close", gettext_noop("chiusura sconosciuta"))
    wins = data["instant_wins"]
    if not isinstance(wins, list) or not all(w in CLOSE_CODES for w in wins):
        bad(
            "instant_wins",
            gettext_noop("chiusure ammesse: %(codes)s"),
            codes=", ".join(CLOSE_CODES),
        )
        wins = default_rules_dict()["instant_wins"]
    elif data["two_card_close"] in wins or set(wins) & set(closes):
        bad(
            "instant_wins",
            gettext_noop("una chiusura che vince la partita non ha un valore in punti"),
        )
    try:
        fee = Decimal(str(data["reentry_fee"]))
        if not fee.is_finite() or fee < 0 or isinstance(data["reentry_fee"], bool | float):
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        bad(
            "reentry_fee",
            gettext_noop('deve essere un importo decimale ≥ 0 scritto come testo, es. "1.00"'),
        )
        fee = Decimal("1.00")
    if data["league_points"] not in LEAGUE_POINTS:
        bad(
            "league_points",
            gettext_noop("deve essere uno di %(codes)s"),
            codes=", ".join(LEAGUE_POINTS),
        )
    if problems:
        raise RuleViolation(problems)
    rules = RaminoRules(
        table_sizes=(sizes[0], sizes[1]),
        cards_per_hand=data["cards_per_hand"],
        decks=data["decks"],
        jokers=data["jokers"],
        card_values=dict(values),
        elimination=data["elimination"],
        close_values=dict(closes),
        close_values_to=data["close_values_to"],
        two_card_close=data["two_card_close"],
        two_card_max=data["two_card_max"],
        instant_wins=tuple(wins),
        reentries_per_player=data["reentries_per_player"],
        reentry_min_in=data["reentry_min_in"],
        reentry_fee=fee.quantize(Decimal("0.01")),
        league_points=data["league_points"],
    )
    cards_in_deck = rules.jokers + len(RANKS) * SUITS * rules.decks
    if rules.cards_per_hand * rules.max_players > cards_in_deck:
        raise RuleViolation([Problem.said("RULES", SHORT_DECK)])
    return rules


@cache
def ramino_101() -> RaminoRules:
    return build_rules()
