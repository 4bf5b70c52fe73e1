"""The rule sets of the King family as data (SPEC-king-family §0.4, §A.9, §B.9, §C.9).

Each rule set is a JSON file in ``data/``: its table of defaults (``table``, the keys a club
edits), the decks per table size and the fixed order of the negative deals. A season's rules are
the table with a club's edits applied; every bad edit is a ``RULES`` problem naming the key.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..caf.ruleset import RANKS, SUITS
from ..calendar import CALENDAR, calendar_errors
from ..problems import Problem, RuleViolation, Said, gettext_noop, said

DATA = Path(__file__).with_name("data")
CODES = ("king-classico", "king-internazionale", "le-king")

# §0.2: every contract of the family.
CLASSICO_GAMES = ("NQ", "NKH", "NF", "DOMINO", "DICH", "NJK", "N8D", "NH", "NU2", "P7H", "U2")
CLASSICO_GAMES += ("NKQJ10",)
TRUMPS = ("S", "H", "D", "C", "NT")
STANDINGS = ("MATCHPOINTS", "POINTS")
ORDERS = ("ALTERNATE", "NEGATIVES_FIRST", "FREE")


@dataclass(frozen=True)
class Deck:
    """The cards of one table size: C tricks per deal, H hearts."""

    players: int
    cards: tuple[str, ...]

    @property
    def tricks(self) -> int:
        return len(self.cards) // self.players

    @property
    def hearts(self) -> int:
        return sum(1 for c in self.cards if c.endswith("H"))


@dataclass(frozen=True)
class KingRules:
    """A season's rule set: the effective table (defaults with edits) and the fixed data."""

    code: str
    label: str
    table: Mapping[str, Any]
    decks: Mapping[int, Deck]
    sequence: tuple[str, ...]  # the fixed order of the negative deals (internazionale, le-king)

    def __getitem__(self, key: str) -> Any:
        return self.table[key]

    @property
    def points(self) -> Mapping[str, int | None]:
        return self.table["points"]

    @property
    def table_sizes(self) -> tuple[int, ...]:
        return tuple(self.table["table_sizes"])

    def deck(self, players: int) -> Deck:
        return self.decks[players]

    def as_dict(self) -> dict[str, Any]:
        """The effective table, as a club stores its season's copy."""
        return copy.deepcopy(dict(self.table))


@cache
def _file(code: str) -> dict[str, Any]:
    return json.loads((DATA / f"{code}.json").read_text(encoding="utf-8"))


def default_table(code: str) -> dict[str, Any]:
    """The rule-set table with every default (a fresh copy)."""
    return copy.deepcopy(_file(code)["table"])


# --- validation of one value: each returns an Italian complaint, or None ---------------------


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(lo: int | None = None, hi: int | None = None) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        if not _is_int(v):
            return said(gettext_noop("deve essere un numero intero"))
        if lo is not None and v < lo:
            return said(gettext_noop("deve essere almeno %(lo)s"), lo=lo)
        if hi is not None and v > hi:
            return said(gettext_noop("deve essere al massimo %(hi)s"), hi=hi)
        return None

    return check


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else said(gettext_noop("deve essere true o false"))


def _word(words: tuple[str, ...]) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        if v in words:
            return None
        return said(gettext_noop("deve essere uno di %(codes)s"), codes=", ".join(words))

    return check


def _games(v: Any) -> str | None:
    if not isinstance(v, list) or not v or not all(isinstance(g, str) for g in v):
        return said(gettext_noop("deve essere una lista non vuota di codici di contratto"))
    unknown = [g for g in v if g not in CLASSICO_GAMES]
    if unknown:
        return said(gettext_noop("contratti sconosciuti: %(codes)s"), codes=", ".join(unknown))
    if len(set(v)) != len(v):
        return said(gettext_noop("contiene un contratto ripetuto"))
    return None


def _nu2_points(v: Any) -> str | None:
    if not isinstance(v, list) or len(v) != 2 or not all(_is_int(x) for x in v):
        return said(gettext_noop("deve essere una lista di due interi (penultima, ultima presa)"))
    return None


def _unplayed(v: Any) -> str | None:
    if not isinstance(v, dict) or set(v) != {"seller", "others"}:
        return said(gettext_noop("deve essere un oggetto {seller, others}"))
    if not all(_is_int(x) and x >= 0 for x in v.values()):
        return said(gettext_noop("seller e others devono essere interi ≥ 0"))
    return None


