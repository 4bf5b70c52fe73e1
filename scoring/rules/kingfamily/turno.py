"""A turno of the King family: its record checked (every problem at once), what comes next,
its score (points, totals, balance, shared places, matchpoints) and the season standing
(SPEC-king-family §0.1, §0.5, §0.6, §D)."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..caf.turno import PENALTY_LIMIT
from ..problems import Problem, RuleViolation, gettext_noop
from ..ranking import competition_places
from .classico import Classico
from .internazionale import Internazionale
from .leking import LeKing
from .records import Checked, Checker, Scored, Slot, Variant, is_int
from .rules import TRUMPS, KingRules

VARIANTS: dict[str, Variant] = {v.code: v for v in (Classico(), Internazionale(), LeKing())}
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass
class Head:
    """The turno's own fields, checked (a turno in progress may have no date yet)."""

    date: str | None
    number: int
    players: tuple[str, ...]
    first_dealer: str
    smazzate: list[Any]
    penalties: list[tuple[str, int]] = field(default_factory=list)


def valid_date(value: Any) -> bool:
    if not isinstance(value, str) or not DATE.fullmatch(value):
        return False
    y, m, d = map(int, value.split("-"))
    try:
        dt.date(y, m, d)
    except ValueError:
        return False
    return True


def label_of(raw: Any, index: int = 1) -> str:
    """How problems name a turno: its date and number (its place in ``turni`` when it is not
    an object)."""
    if not isinstance(raw, Mapping):
        return f"turni[{index}]"
    return f"{raw.get('date')} #{raw.get('number', 1)}"


def read_head(
    rules: KingRules, raw: Any, *, require_date: bool = True
) -> tuple[Head | None, list[Problem]]:
    """The turno's fields (everything but the smazzate' contents); every problem found."""
    problems: list[Problem] = []

    def add(
        code: str, message: str, who: str | None = None, fld: str | None = None, **params: Any
    ) -> None:
        """A problem; ``message`` marked with gettext_noop, its values in ``params``."""
        problems.append(Problem.said(code, message, params or None, player=who, field=fld))

    if not isinstance(raw, Mapping):
        add("FIELD_TYPE", gettext_noop("Il turno deve essere un oggetto JSON."))
        return None, problems
    date = raw.get("date")
    if (require_date or date is not None) and not valid_date(date):
        add(
            "DATE",
            gettext_noop("Data: %(value)s non è una data (AAAA-MM-GG)."),
            fld="date",
            value=repr(date),
        )
    number = raw.get("number", 1)
    if not is_int(number) or number < 1:
        add(
            "FIELD_TYPE",
            gettext_noop("Numero: deve essere un intero da 1 in su, non %(value)s."),
            fld="number",
            value=repr(number),
        )
        number = 1
    players = raw.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        add("PLAYERS_COUNT", gettext_noop("Giocatori: serve una lista di nomi."), fld="players")
        players = None
    elif len(players) not in rules.table_sizes:
        sizes = " / ".join(map(str, rules.table_sizes))
        add(
            "PLAYERS_COUNT",
            gettext_noop("Giocatori: %(n)s, ma questo gioco si gioca in %(sizes)s."),
            fld="players",
            n=len(players),
            sizes=sizes,
        )
    for name, times in Counter(players or []).items():
        if times > 1:
            add(
                "PLAYER_DUPLICATE",
                gettext_noop("Giocatori: %(player)s siede due volte al tavolo."),
                name,
                "players",
                player=name,
            )
    first_dealer = raw.get("first_dealer")
    if players is not None and first_dealer not in players:
        add(
            "FIRST_DEALER",
            gettext_noop("Primo mazziere: %(player)s non siede al tavolo."),
            fld="first_dealer",
            player=repr(first_dealer),
        )
    # Without a valid table the smazzate cannot be checked; any later problem does not stop them.
    seated = players is not None and not problems
    smazzate = raw.get("smazzate", [])
    if not isinstance(smazzate, list):
        add("FIELD_TYPE", gettext_noop("Smazzate: serve una lista."), fld="smazzate")
        smazzate = []
    penalties = _penalties(raw.get("penalties"), players or [], add)
    if raw.get("tiebreak") not in (None, []):
        add(
            "TIEBREAK",
            gettext_noop("Spareggio: i posti pari merito sono condivisi, niente spareggio."),
            fld="tiebreak",
        )
    if "sanctions" in raw:
        add(
            "FIELD_UNEXPECTED",
            gettext_noop("Sanzioni: appartengono al King C.A.F."),
            fld="sanctions",
        )
    date_out = date if valid_date(date) else None
    if not seated:
        return None, problems
    return Head(date_out, number, tuple(players), first_dealer, smazzate, penalties), problems


