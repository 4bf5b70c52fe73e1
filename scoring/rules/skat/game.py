"""One Skat game (SPEC-skat §4-§7): read and check the record, value it, win or lose it, and the
list points of every player at the table.

A record is the ``kingclub/v1`` dict of one game: ``{"passed": true}`` or the played game's keys
(``declarer``, ``game``, ``bid``, flags, ``matadors``, ``with``, ``declarer_points``,
``declarer_tricks``). :func:`read_game` reports every problem of it at once (stable codes of
SPEC-skat §11, Italian messages, the game number and the player named).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..problems import Problem, Said, gettext_noop, said_joined
from .rules import GAMES, NULL, SkatRules

# The fields of a game as the live screen's form labels them (its messages name them so).
FIELD_LABELS = {
    "passed": gettext_noop("Passato: tutti hanno passato"),
    "declarer": gettext_noop("Dichiarante"),
    "game": gettext_noop("Gioco"),
    "with": gettext_noop("Matadori"),
    "bid": gettext_noop("Dichiarazione (licitazione)"),
    "matadors": gettext_noop("Matadori (con/senza)"),
    "declarer_points": gettext_noop("Punti carta del dichiarante"),
    "declarer_tricks": gettext_noop("Prese del dichiarante"),
    "hand": gettext_noop("Mano (senza skat)"),
    "ouvert": "Ouvert",
    "schneider_announced": gettext_noop("Schneider annunciato"),
    "schwarz_announced": gettext_noop("Schwarz annunciato"),
}
FLAGS = ("hand", "ouvert", "schneider_announced", "schwarz_announced")
PLAYED_KEYS = (
    "declarer",
    "game",
    "bid",
    *FLAGS,
    "matadors",
    "with",
    "declarer_points",
    "declarer_tricks",
)
KNOWN_KEYS = frozenset(("passed", *PLAYED_KEYS))
# a JSON field of the wrong type, named by its key (the values apart, for the reader's language)
NOT_A_FLAG = gettext_noop("%(key)s: deve essere true o false (trovato %(found)s)")
NOT_AN_INTEGER = gettext_noop("%(key)s: deve essere un numero intero (trovato %(found)s)")


@dataclass(frozen=True)
class Game:
    """A played game whose record passed every check."""

    declarer: str
    game: str
    bid: int
    declarer_tricks: int
    hand: bool = False
    ouvert: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    matadors: int | None = None  # suit and grand only
    with_: bool | None = None  # suit and grand only: True = "with", False = "without"
    declarer_points: int | None = None  # suit and grand only


@dataclass(frozen=True)
class Outcome:
    """What the ledger derives from a played game (SPEC-skat §5, §6)."""

    multiplier: int | None  # value ÷ base (the multiple charged when overbid); None for Null
    value: int
    overbid: bool
    won: bool
    score: int  # the declarer's game score: +value, or -lost_factor × value
    schneider: bool = False  # schneider reached or announced (suit and grand)
    schwarz: bool = False  # schwarz reached or announced (suit and grand)


@dataclass(frozen=True)
class GameRead:
    """The result of reading one record: passed-in, a checked game, or the problems found."""

    passed: bool
    game: Game | None
    problems: list[Problem] = field(default_factory=list)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def dealer_of(players: Sequence[str], first_dealer: str, number: int) -> str:
    """The dealer of game ``number`` (1-based): the seat after the previous dealer (§1)."""
    return players[(players.index(first_dealer) + number - 1) % len(players)]


def sitting_out_of(players: Sequence[str], dealer: str) -> str | None:
    """Who sits out a game: the dealer at a 4-player table, nobody at 3 (§1)."""
    return dealer if len(players) == 4 else None


def read_game(
    rules: SkatRules,
    record: Any,
    *,
    players: Sequence[str],
    sitting_out: str | None,
    number: int | None = None,
) -> GameRead:
    """Check one game record; every problem at once (SPEC-skat §11)."""
    problems: list[Problem] = []
    declarer = record.get("declarer") if isinstance(record, Mapping) else None
    who = declarer if isinstance(declarer, str) else None

    def add(
        code: str, message: str, field: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        """A problem; ``message`` marked with gettext_noop, its values in ``params``."""
        problems.append(
            Problem.said(code, message, params, smazzata=number, player=who, field=field)
        )

    if not isinstance(record, Mapping):
        add("FORMAT", gettext_noop("il gioco deve essere un oggetto JSON"))
        return GameRead(False, None, problems)
    unknown = sorted(str(k) for k in record if k not in KNOWN_KEYS)
    if unknown:
        message = gettext_noop("campi sconosciuti: %(keys)s")
        add("FORMAT", message, None, {"keys": ", ".join(unknown)})
    passed = record.get("passed")
    if passed is not None and not isinstance(passed, bool):
        add("FIELD_TYPE", NOT_A_FLAG, "passed", {"key": "passed", "found": repr(passed)})
        return GameRead(False, None, problems)  # passed or played: nothing else can be read
    if passed is True:
        data = [k for k in PLAYED_KEYS if record.get(k) is not None and record[k] is not False]
        if data:
            add(
                "PASSED_WITH_DATA",
                gettext_noop(
                    "gioco passato (nessuno gioca) con dati di un gioco giocato: %(keys)s"
                ),
                "passed",
                {"keys": ", ".join(data)},
            )
        return GameRead(not problems, None, problems)

    if declarer is None:
        add(
            "UNKNOWN_PLAYER",
            gettext_noop("%(label)s: scegliere chi gioca."),
            "declarer",
            {"label": FIELD_LABELS["declarer"]},
        )
    elif not isinstance(declarer, str):
        message = gettext_noop("declarer: deve essere un nome (trovato %(found)s)")
        add("FIELD_TYPE", message, "declarer", {"found": repr(declarer)})
    elif declarer not in players:
        add(
            "UNKNOWN_PLAYER",
            gettext_noop("%(label)s: %(player)s non siede a questo tavolo."),
            "declarer",
            {"label": FIELD_LABELS["declarer"], "player": declarer},
        )
    elif declarer == sitting_out:
        add(
            "DECLARER_SITS_OUT",
            gettext_noop(
                "%(label)s: %(player)s è il mazziere di questo gioco; a quattro giocatori sta "
                "fuori e non può essere il solista."
            ),
            "declarer",
            {"label": FIELD_LABELS["declarer"], "player": declarer},
        )

    game = record.get("game")
    if game is None or game == "":
        add("GAME_UNKNOWN", gettext_noop("Gioco: scegliere il gioco."), "game", {})
    elif not isinstance(game, str) or game not in GAMES:
        add(
            "GAME_UNKNOWN",
            gettext_noop(
                "Gioco: «%(value)s» non è un gioco di Skat (si può scegliere %(allowed)s)."
            ),
            "game",
            {"value": str(game), "allowed": ", ".join(GAMES)},
        )
    if not isinstance(game, str) or game not in GAMES:
        game = None

    flags: dict[str, bool] = {}
    for name in FLAGS:
        v = record.get(name)
        if v is not None and not isinstance(v, bool):
            add("FIELD_TYPE", NOT_A_FLAG, name, {"key": name, "found": repr(v)})
        flags[name] = v is True

    bid = record.get("bid")
    if bid is None:
        add(
            "BID_INVALID",
            gettext_noop("%(label)s: scrivere il valore dichiarato."),
            "bid",
            {"label": FIELD_LABELS["bid"]},
        )
    elif not _is_int(bid):
        add("FIELD_TYPE", NOT_AN_INTEGER, "bid", {"key": "bid", "found": repr(bid)})
        bid = None
    elif bid not in rules.legal_bids:
        add(
            "BID_INVALID",
            gettext_noop(
                "%(label)s: %(value)s non è una dichiarazione valida (18, 20, 22, 23, 24, 27 … "
                "%(top)s)."
            ),
            "bid",
            {"label": FIELD_LABELS["bid"], "value": bid, "top": rules.legal_bids[-1]},
        )
        bid = None

    tricks = _count(record, "declarer_tricks", rules.tricks, "TRICKS_RANGE", add)

    matadors = with_ = points = None
    if game == NULL:
        extra = [k for k in ("matadors", "with", "declarer_points") if record.get(k) is not None]
        extra += [k for k in ("schneider_announced", "schwarz_announced") if flags[k]]
        if extra:
            add(
                "NULL_FIELD",
                gettext_noop("%(label)s: il Null non ne ha (togliere %(fields)s)."),
                extra[0],
                {
                    "label": FIELD_LABELS[extra[0]],
                    "fields": said_joined(", ", [Said(FIELD_LABELS[k]) for k in extra]),
                },
            )
        value = rules.null_value(flags["hand"], flags["ouvert"])
        if bid is not None and value < bid and rules.null_below_bid == "invalid":
            add(
                "NULL_BID",
                gettext_noop(
                    "%(label)s: un Null da %(value)s non raggiunge la dichiarazione %(bid)s; il "
                    "solista deve annunciare un gioco che la raggiunga."
                ),
                "bid",
                {"label": FIELD_LABELS["bid"], "value": value, "bid": bid},
            )
    elif game is not None:
        top = rules.max_matadors_of(game)
        matadors = _count(record, "matadors", top, "MATADORS_RANGE", add, low=1)
        with_ = record.get("with")
        if with_ is None:
            add(
                "MATADORS_RANGE",
                gettext_noop("%(label)s: scegliere «con» o «senza»."),
                "with",
                {"label": FIELD_LABELS["with"]},
            )
        elif not isinstance(with_, bool):
            add("FIELD_TYPE", NOT_A_FLAG, "with", {"key": "with", "found": repr(with_)})
            with_ = None
        points = _count(record, "declarer_points", rules.total_points, "POINTS_RANGE", add)
        if points is not None and tricks is not None:
            if tricks == rules.tricks and points != rules.total_points:
                add(
                    "SCHWARZ_POINTS",
                    gettext_noop(
                        "%(label)s: con tutte le %(tricks)s prese il solista ha %(total)s punti "
                        "carta, non %(points)s."
                    ),
                    "declarer_points",
                    {
                        "label": FIELD_LABELS["declarer_points"],
                        "tricks": rules.tricks,
                        "total": rules.total_points,
                        "points": points,
                    },
                )
            if tricks == 0 and points > rules.skat_max_points:
                add(
                    "SCHWARZ_POINTS",
                    gettext_noop(
                        "%(label)s: senza prese il solista ha solo lo skat, al massimo %(max)s "
                        "punti carta, non %(points)s."
                    ),
                    "declarer_points",
                    {
                        "label": FIELD_LABELS["declarer_points"],
                        "max": rules.skat_max_points,
                        "points": points,
                    },
                )
        announced = [k for k in ("schneider_announced", "schwarz_announced", "ouvert") if flags[k]]
        if announced and not flags["hand"]:
            add(
                "ANNOUNCE_NEEDS_HAND",
                gettext_noop("%(label)s: %(fields)s solo senza prendere lo skat."),
                "hand",
                {
                    "label": FIELD_LABELS["hand"],
                    "fields": said_joined(", ", [Said(FIELD_LABELS[k]) for k in announced]),
                },
            )
        if flags["schwarz_announced"] and not flags["schneider_announced"]:
            add(
                "SCHWARZ_NEEDS_SCHNEIDER",
                gettext_noop("%(label)s: chi annuncia schwarz annuncia anche schneider."),
                "schneider_announced",
                {"label": FIELD_LABELS["schneider_announced"]},
            )
        if flags["ouvert"] and not flags["schwarz_announced"]:
            add(
                "OUVERT_NEEDS_SCHWARZ",
                gettext_noop("%(label)s: un gioco ouvert vale come schwarz annunciato."),
                "schwarz_announced",
                {"label": FIELD_LABELS["schwarz_announced"]},
            )
    if problems:
        return GameRead(False, None, problems)
    assert isinstance(declarer, str) and game is not None and bid is not None
    assert tricks is not None
    return GameRead(
        False,
        Game(
            declarer=declarer,
            game=game,
            bid=bid,
            declarer_tricks=tricks,
            matadors=matadors,
            with_=with_,
            declarer_points=points,
            **flags,
        ),
    )


def _count(
    record: Mapping[str, Any],
    key: str,
    top: int,
    code: str,
    add: Any,
    low: int = 0,
) -> int | None:
    """An integer field in ``low..top``: FIELD_TYPE if not an integer, ``code`` if missing or
    out of range (the messages name the field as the form labels it)."""
    v = record.get(key)
    label = FIELD_LABELS[key]
    if v is None:
        add(code, gettext_noop("%(label)s: scrivere il numero."), key, {"label": label})
        return None
    if not _is_int(v):
        add("FIELD_TYPE", NOT_AN_INTEGER, key, {"key": key, "found": repr(v)})
        return None
    if not low <= v <= top:
        add(
            code,
            gettext_noop("%(label)s: %(value)s non va bene, deve essere da %(low)s a %(top)s."),
            key,
            {"label": label, "value": v, "low": low, "top": top},
        )
        return None
    return v


def outcome(rules: SkatRules, g: Game) -> Outcome:
    """Value, overbid, won or lost, and the declarer's game score (SPEC-skat §5, §6)."""
    if g.game == NULL:
        value = rules.null_value(g.hand, g.ouvert)
        # below the bid only when the rule set records it as an overbid (``null_below_bid``;
        # by default such a record is refused by :func:`read_game`): lost whatever the tricks
        overbid = value < g.bid
        won = g.declarer_tricks == 0 and not overbid
        return Outcome(None, value, overbid, won, value if won else -rules.lost_factor * value)
    assert g.matadors is not None and g.declarer_points is not None
    base = rules.base_values[g.game]
    points, tricks = g.declarer_points, g.declarer_tricks
    schneider = (
        points >= rules.schneider_points
        or points <= rules.declarer_schneider_points
        or g.schneider_announced
    )
    schwarz = tricks in (0, rules.tricks) or g.schwarz_announced
    multiplier = (
        g.matadors
        + 1
        + g.hand
        + schneider
        + g.schneider_announced
        + schwarz
        + g.schwarz_announced
        + g.ouvert
    )
    overbid = base * multiplier < g.bid
    if overbid:
        multiplier = -(-g.bid // base)  # the least multiple of the base reaching the bid
        won = False
    else:
        won = (
            points >= rules.win_points
            and (not g.schneider_announced or points >= rules.schneider_points)
            and (not g.schwarz_announced or tricks == rules.tricks)
        )
    value = base * multiplier
    factor = rules.lost_factor
    missed = (g.schneider_announced and points < rules.schneider_points) or (
        g.schwarz_announced and tricks < rules.tricks
    )
    if not won and not overbid and missed and rules.missed_announcement == "single":
        factor = 1  # the rule set counts a game lost with its announcement missed once
    score = value if won else -factor * value
    return Outcome(multiplier, value, overbid, won, score, schneider, schwarz)


def game_list_points(
    rules: SkatRules,
    players: Sequence[str],
    sitting_out: str | None,
    declarer: str,
    result: Outcome,
) -> dict[str, int]:
    """The list points of every player at the table for one played game (SPEC-skat §7)."""
    points = dict.fromkeys(players, 0)
    if result.won:
        points[declarer] = result.score + rules.won_bonus
        return points
    points[declarer] = result.score + rules.lost_bonus
    for p in bonus_receivers(rules, players, sitting_out, declarer):
        points[p] = rules.opponents_bonus[len(players)]
    return points


def bonus_receivers(
    rules: SkatRules, players: Sequence[str], sitting_out: str | None, declarer: str
) -> list[str]:
    """Who gets the opponents' bonus when the declarer loses: every other player at the table,
    the sitting-out dealer too unless the rule set's variant leaves him out (SPEC-skat §7, §10)."""
    return [p for p in players if p != declarer and (p != sitting_out or rules.sitting_out_bonus)]
