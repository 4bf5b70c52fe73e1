"""The rule set: every number and threshold of SPEC.md §1-§8, as data.

The engine reads nothing else. A club copies the default ("caf") and edits it; the edited copy
travels as a plain dict (JSON) via :meth:`RuleSet.to_dict` / :meth:`RuleSet.from_dict`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any

from ..calendar import CALENDAR, calendar_errors
from ..problems import Problem, Said, gettext_noop, said

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
# what the segretario counts per player, as the club says it (SPEC §2): the live screen's unit
COUNT_UNITS = {
    COUNT_JACKS: gettext_noop("fanti"),
    COUNT_KINGS: gettext_noop("re"),
    COUNT_JACKS_KINGS: gettext_noop("fanti e re"),
    COUNT_QUEEN_SPADES: gettext_noop("donna di picche (1 = presa)"),
    COUNT_HEARTS: gettext_noop("cuori"),
    COUNT_LAST_TWO: gettext_noop("ultime due mani"),
    COUNT_TRICKS: gettext_noop("mani"),
    COUNT_CARDS_LEFT: gettext_noop("carte in mano"),
}

SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "picche", "H": "cuori", "D": "quadri", "C": "fiori"}  # the Verbale's words
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# How the club writes each game where not by its code: code -> (text, suit shown after the text
# as its symbol): ``NQ♠``, ``N♥``, ``Domino``; never translated
GAME_TEXT: dict[str, tuple[str, str]] = {
    "NQS": ("NQ", "S"),
    "NH": ("N", "H"),
    "DOMINO": ("Domino", ""),
    "SEMPLICE": ("Semplice", ""),
    "BRISCOLA": ("Briscola", ""),
}
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
# the titles as the documents name them (proper names: never translated) and abbreviate them
TITLE_LABELS = {
    "SCUDETTO": "Scudetto",
    "COPPA_CAMPIONI": "Coppa dei Campioni",
    "INTERCONTINENTALE": "Coppa Intercontinentale",
    "UEFA": "Coppa UEFA",
    "MITROPA": "Mitropa Cup",
    "COPPA_ITALIA": "Coppa Italia",
    "RETROCESSIONE": "Retrocessione",
    "RETROCESSIONE_CONTATORE": "Retrocessione per contatore",
}
TITLE_SHORT = {
    "SCUDETTO": "Scu",
    "COPPA_CAMPIONI": "CdC",
    "INTERCONTINENTALE": "Int",
    "UEFA": "UEFA",
    "MITROPA": "Mit",
    "COPPA_ITALIA": "CI",
    "RETROCESSIONE": "Retr",
    "RETROCESSIONE_CONTATORE": "RetrC",
}

DEFAULT_PATH = Path(__file__).with_name("caf.json")


class RuleSetError(ValueError):
    """The rule set itself is malformed: ``key`` the key path it names ("games.NJ.per_unit"; ""
    for the whole table), ``said`` the sentence (a :class:`~..problems.Said`, translated where it
    is shown). ``str()`` is the Italian line, ``key: sentence``."""

    def __init__(self, key: str, message: Said):
        self.key = key
        self.said = message
        super().__init__(f"{key}: {message}" if key else str(message))

    def problem(self, code: str = "RULES", **kw: Any) -> Problem:
        """The error as the problem a rule-set check of every game reports: "regolamento, key:
        sentence", naming the field as the form labels it (a season's "regolamento")."""
        if not self.key:
            template = gettext_noop("regolamento: %(message)s")
            return Problem.said(code, template, {"message": self.said}, **kw)
        template = gettext_noop("regolamento, %(key)s: %(message)s")
        return Problem.said(code, template, {"key": self.key, "message": self.said}, **kw)


# -- the shape of an edited rule set, checked before anything reads it -------------------------
ROUNDINGS = (
    "ROUND_FLOOR",
    "ROUND_DOWN",
    "ROUND_CEILING",
    "ROUND_UP",
    "ROUND_HALF_UP",
    "ROUND_HALF_DOWN",
    "ROUND_HALF_EVEN",
    "ROUND_05UP",
)
POINT_LIMIT = 500  # per unit, fixed, cappotto, Domino winner: a smazzata's points stay small
TITLE_LIMIT = Decimal(1000)
MAX_TABLE = 7  # seats at one table

AN_OBJECT = gettext_noop("deve essere un oggetto")
TRUE_OR_FALSE = gettext_noop("deve essere true o false")
ONE_OF = gettext_noop("deve essere uno di %(codes)s")
PHASES = f"{NEGATIVE}, {POSITIVE}"