def _penalties(value: Any, players: Sequence[str], add: Any) -> list[tuple[str, int]]:
    if value is None:
        return []
    if not isinstance(value, list):
        add(
            "PENALTY",
            gettext_noop("Penalità: serve una lista di {player, points}."),
            fld="penalties",
        )
        return []
    out = []
    for pen in value:
        if not isinstance(pen, Mapping):
            add(
                "PENALTY",
                gettext_noop("Penalità: ognuna è un oggetto {player, points}."),
                fld="penalties",
            )
            continue
        player, points = pen.get("player"), pen.get("points")
        name = player if isinstance(player, str) else None
        if player not in players:
            add(
                "PENALTY",
                gettext_noop("Penalità: %(player)s non siede al tavolo."),
                name,
                "penalties",
                player=repr(player),
            )
        elif not is_int(points) or abs(points) > PENALTY_LIMIT:
            add(
                "PENALTY",
                gettext_noop(
                    "Penalità: i punti sono un numero intero entro ±%(limit)s, non %(value)s."
                ),
                name,
                limit=PENALTY_LIMIT,
                value=repr(points),
            )
        elif any(not isinstance(pen.get(k, ""), str) for k in ("article", "reason")):
            add(
                "PENALTY",
                gettext_noop("Penalità: articolo e motivo sono testi."),
                name,
                "penalties",
            )
        else:
            out.append((player, points))
    return out


@dataclass
class Replay:
    """A turno's smazzate checked in order: each slot, each checked record, every problem."""

    head: Head
    slots: list[Slot]
    checked: list[Checked]
    problems: list[Problem]

    @property
    def valid(self) -> bool:
        return not self.problems


def replay(rules: KingRules, head: Head, *, require_complete: bool = True) -> Replay:
    variant = VARIANTS[rules.code]
    needed = variant.smazzate_count(rules, len(head.players))
    problems: list[Problem] = []
    got = len(head.smazzate)
    if got > needed or (require_complete and got != needed):
        problems.append(
            Problem.said(
                "SMAZZATE_COUNT",
                gettext_noop("Smazzate: sono %(got)s, un turno ne ha %(needed)s."),
                {"got": got, "needed": needed},
                field="smazzate",
            )
        )
    slots: list[Slot] = []
    checked: list[Checked] = []
    for raw in head.smazzate[:needed]:
        slot = variant.slot(rules, head.players, head.first_dealer, checked)
        result = variant.check(rules, head.players, slot, raw)
        slots.append(slot)
        checked.append(result)
        problems.extend(result.problems)
    for number, raw in enumerate(head.smazzate[needed:], start=needed + 1):
        extra = Checker(number)  # beyond the turno: at least say what it is not
        extra.game(raw, variant.codes(rules))
        problems.extend(extra.problems)
    return Replay(head, slots, checked, problems)


def places(totals: Mapping[str, int]) -> dict[str, int]:
    """1 + the number of players with a strictly higher total (ties share the place)."""
    return competition_places(totals)


def matchpoints(totals: Mapping[str, int]) -> dict[str, int]:
    """2 per opponent with a lower total, 1 per equal total (§0.5)."""
    return {
        p: sum(2 if t > u else 1 if t == u else 0 for q, u in totals.items() if q != p)
        for p, t in totals.items()
    }


def score_replay(rules: KingRules, rep: Replay) -> dict[str, Any]:
    """The scored turno as ``kingscore`` writes it (§0.7); ``rep`` must be valid."""
    variant = VARIANTS[rules.code]
    head = rep.head
    scored: list[Scored] = []
    for slot, c in zip(rep.slots, rep.checked, strict=True):
        assert c.deal is not None
        scored.append(variant.score(rules, head.players, slot, c.deal))
    penalties = dict.fromkeys(head.players, 0)
    for player, points in head.penalties:
        penalties[player] += points
    deal_points = {p: sum(s.points[p] for s in scored) for p in head.players}
    totals = {p: deal_points[p] + penalties[p] for p in head.players}
    return {
        "date": head.date,
        "number": head.number,
        "smazzate": [s.output() for s in scored],
        "penalties": penalties,
        "balance": sum(deal_points.values()),
        "totals": totals,
        "places": places(totals),
        "matchpoints": matchpoints(totals),
    }


