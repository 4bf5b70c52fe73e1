"""The rule set: every number and threshold of SPEC.md §1-§8, as data.

The engine reads nothing else. A club copies the default ("caf") and edits it; the edited copy
travels as a plain dict (JSON) via :meth:`RuleSet.to_dict` / :meth:`RuleSet.from_dict`.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any

NEGATIVE = "negative"
POSITIVE = "positive"

# What a game counts, per player. The total a deal must add up to follows from the deck.
COUNT_JACKS = "jacks"
COUNT_KINGS = "kings"
COUNT_JACKS_KINGS = "jacks_kings"
COUNT_QUEEN_SPADES = "queen_spades"
COUNT_HEARTS = "hearts"
COUNT_LAST_TWO = "last_two_tricks"
COUNT_TRICKS = "tricks"
COUNT_CARDS_LEFT = "cards_left"
COUNTS = (
    COUNT_JACKS,
    COUNT_KINGS,
    COUNT_JACKS_KINGS,
    COUNT_QUEEN_SPADES,
    COUNT_HEARTS,
    COUNT_LAST_TWO,
    COUNT_TRICKS,
    COUNT_CARDS_LEFT,
)

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")

TITLE_ORDER = (
    "SCUDETTO",
    "COPPA_CAMPIONI",
    "INTERCONTINENTALE",
    "UEFA",
    "MITROPA",
    "COPPA_ITALIA",
    "RETROCESSIONE",
    "RETROCESSIONE_CONTATORE",
)

DEFAULT_PATH = Path(__file__).with_name("caf.json")


class RuleSetError(ValueError):
    """The rule set itself is malformed."""


@dataclass(frozen=True)
class Threshold:
    """``floor(C * hand_fraction) + offset``: a count that may depend on the hand size C."""

    offset: int = 0
    hand_fraction: Fraction = Fraction(0)

    def value(self, hand: int) -> int:
        return (hand * self.hand_fraction.numerator) // self.hand_fraction.denominator + self.offset

    @classmethod
    def from_dict(cls, d: dict[str, Any] | int) -> Threshold:
        if isinstance(d, int):
            return cls(offset=d)
        return cls(
            offset=int(d.get("offset", 0)), hand_fraction=Fraction(d.get("hand_fraction", 0))
        )

    def to_dict(self) -> dict[str, Any]:
        return {"offset": self.offset, "hand_fraction": str(self.hand_fraction)}


@dataclass(frozen=True)
class ScazzataRule:
    """When the chiamante of a voluntary call misses the minimum objective (SPEC §5).

    The chiamante's count must be ``>= at_least`` (or ``<= at_most``); the chiamante then scores
    ``per_unit * count`` or ``fixed`` instead of the base points.
    """

    at_least: Threshold | None = None
    at_most: Threshold | None = None
    per_unit: int | None = None
    fixed: int | None = None

    def reached(self, count: int, hand: int) -> bool:
        if self.at_least is not None and count < self.at_least.value(hand):
            return False
        return not (self.at_most is not None and count > self.at_most.value(hand))

    def points(self, count: int) -> int:
        return self.fixed if self.fixed is not None else (self.per_unit or 0) * count

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ScazzataRule:
        rule = cls(
            at_least=Threshold.from_dict(d["at_least"]) if d.get("at_least") is not None else None,
            at_most=Threshold.from_dict(d["at_most"]) if d.get("at_most") is not None else None,
            per_unit=d.get("per_unit"),
            fixed=d.get("fixed"),
        )
        if (rule.per_unit is None) == (rule.fixed is None):
            raise RuleSetError("a scazzata needs exactly one of per_unit and fixed")
        if rule.at_least is None and rule.at_most is None:
            raise RuleSetError("a scazzata needs at_least or at_most")
        return rule

    def to_dict(self) -> dict[str, Any]:
        return {
            "at_least": self.at_least.to_dict() if self.at_least else None,
            "at_most": self.at_most.to_dict() if self.at_most else None,
            "per_unit": self.per_unit,
            "fixed": self.fixed,
        }


@dataclass(frozen=True)
class GameRule:
    code: str
    name: str
    phase: str  # NEGATIVE (played once per turno) or POSITIVE (called once by every player)
    counts: str  # one of COUNTS
    per_unit: int  # points per unit counted (the Domino winner aside)
    winner_points: int | None = None  # Domino: points of the player who went out
    scazzata: ScazzataRule | None = None
    cappotto: int | None = None  # points of every other player when one takes everything
    trump: bool = False  # the call names a trump suit

    @classmethod
    def from_dict(cls, code: str, d: dict[str, Any]) -> GameRule:
        if d["phase"] not in (NEGATIVE, POSITIVE):
            raise RuleSetError(f"{code}: unknown phase {d['phase']!r}")
        if d["counts"] not in COUNTS:
            raise RuleSetError(f"{code}: unknown count {d['counts']!r}")
        return cls(
            code=code,
            name=d["name"],
            phase=d["phase"],
            counts=d["counts"],
            per_unit=int(d["per_unit"]),
            winner_points=d.get("winner_points"),
            scazzata=ScazzataRule.from_dict(d["scazzata"]) if d.get("scazzata") else None,
            cappotto=d.get("cappotto"),
            trump=bool(d.get("trump", False)),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "phase": self.phase,
            "counts": self.counts,
            "per_unit": self.per_unit,
            "winner_points": self.winner_points,
            "scazzata": self.scazzata.to_dict() if self.scazzata else None,
            "cappotto": self.cappotto,
            "trump": self.trump,
        }


@dataclass(frozen=True)
class Deck:
    """The deck for N players: the 52 cards minus ``removed`` (cards like ``"2D"``)."""

    players: int
    removed: tuple[str, ...]

    @cached_property
    def cards(self) -> tuple[str, ...]:
        return tuple(r + s for s in SUITS for r in RANKS if r + s not in self.removed)

    @cached_property
    def hand(self) -> int:
        """C: cards per hand, which is also the number of tricks of a deal."""
        return len(self.cards) // self.players

    def count_of(self, counts: str) -> int:
        """How many units of ``counts`` the deck holds: what a deal's counts add up to."""
        cards = self.cards
        jacks = sum(1 for c in cards if c.startswith("J"))
        kings = sum(1 for c in cards if c.startswith("K"))
        return {
            COUNT_JACKS: jacks,
            COUNT_KINGS: kings,
            COUNT_JACKS_KINGS: jacks + kings,
            COUNT_QUEEN_SPADES: int("QS" in cards),
            COUNT_HEARTS: sum(1 for c in cards if c.endswith("H")),
            COUNT_LAST_TWO: 2,
            COUNT_TRICKS: self.hand,
            COUNT_CARDS_LEFT: self.hand,
        }[counts]