def _need(ok: bool, where: str, what: str, **params: Any) -> None:
    """Refuses the rule set unless ``ok``: ``what`` (marked with gettext_noop) % ``params``."""
    if not ok:
        raise RuleSetError(where, Said(what, params))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(d: dict, key: str, where: str, low: int, high: int, optional: bool = True) -> None:
    if key not in d or (optional and d[key] is None):
        _need(optional, f"{where}.{key}", gettext_noop("manca"))
        return
    v = d[key]
    between = gettext_noop("deve essere un intero tra %(low)s e %(high)s")
    _need(_is_int(v) and low <= v <= high, f"{where}.{key}", between, low=low, high=high)


def _text_value(v: Any, where: str, limit: int = 60) -> None:
    _need(v is not None, where, gettext_noop("manca"))
    ok = isinstance(v, str) and len(v.strip()) > 0 and len(v) <= limit and "\x00" not in v
    text = gettext_noop("deve essere un testo di al massimo %(limit)s caratteri")
    _need(ok, where, text, limit=limit)


def json_strings(obj: Any):
    """Every key and string value of a JSON value."""
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, str):
            yield o
        elif isinstance(o, dict):
            yield from (k for k in o if isinstance(k, str))
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)


def _str_list(v: Any, where: str) -> None:
    ok = isinstance(v, list) and all(isinstance(x, str) for x in v)
    _need(ok, where, gettext_noop("deve essere un elenco di testi"))


def _check_threshold(t: Any, where: str) -> None:
    if _is_int(t):
        between = gettext_noop("deve essere un intero tra %(low)s e %(high)s")
        _need(abs(t) <= 52, where, between, low=-52, high=52)
        return
    _need(isinstance(t, dict), where, gettext_noop("deve essere un intero o un oggetto"))
    _int(t, "offset", where, -52, 52)
    frac = t.get("hand_fraction", 0)
    try:
        ok = isinstance(frac, int | str) and not isinstance(frac, bool) and len(str(frac)) <= 12
        ok = ok and 0 <= Fraction(frac) <= 1
    except (ValueError, ZeroDivisionError):
        ok = False
    fraction = gettext_noop('deve essere una frazione tra 0 e 1, come "1/2"')
    _need(ok, f"{where}.hand_fraction", fraction)


def _check_game(code: Any, g: Any, where: str) -> None:
    ok = isinstance(code, str) and 0 < len(code) <= 16
    _need(ok, where, gettext_noop("il codice di un gioco ha da 1 a 16 caratteri"))
    _need(isinstance(g, dict), where, AN_OBJECT)
    _text_value(g.get("name"), f"{where}.name")
    _need(g.get("phase") in (NEGATIVE, POSITIVE), f"{where}.phase", ONE_OF, codes=PHASES)
    _need(g.get("counts") in COUNTS, f"{where}.counts", ONE_OF, codes=", ".join(COUNTS))
    _int(g, "per_unit", where, -POINT_LIMIT, POINT_LIMIT, optional=False)
    for key in ("winner_points", "cappotto"):
        _int(g, key, where, -POINT_LIMIT, POINT_LIMIT)
    _need(isinstance(g.get("trump", False), bool), f"{where}.trump", TRUE_OR_FALSE)
    sc = g.get("scazzata")
    if sc:
        _need(isinstance(sc, dict), f"{where}.scazzata", AN_OBJECT)
        for key in ("per_unit", "fixed"):
            _int(sc, key, f"{where}.scazzata", -POINT_LIMIT, POINT_LIMIT)
        for key in ("at_least", "at_most"):
            if sc.get(key) is not None:
                _check_threshold(sc[key], f"{where}.scazzata.{key}")


def mitropa_default(codes: Sequence[str]) -> str:
    """The series the Mitropa Cup is won from when the rule set does not say: the second of the
    ladder (B in C.A.F.'s, SPEC §7), the only one of a one-series ladder (no promotion there)."""
    return codes[1] if len(codes) > 1 else codes[0]


