"""The Skat rule set as data (SPEC-skat §10): every number the engine reads, with its checks.

``skat-isko.json`` holds the defaults; a club edits a copy (a partial dict of the keys it changes,
nested tables merged key by key) and :func:`skat_rules` checks every key at once, raising
:class:`RuleViolation` with one ``RULES`` problem per bad key.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ..calendar import CALENDAR, calendar_errors
from ..problems import Problem, RuleViolation, Said, gettext_noop

DEFAULT_PATH = Path(__file__).with_name("skat-isko.json")
CODE = "skat-isko"

SUITS = ("DIAMONDS", "HEARTS", "SPADES", "CLUBS")
GRAND = "GRAND"
NULL = "NULL"
GAMES = (*SUITS, GRAND, NULL)

# The Italian names of the games, as the club writes them (SPEC-skat §3).
GAME_NAMES = {
    "DIAMONDS": "Quadri",
    "HEARTS": "Cuori",
    "SPADES": "Picche",
    "CLUBS": "Fiori",
    "GRAND": "Gioco grande",
    "NULL": "Gioco a zero",
}

# The levels a suit or grand game can add above the matadors (game, hand, schneider, schneider
# announced, schwarz, schwarz announced, ouvert): the highest multiplier is max matadors + 7.
EXTRA_LEVELS = 7
NULL_KINDS = ("plain", "hand", "ouvert", "ouvert_hand")

# The rule-set options where the Skat world's references read differently (SPEC-skat §6; the
# defaults are the SPEC's): the value of each, first the default of ``skat-isko``.
#: a suit or grand game lost because an announced schneider or schwarz was missed: ``double``
#: (SPEC-skat §6.4 "every lost game counts double": Grand hand with 4, schneider announced,
#: 89 card points = −2 × 192 = −384) or ``single`` (counted once: −192)
MISSED_ANNOUNCEMENT = ("double", "single")
#: a Null announced whose fixed value is below the bid: ``invalid`` (SPEC-skat §6.3 and §11
#: ``NULL_BID``: the record is refused) or ``overbid`` (JSkat's ``NullRule.isGameWon``: lost
#: whatever the tricks, charged −2 × the Null's value: Null ouvert at a bid of 48 = −92)
NULL_BELOW_BID = ("invalid", "overbid")


def _load_defaults() -> dict[str, Any]:
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


_DEFAULTS = _load_defaults()


def default_rules_dict() -> dict[str, Any]:
    """The default rule set ``skat-isko`` as plain data (a fresh copy)."""
    return copy.deepcopy(_DEFAULTS)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class SkatRules:
    """A checked Skat rule set. Build it with :func:`skat_rules`; read it, never mutate it."""

    code: str
    name: str
    table_sizes: tuple[int, ...]
    games_per_list: Mapping[int, int]
    base_values: Mapping[str, int]
    null_values: Mapping[str, int]
    max_matadors: Mapping[str, int]
    total_points: int
    tricks: int
    win_points: int
    schneider_points: int
    declarer_schneider_points: int
    skat_max_points: int
    lost_factor: int
    won_bonus: int
    lost_bonus: int
    opponents_bonus: Mapping[int, int]
    sitting_out_bonus: bool
    penalties_allowed: bool
    missed_announcement: str = MISSED_ANNOUNCEMENT[0]
    null_below_bid: str = NULL_BELOW_BID[0]
    interpretation: tuple[str, ...] = ()

    def max_matadors_of(self, game: str) -> int:
        return self.max_matadors["grand" if game == GRAND else "suit"]

    def null_value(self, hand: bool, ouvert: bool) -> int:
        kind = ("ouvert_hand" if hand else "ouvert") if ouvert else ("hand" if hand else "plain")
        return self.null_values[kind]

    @cached_property
    def legal_bids(self) -> tuple[int, ...]:
        """Every value some game can have, ascending (SPEC-skat §3): 18, 20, 22, 23 … 264."""
        values = {
            base * m
            for game, base in self.base_values.items()
            for m in range(2, self.max_matadors_of(game) + EXTRA_LEVELS + 1)
        }
        values.update(self.null_values.values())
        return tuple(sorted(values))

    def to_dict(self) -> dict[str, Any]:
        """The rule set as the JSON data it was built from (keys as in ``skat-isko.json``)."""
        return {
            "code": self.code,
            "name": self.name,
            "table_sizes": list(self.table_sizes),
            "games_per_list": {str(n): g for n, g in self.games_per_list.items()},
            "base_values": dict(self.base_values),
            "null_values": dict(self.null_values),
            "max_matadors": dict(self.max_matadors),
            "total_points": self.total_points,
            "tricks": self.tricks,
            "win_points": self.win_points,
            "schneider_points": self.schneider_points,
            "declarer_schneider_points": self.declarer_schneider_points,
            "skat_max_points": self.skat_max_points,
            "lost_factor": self.lost_factor,
            "won_bonus": self.won_bonus,
            "lost_bonus": self.lost_bonus,
            "opponents_bonus": {str(n): b for n, b in self.opponents_bonus.items()},
            "sitting_out_bonus": self.sitting_out_bonus,
            "penalties_allowed": self.penalties_allowed,
            "missed_announcement": self.missed_announcement,
            "null_below_bid": self.null_below_bid,
            "interpretation": list(self.interpretation),
        }


def _merge(base: dict[str, Any], edits: Mapping[str, Any]) -> dict[str, Any]:
    """The defaults with a club's edits; a nested table is merged key by key."""
    out = copy.deepcopy(base)
    for key, value in edits.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = copy.deepcopy(value)
    return out