@dataclass(frozen=True)
class Series:
    code: str
    label: str
    amateur: bool


@dataclass(frozen=True)
class RuleSet:
    code: str
    name: str
    decks: dict[int, Deck]
    games: dict[str, GameRule]  # in the order of SPEC §2
    # ratio (SPEC §7)
    ratio_places: int = 2
    ratio_rounding: str = "ROUND_FLOOR"  # a decimal rounding mode; "per difetto"
    ratio_negative_winner: str = "inverse"  # W < 0: W / total
    ratio_zero_winner: str = "zero_only"  # W = 0: 1 for players at 0, 0 for the others
    # series and titles (SPEC §8)
    series: tuple[Series, ...] = ()
    start_series: str = "A"
    auto_promotion_when_no_top: bool = True
    second_promoted_min_players: int = 6
    titles: dict[str, Decimal] = field(default_factory=dict)
    scudetto_series: tuple[str, ...] = ("A",)
    uefa_series: tuple[str, ...] = ("A",)
    coppa_italia_series: tuple[str, ...] = ("A", "B")
    mitropa_from: str = "B"
    coppa_campioni_streak: int = 2
    intercontinentale_streak: int = 3
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    # -- derived -------------------------------------------------------------------------------
    @property
    def min_players(self) -> int:
        return min(self.decks)

    @property
    def max_players(self) -> int:
        return max(self.decks)

    @cached_property
    def negative_games(self) -> tuple[str, ...]:
        return tuple(c for c, g in self.games.items() if g.phase == NEGATIVE)

    @cached_property
    def positive_games(self) -> tuple[str, ...]:
        return tuple(c for c, g in self.games.items() if g.phase == POSITIVE)

    def smazzate_count(self, players: int) -> int:
        """7 + 3N for C.A.F.: every negative game once, every positive game once per player."""
        return len(self.negative_games) + len(self.positive_games) * players

    def deck(self, players: int) -> Deck:
        return self.decks[players]

    def series_codes(self) -> tuple[str, ...]:
        return tuple(s.code for s in self.series)

    def series_index(self, code: str) -> int:
        return self.series_codes().index(code)

    def series_label(self, code: str) -> str:
        return next(s.label for s in self.series if s.code == code)

    def is_amateur(self, code: str) -> bool:
        return next(s.amateur for s in self.series if s.code == code)

    def title_value(self, code: str) -> Decimal:
        return self.titles[code]

    # -- (de)serialisation -----------------------------------------------------------------------
    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RuleSet:
        try:
            decks = {int(n): Deck(int(n), tuple(r)) for n, r in d["decks"].items()}
            for deck in decks.values():
                if not deck.players >= 2 or deck.hand < 2:
                    raise RuleSetError(f"deck for {deck.players} players is too small")
                if len(deck.cards) % deck.players:
                    raise RuleSetError(
                        f"deck for {deck.players} players: {len(deck.cards)} cards "
                        "do not deal evenly"
                    )
            # the order of the games (SPEC §2) is data too: jsonb does not keep key order
            order = d.get("game_order") or list(d["games"])
            if sorted(order) != sorted(d["games"]):
                raise RuleSetError("game_order must list every game once")
            games = {code: GameRule.from_dict(code, d["games"][code]) for code in order}
            ratio = d.get("ratio", {})
            league = d.get("league", {})
            series = tuple(
                Series(s["code"], s["label"], bool(s.get("amateur", False)))
                for s in league["series"]
            )
            titles = {k: Decimal(str(v)) for k, v in league["titles"].items()}
            missing = set(TITLE_ORDER) - set(titles)
            if missing:
                raise RuleSetError(f"titles without a value: {', '.join(sorted(missing))}")
            rs = cls(
                code=d["code"],
                name=d["name"],
                decks=decks,
                games=games,
                ratio_places=int(ratio.get("places", 2)),
                ratio_rounding=ratio.get("rounding", "ROUND_FLOOR"),
                ratio_negative_winner=ratio.get("negative_winner", "inverse"),
                ratio_zero_winner=ratio.get("zero_winner", "zero_only"),
                series=series,
                start_series=league.get("start_series", series[0].code),
                auto_promotion_when_no_top=bool(league.get("auto_promotion_when_no_top", True)),
                second_promoted_min_players=int(league.get("second_promoted_min_players", 6)),
                titles=titles,
                scudetto_series=tuple(league.get("scudetto_series", ("A",))),
                uefa_series=tuple(league.get("uefa_series", ("A",))),
                coppa_italia_series=tuple(league.get("coppa_italia_series", ("A", "B"))),
                mitropa_from=league.get("mitropa_from", "B"),
                coppa_campioni_streak=int(league.get("coppa_campioni_streak", 2)),
                intercontinentale_streak=int(league.get("intercontinentale_streak", 3)),
                raw=copy.deepcopy(d),
            )
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
            if isinstance(exc, RuleSetError):
                raise
            raise RuleSetError(f"malformed rule set: {exc!r}") from exc
        codes = rs.series_codes()
        for name in ("start_series", "mitropa_from"):
            if getattr(rs, name) not in codes:
                raise RuleSetError(f"{name}: unknown series {getattr(rs, name)!r}")
        if not rs.negative_games or not rs.positive_games:
            raise RuleSetError("a rule set needs negative and positive games")
        return rs

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "decks": {str(n): list(d.removed) for n, d in sorted(self.decks.items())},
            "game_order": list(self.games),
            "games": {c: g.to_dict() for c, g in self.games.items()},
            "ratio": {
                "places": self.ratio_places,
                "rounding": self.ratio_rounding,
                "negative_winner": self.ratio_negative_winner,
                "zero_winner": self.ratio_zero_winner,
            },
            "league": {
                "series": [
                    {"code": s.code, "label": s.label, "amateur": s.amateur} for s in self.series
                ],
                "start_series": self.start_series,
                "auto_promotion_when_no_top": self.auto_promotion_when_no_top,
                "second_promoted_min_players": self.second_promoted_min_players,
                "titles": {k: str(v) for k, v in self.titles.items()},
                "scudetto_series": list(self.scudetto_series),
                "uefa_series": list(self.uefa_series),
                "coppa_italia_series": list(self.coppa_italia_series),
                "mitropa_from": self.mitropa_from,
                "coppa_campioni_streak": self.coppa_campioni_streak,
                "intercontinentale_streak": self.intercontinentale_streak,
            },
        }


_DEFAULT: RuleSet | None = None


def default_ruleset_dict() -> dict[str, Any]:
    """The C.A.F. rule set as a fresh dict (a club edits its copy of this)."""
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def caf() -> RuleSet:
    """The default rule set, "C.A.F." (SPEC §1-§8)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = RuleSet.from_dict(default_ruleset_dict())
    return _DEFAULT


KNOWN_RULESETS = {"caf": caf}


def get_ruleset(code: str) -> RuleSet:
    try:
        return KNOWN_RULESETS[code]()
    except KeyError:
        raise RuleSetError(f"unknown rule set {code!r}") from None