_CHECKS: dict[str, dict[str, Callable[[Any], str | None]]] = {
    "king-classico": {
        "games": _games,
        "sale_shortfall": _int(0),
        "blind_allowed": _bool,
        "blind_factor": _int(1),
        "standing": _word(STANDINGS),
    },
    "king-internazionale": {
        "negative_base": _int(),
        "negative_per_trick": _int(),
        "plus_unit": _int(0),
        "minus_unit": _int(0),
        "max_plus": _int(1, 13),
        "max_minus": _int(1, 13),
        "unplayed_tricks": _unplayed,
        "standing": _word(STANDINGS),
    },
    "le-king": {
        "order": _word(ORDERS),
        "nu2_points": _nu2_points,
        "with_nu2": _bool,
        "standing": _word(STANDINGS),
    },
}
# Classico contracts without a peer value may have no points (null) until the club sets them.
_NULLABLE_POINTS = {"king-classico": True, "king-internazionale": False, "le-king": False}


def _problem(key: str, message: str) -> Problem:
    """One RULES problem naming ``key``; ``message`` a Said or a template marked with
    gettext_noop."""
    said_message = message if isinstance(message, Said) else Said(message)
    return Problem.said(
        "RULES",
        gettext_noop("regolamento, %(key)s: %(message)s"),
        {"key": key, "message": said_message},
        field="rules",
    )


def _apply_points(code: str, table: dict[str, Any], value: Any) -> list[Problem]:
    if not isinstance(value, dict):
        return [_problem("points", gettext_noop("deve essere un oggetto {contratto: punti}"))]
    problems = []
    known = table["points"]
    for game, pts in value.items():
        if game not in known:
            problems.append(_problem(f"points.{game}", gettext_noop("contratto sconosciuto")))
        elif not (_is_int(pts) or (pts is None and _NULLABLE_POINTS[code])):
            problems.append(
                _problem(f"points.{game}", gettext_noop("deve essere un numero intero"))
            )
        else:
            known[game] = pts
    return problems


def _consistency(code: str, table: Mapping[str, Any], decks: Mapping[int, Deck]) -> list[Problem]:
    problems = []
    if code == "king-classico":
        for game in table["games"]:
            if table["points"].get(game) is None:
                problems.append(
                    _problem(
                        f"points.{game}",
                        said(gettext_noop("%(game)s è in games ma non ha punti"), game=game),
                    )
                )
    if code == "king-internazionale":
        u = table["unplayed_tricks"]
        for n in table["table_sizes"]:
            if u["seller"] + (n - 1) * u["others"] != decks[n].tricks:
                problems.append(
                    _problem(
                        "unplayed_tricks",
                        said(
                            gettext_noop("seller + %(n)s × others deve fare le %(tricks)s prese"),
                            n=n - 1,
                            tricks=decks[n].tricks,
                        ),
                    )
                )
    return problems


def make_rules(code: str, edits: Mapping[str, Any] | None = None) -> KingRules:
    """The rules of ``code`` with ``edits`` applied; RuleViolation ``RULES`` naming every bad key.

    ``edits`` has the keys of the rule-set table (``points`` replaces only the codes it names).
    ``table_sizes`` is fixed: it may be present only with its default value.
    """
    data = _file(code)
    table = default_table(code)
    decks = {
        int(n): Deck(
            int(n), tuple(r + s for s in SUITS for r in RANKS if r + s not in d["removed"])
        )
        for n, d in data["decks"].items()
    }
    problems: list[Problem] = []
    if edits is not None and not isinstance(edits, Mapping):
        raise RuleViolation([_problem("rules", gettext_noop("deve essere un oggetto"))])
    checks = _CHECKS[code]
    for key, value in (edits or {}).items():
        if key == "points":
            problems.extend(_apply_points(code, table, value))
        elif key == "table_sizes":
            if value != table["table_sizes"]:
                problems.append(
                    _problem(key, gettext_noop("il numero di giocatori non si può modificare"))
                )
        elif key == CALENDAR:  # every game's table (dates, one turno a day)
            problems.extend(_problem(k, m) for k, m in calendar_errors(value))
        elif key not in checks:
            problems.append(_problem(str(key), gettext_noop("chiave sconosciuta")))
        elif (message := checks[key](value)) is not None:
            problems.append(_problem(key, message))
        else:
            table[key] = copy.deepcopy(value)
    # ``table`` holds only valid values (a bad edit keeps the default): always comparable
    problems.extend(_consistency(code, table, decks))
    if problems:
        raise RuleViolation(problems)
    return KingRules(code, data["label"], table, decks, tuple(data.get("sequence", ())))