class _Checker:
    """Collects one RULES problem per bad key while reading the merged data."""

    def __init__(self, data: Mapping[str, Any]):
        self.data = data
        self.problems: list[Problem] = []

    def bad(self, key: str, message: str, **params: Any) -> None:
        """One RULES problem naming ``key``; ``message`` marked with gettext_noop, its values in
        ``params``, or a Said (the calendar's) kept as it is."""
        said = message if isinstance(message, Said) else Said(message, params)
        self.problems.append(
            Problem.said("RULES", "%(key)s: %(message)s", {"key": key, "message": said}, field=key)
        )

    def int_(self, key: str, low: int | None = None, value: Any = None) -> int:
        v = self.data.get(key) if value is None else value
        if not _is_int(v) or (low is not None and v < low):
            if low is None:
                self.bad(
                    key, gettext_noop("deve essere un numero intero (trovato %(v)s)"), v=repr(v)
                )
            else:
                self.bad(
                    key,
                    gettext_noop("deve essere un numero intero ≥ %(low)s (trovato %(v)s)"),
                    low=low,
                    v=repr(v),
                )
            return low or 0
        return v

    def flag(self, key: str) -> bool:
        v = self.data.get(key)
        if not isinstance(v, bool):
            self.bad(key, gettext_noop("deve essere true o false (trovato %(v)s)"), v=repr(v))
            return False
        return v

    def choice(self, key: str, allowed: tuple[str, ...]) -> str:
        v = self.data.get(key)
        if v not in allowed:
            self.bad(
                key,
                gettext_noop("deve essere uno di %(allowed)s (trovato %(v)s)"),
                allowed=", ".join(allowed),
                v=repr(v),
            )
            return allowed[0]
        return v

    def table(
        self, key: str, keys: tuple[str, ...], low: int, allowed: tuple[str, ...] = ()
    ) -> dict[str, int]:
        """The integer table ``key``: every one of ``keys`` required, others of ``allowed``
        tolerated (a table size the club switched off keeps its number)."""
        v = self.data.get(key)
        if not isinstance(v, Mapping):
            self.bad(key, gettext_noop("deve essere una tabella"))
            return {k: low for k in keys}
        extra = sorted(set(v) - set(keys) - set(allowed))
        if extra:
            self.bad(
                key,
                gettext_noop("chiavi sconosciute %(extra)s (ammesse: %(allowed)s)"),
                extra=str(extra),
                allowed=", ".join(allowed or keys),
            )
        return {k: self.int_(f"{key}.{k}", low, v.get(k)) for k in keys}