def _raise(problems: list[Problem], label: str) -> None:
    if problems:
        raise RuleViolation([p.in_turno(label) for p in problems])


def score_turno(
    rules: KingRules, raw: Mapping[str, Any], *, require_complete: bool = True
) -> dict[str, Any]:
    """A turno record scored; RuleViolation listing every problem, each naming the turno.

    The date may be absent (a turno being recorded; a season document requires it). With
    ``require_complete=False`` a turno in progress is scored so far (the live screen's running
    totals and balance)."""
    head, problems = read_head(rules, raw, require_date=False)
    if head is not None:
        rep = replay(rules, head, require_complete=require_complete)
        problems = problems + rep.problems
    _raise(problems, label_of(raw))
    assert head is not None
    return score_replay(rules, rep)


def check_smazzata(
    rules: KingRules, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
) -> list[Problem]:
    """Every problem of ``smazzata`` recorded as the next one of ``turno``."""
    head, problems = read_head(rules, turno, require_date=False)
    if head is None:
        return problems
    rep = replay(rules, head, require_complete=False)
    variant = VARIANTS[rules.code]
    needed = variant.smazzate_count(rules, len(head.players))
    if len(head.smazzate) >= needed:
        return [
            Problem.said(
                "SMAZZATE_COUNT",
                gettext_noop("Il turno ha già tutte le sue %(needed)s smazzate."),
                {"needed": needed},
            )
        ]
    slot = variant.slot(rules, head.players, head.first_dealer, rep.checked)
    return variant.check(rules, head.players, slot, smazzata).problems


def next_step(rules: KingRules, turno: Mapping[str, Any]) -> dict[str, Any]:
    """What happens next: the dealer, the chooser, the contracts offered, what may be sold."""
    head, problems = read_head(rules, turno, require_date=False)
    if head is None:
        raise RuleViolation(problems)
    variant = VARIANTS[rules.code]
    rep = replay(rules, head, require_complete=False)
    needed = variant.smazzate_count(rules, len(head.players))
    number = len(head.smazzate) + 1
    if number > needed:
        return {"number": number, "dealer": None, "complete": True, "smazzate": needed}
    slot = variant.slot(rules, head.players, head.first_dealer, rep.checked)
    return {
        "number": number,
        "dealer": slot.dealer,
        "complete": False,
        "smazzate": needed,
        "chooser": slot.chooser,
        "games": list(slot.games),
        "seller": slot.seller,
        "buyers": [p for p in head.players if p != slot.seller] if slot.seller else [],
        "trumps": list(TRUMPS),
        **variant.offer(rules, len(head.players), slot),
    }


# --- the season ------------------------------------------------------------------------------


def standing(
    rules: KingRules, roster: Sequence[str], scored: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The Classifica rows in display order from scored turni (§0.6)."""
    row: dict[str, dict[str, int]] = {}
    for t in scored:
        for p, total in t["totals"].items():
            r = row.setdefault(p, dict.fromkeys(STANDING_FIGURES, 0))
            r["matchpoints"] += t["matchpoints"][p]
            r["points"] += total
            r["turni"] += 1
            r["wins"] += t["places"][p] == 1
    return rank_standing(rules, roster, row)


STANDING_FIGURES = ("matchpoints", "points", "turni", "wins")


def rank_standing(
    rules: KingRules, roster: Sequence[str], figures: Mapping[str, Mapping[str, int]]
) -> list[dict[str, Any]]:
    """The Classifica rows in display order from each player's season figures (§0.6): by
    matchpoints (or points, as the rule set says), then wins, then name."""
    members = list(dict.fromkeys([*roster, *figures]))
    row = {p: {k: int(figures.get(p, {}).get(k, 0)) for k in STANDING_FIGURES} for p in members}
    key = "points" if rules["standing"] == "POINTS" else "matchpoints"
    score = {p: row[p][key] for p in members}
    place = places(score)
    order = sorted(members, key=lambda p: (place[p], -row[p]["wins"], p))
    return [{"place": place[p], "player": p, **row[p]} for p in order]