def check_ruleset_shape(d: Any) -> None:
    """Every key of an edited rule set has the type and range the engine reads (or is absent
    where the rule set has a default): :class:`RuleSetError` naming the first key that is not."""
    _need(isinstance(d, dict), "", gettext_noop("deve essere un oggetto JSON"))
    # PostgreSQL's jsonb refuses NUL characters: no text of the rule set may hold one
    nul = gettext_noop("un testo contiene il carattere NUL")
    _need(not any("\x00" in t for t in json_strings(d)), "", nul)
    _text_value(d.get("code"), "code", 20)
    _text_value(d.get("name"), "name")
    decks = d.get("decks")
    _need(
        isinstance(decks, dict) and bool(decks),
        "decks",
        gettext_noop("deve essere un oggetto: numero di giocatori → carte tolte"),
    )
    cards = {r + s for s in SUITS for r in RANKS}
    for n, removed in decks.items():
        ok = n.isdigit() and 2 <= int(n) <= MAX_TABLE
        players = gettext_noop("un mazzo è per un tavolo da 2 a %(high)s giocatori")
        _need(ok, f"decks.{n}", players, high=MAX_TABLE)
        _str_list(removed, f"decks.{n}")
        named = gettext_noop('deve elencare carte come "2D", "10H", "QS"')
        _need(set(removed) <= cards, f"decks.{n}", named)
    games = d.get("games")
    _need(
        isinstance(games, dict) and bool(games),
        "games",
        gettext_noop("deve essere un oggetto: codice → gioco"),
    )
    for code, g in games.items():
        _check_game(code, g, f"games.{code}")
    if d.get("game_order") is not None:
        _str_list(d["game_order"], "game_order")
    ratio = d.get("ratio", {})
    _need(isinstance(ratio, dict), "ratio", AN_OBJECT)
    _int(ratio, "places", "ratio", 0, 4)
    rounding = ratio.get("rounding", ROUNDINGS[0])
    _need(rounding in ROUNDINGS, "ratio.rounding", ONE_OF, codes=", ".join(ROUNDINGS))
    _need(
        ratio.get("negative_winner", "inverse") in ("inverse", "direct"),
        "ratio.negative_winner",
        ONE_OF,
        codes="inverse, direct",
    )
    zero = ratio.get("zero_winner", "zero_only")
    _need(zero == "zero_only", "ratio.zero_winner", ONE_OF, codes="zero_only")
    league = d.get("league")
    _need(isinstance(league, dict), "league", AN_OBJECT)
    series = league.get("series")
    _need(
        isinstance(series, list) and bool(series),
        "league.series",
        gettext_noop("deve essere un elenco non vuoto"),
    )
    for i, s in enumerate(series):
        _need(isinstance(s, dict), f"league.series[{i}]", AN_OBJECT)
        _text_value(s.get("code"), f"league.series[{i}].code", 8)
        _text_value(s.get("label"), f"league.series[{i}].label", 40)
        amateur = s.get("amateur", False)
        _need(isinstance(amateur, bool), f"league.series[{i}].amateur", TRUE_OR_FALSE)
    codes = [s["code"] for s in series]
    repeated = gettext_noop("due serie hanno lo stesso codice")
    _need(len(set(codes)) == len(codes), "league.series", repeated)
    defaults = {"start_series": codes[0], "mitropa_from": mitropa_default(codes)}
    for key in ("start_series", "mitropa_from"):
        listed = gettext_noop("deve essere una serie dell'elenco (%(codes)s)")
        ok = league.get(key, defaults[key]) in codes
        _need(ok, f"league.{key}", listed, codes=", ".join(codes))
    for key in ("scudetto_series", "uefa_series", "coppa_italia_series"):
        if key in league:
            _str_list(league[key], f"league.{key}")
    _need(
        isinstance(league.get("auto_promotion_when_no_top", True), bool),
        "league.auto_promotion_when_no_top",
        TRUE_OR_FALSE,
    )
    for key in ("second_promoted_min_players", "coppa_campioni_streak", "intercontinentale_streak"):
        _int(league, key, "league", 1, 1000)
    titles = league.get("titles")
    _need(
        isinstance(titles, dict),
        "league.titles",
        gettext_noop("deve essere un oggetto: titolo → valore"),
    )
    for code, v in titles.items():
        _need(code in TITLE_ORDER, f"league.titles.{code}", gettext_noop("titolo sconosciuto"))
        try:
            ok = isinstance(v, str | int | float) and not isinstance(v, bool) and len(str(v)) < 20
            ok = ok and abs(Decimal(str(v))) <= TITLE_LIMIT
            ok = ok and Decimal(str(v)) == Decimal(str(v)).quantize(Decimal("0.01"))
        except ArithmeticError:
            ok = False
        _need(
            ok,
            f"league.titles.{code}",
            gettext_noop("deve essere un numero tra %(low)s e %(high)s, con al massimo 2 decimali"),
            low=-TITLE_LIMIT,
            high=TITLE_LIMIT,
        )
    # the season's calendar (dates, one turno a giornata: fixed by SPEC §8.1), every game's
    for where, what in calendar_errors(d.get(CALENDAR), fixed_one_turno_a_day=True):
        raise RuleSetError(where, what)


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
    def from_dict(cls, d: dict[str, Any], where: str = "scazzata") -> ScazzataRule:
        rule = cls(
            at_least=Threshold.from_dict(d["at_least"]) if d.get("at_least") is not None else None,
            at_most=Threshold.from_dict(d["at_most"]) if d.get("at_most") is not None else None,
            per_unit=d.get("per_unit"),
            fixed=d.get("fixed"),
        )
        if (rule.per_unit is None) == (rule.fixed is None):
            one = gettext_noop("serve uno solo fra per_unit e fixed")
            raise RuleSetError(where, said(one))
        if rule.at_least is None and rule.at_most is None:
            raise RuleSetError(where, said(gettext_noop("serve at_least o at_most")))
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
        _need(d["phase"] in (NEGATIVE, POSITIVE), f"games.{code}.phase", ONE_OF, codes=PHASES)
        _need(d["counts"] in COUNTS, f"games.{code}.counts", ONE_OF, codes=", ".join(COUNTS))
        return cls(
            code=code,
            name=d["name"],
            phase=d["phase"],
            counts=d["counts"],
            per_unit=int(d["per_unit"]),
            winner_points=d.get("winner_points"),
            scazzata=(
                ScazzataRule.from_dict(d["scazzata"], f"games.{code}.scazzata")
                if d.get("scazzata")
                else None
            ),
            cappotto=d.get("cappotto"),
            trump=bool(d.get("trump", False)),
        )

    def unit(self) -> str:
        """What is counted per player, as the live screen names it (a text to translate)."""
        return COUNT_UNITS[self.counts]

    def check(self, deck: Deck) -> dict[str, Any]:
        """What the live screen's running check of the counts needs, the totals the engine
        checks: ``{"kind": "sum", "total": what the counts add up to, "unit"}``, or for Domino
        ``{"kind": "one_zero", "total": the cards of a hand, "unit"}`` (exactly one 0)."""
        kind = "one_zero" if self.counts == COUNT_CARDS_LEFT else "sum"
        total = deck.hand if kind == "one_zero" else deck.count_of(self.counts)
        return {"kind": kind, "total": total, "unit": self.unit()}

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
        check_ruleset_shape(d)
        try:
            decks = {int(n): Deck(int(n), tuple(r)) for n, r in d["decks"].items()}
            for deck in decks.values():
                where = f"decks.{deck.players}"
                small = gettext_noop("il mazzo è troppo piccolo: servono almeno 2 carte a testa")
                _need(deck.players >= 2 and deck.hand >= 2, where, small)
                uneven = gettext_noop(
                    "%(cards)s carte non si distribuiscono in parti uguali a %(players)s giocatori"
                )
                ok = not len(deck.cards) % deck.players
                _need(ok, where, uneven, cards=len(deck.cards), players=deck.players)
            # the order of the games (SPEC §2) is data too: jsonb does not keep key order
            order = d.get("game_order") or list(d["games"])
            every = gettext_noop("deve elencare ogni gioco una volta")
            _need(sorted(order) == sorted(d["games"]), "game_order", every)
            games = {code: GameRule.from_dict(code, d["games"][code]) for code in order}
            ratio = d.get("ratio", {})
            league = d.get("league", {})
            series = tuple(
                Series(s["code"], s["label"], bool(s.get("amateur", False)))
                for s in league["series"]
            )
            titles = {k: Decimal(str(v)) for k, v in league["titles"].items()}
            missing = set(TITLE_ORDER) - set(titles)
            without = gettext_noop("manca il valore di %(codes)s")
            _need(not missing, "league.titles", without, codes=", ".join(sorted(missing)))
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
                mitropa_from=league.get("mitropa_from", mitropa_default([s.code for s in series])),
                coppa_campioni_streak=int(league.get("coppa_campioni_streak", 2)),
                intercontinentale_streak=int(league.get("intercontinentale_streak", 3)),
                raw=copy.deepcopy(d),
            )
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
            if isinstance(exc, RuleSetError):
                raise
            malformed = gettext_noop("dati mancanti o del tipo sbagliato (%(error)s)")
            raise RuleSetError("", said(malformed, error=repr(exc))) from exc
        codes = rs.series_codes()
        listed = gettext_noop("deve essere una serie dell'elenco (%(codes)s)")
        for name in ("start_series", "mitropa_from"):
            _need(getattr(rs, name) in codes, f"league.{name}", listed, codes=", ".join(codes))
        both = gettext_noop("servono giochi negative e giochi positive")
        _need(bool(rs.negative_games and rs.positive_games), "games", both)
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
            # the calendar, when the club set one (scoring.rules.calendar)
            **({CALENDAR: copy.deepcopy(self.raw[CALENDAR])} if CALENDAR in self.raw else {}),
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
        unknown = gettext_noop("regolamento sconosciuto: %(code)s")
        raise RuleSetError("", said(unknown, code=repr(code))) from None