def skat_rules(edits: Mapping[str, Any] | None = None) -> SkatRules:
    """The rule set: the defaults of ``skat-isko.json`` with ``edits`` applied, every key checked.

    Raises RuleViolation with one ``RULES`` problem per bad key (Italian message naming it).
    """
    if edits is not None and not isinstance(edits, Mapping):
        raise RuleViolation(
            [Problem.said("RULES", gettext_noop("il regolamento deve essere una tabella"))]
        )
    data = _merge(_DEFAULTS, edits or {})
    c = _Checker(data)
    for key, message in calendar_errors(data.pop(CALENDAR, None)):  # every game's table
        c.bad(key, message)
    unknown = sorted(set(data) - set(_DEFAULTS))
    for key in unknown:
        c.bad(key, gettext_noop("chiave sconosciuta"))
    code = data.get("code")
    if code != CODE:
        c.bad("code", gettext_noop("deve essere %(code)s"), code=repr(CODE))
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        c.bad("name", gettext_noop("serve un nome"))
        name = CODE

    sizes_raw = data.get("table_sizes")
    sizes: tuple[int, ...] = ()
    if (
        not isinstance(sizes_raw, list)
        or not sizes_raw
        or not all(_is_int(n) and n in (3, 4) for n in sizes_raw)
        or len(set(sizes_raw)) != len(sizes_raw)
    ):
        c.bad("table_sizes", gettext_noop("deve elencare 3 e/o 4 giocatori (5 non è previsto)"))
    else:
        sizes = tuple(sorted(sizes_raw))
    size_keys = tuple(str(n) for n in sizes)
    per_list = c.table("games_per_list", size_keys, 1, allowed=("3", "4"))
    bonus = c.table("opponents_bonus", size_keys, 0, allowed=("3", "4"))
    bases = c.table("base_values", (*SUITS, GRAND), 1)
    nulls = c.table("null_values", NULL_KINDS, 1)
    matadors = c.table("max_matadors", ("suit", "grand"), 1)

    total = c.int_("total_points", 1)
    tricks = c.int_("tricks", 1)
    win = c.int_("win_points", 1)
    schneider = c.int_("schneider_points", 1)
    own_schneider = c.int_("declarer_schneider_points", 0)
    skat_max = c.int_("skat_max_points", 0)
    if not own_schneider < win <= schneider <= total:
        c.bad(
            "win_points",
            gettext_noop(
                "deve valere declarer_schneider_points < win_points ≤ schneider_points ≤ "
                "total_points (%(own)s < %(win)s ≤ %(schneider)s ≤ %(total)s)"
            ),
            own=own_schneider,
            win=win,
            schneider=schneider,
            total=total,
        )
    if skat_max > total:
        c.bad(
            "skat_max_points",
            gettext_noop("non può superare total_points (%(total)s)"),
            total=total,
        )
    lost_factor = c.int_("lost_factor", 1)
    won_bonus = c.int_("won_bonus", 0)
    lost_bonus = c.int_("lost_bonus")
    if lost_bonus > 0:
        c.bad("lost_bonus", gettext_noop("deve essere ≤ 0 (trovato %(v)s)"), v=lost_bonus)
    sitting_out = c.flag("sitting_out_bonus")
    penalties = c.flag("penalties_allowed")
    missed = c.choice("missed_announcement", MISSED_ANNOUNCEMENT)
    null_below = c.choice("null_below_bid", NULL_BELOW_BID)
    interp = data.get("interpretation", [])
    if not isinstance(interp, list) or not all(isinstance(k, str) for k in interp):
        c.bad("interpretation", gettext_noop("deve essere una lista di chiavi"))
        interp = []
    if c.problems:
        raise RuleViolation(c.problems)
    return SkatRules(
        code=CODE,
        name=name,
        table_sizes=sizes,
        games_per_list={int(k): v for k, v in per_list.items()},
        base_values=bases,
        null_values=nulls,
        max_matadors=matadors,
        total_points=total,
        tricks=tricks,
        win_points=win,
        schneider_points=schneider,
        declarer_schneider_points=own_schneider,
        skat_max_points=skat_max,
        lost_factor=lost_factor,
        won_bonus=won_bonus,
        lost_bonus=lost_bonus,
        opponents_bonus={int(k): v for k, v in bonus.items()},
        sitting_out_bonus=sitting_out,
        penalties_allowed=penalties,
        missed_announcement=missed,
        null_below_bid=null_below,
        interpretation=tuple(interp),
    )
