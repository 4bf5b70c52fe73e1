"""The ledger's public surface: the same calls for every game system (see ``docs/api.md``).

Views, management commands, tests and other programs record a club's play through these
functions only. Every argument is a keyword; a ``season`` or a ``turno`` is the model object or
its primary key; players are named as the club writes them (``Player.name``). A *record* is what
the season's interchange file (``kingclub/v1``, SPEC §10) holds for one deal:

- King C.A.F.: ``{"game": "L", "caller": "Anna", "trump": "C"?, "result": {"Anna": 2, ...}}``;
- the other games: the system's own keys (``SPEC-king-family.md``, ``SPEC-skat.md``,
  ``SPEC-ramino.md``).

Every write is one transaction under the season's lock, retried once if the database aborted it
for a serialization failure or a deadlock; on bad input nothing is stored and
:class:`~scoring.rules.RuleViolation` is raised with one :class:`~scoring.rules.Problem` per
problem, in Italian, naming the field (``problem.field``) as the form labels it.

What the ledger keeps of a season (C.A.F.'s counts and giornate, or the other games' records) is
the season's game system's to declare: each call here is one call of the season's
:class:`~scoring.services.recording.Ledger`, and never asks which game it holds.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db import transaction

from scoring.models import Enrollment, Penalita, Player, Sanction, Season, Smazzata, Turno
from scoring.rules.problems import Problem, RuleViolation, gettext_noop
from scoring.rules.systems import DEFAULT_SYSTEM
from scoring.rules.text import user_text
from scoring.services import season as _season
from scoring.services import turni as _turni
from scoring.services import turno_frame
from scoring.services.locks import retry_once, season_lock, season_lock_of_turno
from scoring.services.recording import ledger_of

__all__ = [
    "member_enroll",
    "penalita_add",
    "penalita_remove",
    "sanction_add",
    "sanction_remove",
    "season_create",
    "season_standing",
    "smazzata_correct",
    "smazzata_record",
    "smazzata_undo",
    "turno_close",
    "turno_delete",
    "turno_reopen",
    "turno_start",
]


def _problem(code: str, message: str, **kw: Any) -> RuleViolation:
    """A refusal whose ``message`` is marked with ``gettext_noop``: said in the reader's
    language (:mod:`scoring.problem_text`)."""
    return RuleViolation([Problem.said(code, message, **kw)])


def _season_of(season: Season | int) -> Season:
    if isinstance(season, Season):
        return season
    found = Season.objects.filter(pk=season).first() if _is_key(season) else None
    if found is None:
        raise _problem("SEASON_MISSING", gettext_noop("stagione inesistente"), field="season")
    return found


def _turno_of(turno: Turno | int) -> Turno:
    if isinstance(turno, Turno):
        return turno
    found = (
        Turno.objects.select_related("season").filter(pk=turno).first() if _is_key(turno) else None
    )
    if found is None:
        raise _problem("TURNO_MISSING", gettext_noop("turno inesistente"), field="turno")
    return found


def _of_a_turno(model: Any, row: Any, code: str, message: str, field: str) -> Any:
    """The penalità or sanction ``row`` (the object or its pk) with its turno's season locked;
    ``code``/``message`` on ``field`` when there is none."""
    pk = row.pk if isinstance(row, model) else row
    found = (
        model.objects.select_related("turno__season").filter(pk=pk).first() if _is_key(pk) else None
    )
    if found is None:
        raise _problem(code, message, field=field)
    season_lock_of_turno(found.turno)
    return found


def _is_key(value: object) -> bool:
    """A primary key as a program passes it: a positive int within the databases' range."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63


# -- seasons and members ----------------------------------------------------------------------


def season_create(
    *,
    name: str,
    ruleset: str = DEFAULT_SYSTEM,
    rules: dict[str, Any] | None = None,
    current: bool = True,
) -> Season:
    """A new season of game system ``ruleset`` (a code of :func:`scoring.rules.systems.systems`;
    by default the club's own game), with the system's default rule set or ``rules`` (the
    club's edits, checked by the system)."""
    return _season.season_create(name=name, ruleset_code=ruleset, rules=rules, current=current)


@retry_once
@transaction.atomic
def member_enroll(*, season: Season | int, player: str | Player) -> Enrollment:
    """Enrol ``player`` (a member, or a name: the member is created if new) in ``season``; a late
    joiner gets what the rules give one (C.A.F.: the lowest score of every earlier giornata)."""
    season = _season_of(season)
    if not isinstance(player, Player):
        name = user_text(player, field="player", label="giocatore", max_length=60)
        player = Player.objects.filter(name=name).first() or Player.objects.create(name=name)
    return _season.enrollment_add(season=season, player=player)


def _members_create(names: Sequence[str], *, seated: Sequence[str]) -> None:
    """Create the members ``names`` (new to the club, each seated at the table being started)."""
    for raw in names:
        name = user_text(raw, field="players", label="giocatore", max_length=60)
        if name not in seated:
            message = gettext_noop("%(name)s non siede al tavolo")
            raise RuleViolation(
                [Problem.said("NEW_MEMBER_NOT_SEATED", message, {"name": name}, field="players")]
            )
        Player.objects.get_or_create(name=name)


# -- a turno ------------------------------------------------------------------------------------


@retry_once
@transaction.atomic
def turno_start(
    *,
    season: Season | int,
    date: dt.date,
    players: Sequence[str],
    first_dealer: str,
    number: int | None = None,
    table: str = "",
    new_members: Sequence[str] = (),
    user: Any = None,
) -> Turno:
    """Open a turno: the table's players in seat order (each a member of the club) and the first
    dealer. ``number`` is the turno's number within the day (None: the next free one, 1 for the
    first turno of the day). ``new_members``: names among ``players`` that are new to the club,
    created as members in the same transaction (none is created if the turno does not start)."""
    season = _season_of(season)
    if not isinstance(date, dt.date):
        raise _problem("DATE", gettext_noop("la data del turno non è valida"), field="date")
    season_lock(season)
    _members_create(new_members, seated=players)
    return _turni.turno_start(
        season=season,
        date=date,
        players=list(players),
        first_dealer=first_dealer,
        number=number,
        table=table,
        user=user,
    )


@retry_once
@transaction.atomic
def smazzata_record(
    *,
    turno: Turno | int,
    record: Mapping[str, Any],
    number: int | None = None,
    user: Any = None,
) -> Smazzata:
    """Record the next deal of an open turno (``number``: the one the caller believes is next;
    if another segretario recorded it first, nothing is stored and the problem says so)."""
    turno = _turno_of(turno)
    season_lock_of_turno(turno)
    return ledger_of(turno.season).smazzata_record(
        turno=turno, record=record, number=number, user=user
    )


@retry_once
@transaction.atomic
def smazzata_correct(
    *, turno: Turno | int, number: int, record: Mapping[str, Any], user: Any = None
) -> Smazzata:
    """Replace deal ``number`` of an open turno; every later deal is checked and scored again,
    and if one becomes illegal nothing is stored."""
    turno = _turno_of(turno)
    season_lock_of_turno(turno)
    return ledger_of(turno.season).smazzata_correct(
        turno=turno, number=number, record=record, user=user
    )


@retry_once
@transaction.atomic
def smazzata_undo(*, turno: Turno | int, number: int | None = None, user: Any = None) -> int:
    """Delete the last deal of an open turno; returns its number. ``number``: the deal the
    caller means to undo (refused if it is not the last)."""
    turno = _turno_of(turno)
    season_lock_of_turno(turno)
    return ledger_of(turno.season).smazzata_undo(turno=turno, number=number, user=user)


@retry_once
@transaction.atomic
def penalita_add(
    *,
    turno: Turno | int,
    player: str,
    points: int,
    article: str,
    reason: str = "",
    user: Any = None,
) -> Penalita:
    """A penalità (``points``, article of the rules, reason) on a player of an open turno, for
    the games that count them (C.A.F. and the King family); refused by the others."""
    turno = _turno_of(turno)
    season_lock_of_turno(turno)
    return ledger_of(turno.season).penalita_add(
        turno=turno, player=player, points=points, article=article, reason=reason, user=user
    )


@retry_once
@transaction.atomic
def penalita_remove(*, penalita: Penalita | int, user: Any = None) -> None:
    """Delete a penalità of an open turno."""
    found = _of_a_turno(
        Penalita, penalita, "PENALITA_MISSING", gettext_noop("penalità inesistente"), "penalita"
    )
    ledger_of(found.turno.season).penalita_remove(penalita=found, user=user)


@retry_once
@transaction.atomic
def turno_close(
    *, turno: Turno | int, tiebreak: Sequence[str] | None = None, user: Any = None
) -> Turno:
    """Close a finished turno: places, the Verbale number, the season's Classifica from its
    giornata on. ``tiebreak`` is the order drawn for tied players (the spareggio); None keeps
    the one recorded before a reopen."""
    turno = _turno_of(turno)
    season_lock_of_turno(turno)
    return ledger_of(turno.season).turno_close(turno=turno, tiebreak=tiebreak, user=user)


@retry_once
@transaction.atomic
def turno_reopen(*, turno: Turno | int, reason: str, user: Any = None) -> Turno:
    """Reopen a closed turno with a reason (kept in its trail); the Classifica is computed
    again from its giornata."""
    turno = _turno_of(turno)
    season_lock_of_turno(turno)
    return ledger_of(turno.season).turno_reopen(turno=turno, reason=reason, user=user)


@retry_once
@transaction.atomic
def turno_delete(*, turno: Turno | int, user: Any = None) -> None:
    """Delete an open turno with no deals (a turno started by mistake)."""
    turno = _turno_of(turno)
    season_lock_of_turno(turno)
    turno_frame.turno_delete(turno=turno, user=user)


# what a sanction's problems are about, as its form names the fields (the engine says "sanctions")
_SANCTION_FIELDS = {"SANCTION_PLAYER": "player", "SANCTION_DUPLICATE": "player"}


@retry_once
@transaction.atomic
def sanction_add(*, turno: Turno | int, player: str, reason: str, user: Any = None) -> Sanction:
    """A Retrocessione per contatore on a player of an open turno, with its reason (required):
    the player goes down one more series when the turno closes. Only for the games that have
    it (C.A.F.); refused by the others."""
    turno = _turno_of(turno)
    season_lock_of_turno(turno)
    try:
        return ledger_of(turno.season).sanction_add(
            turno=turno, player=player, reason=reason, user=user
        )
    except RuleViolation as exc:
        raise RuleViolation(
            [
                replace(p, field=_SANCTION_FIELDS.get(p.code, "reason"))
                if p.field == "sanctions"
                else p
                for p in exc.problems
            ]
        ) from None


@retry_once
@transaction.atomic
def sanction_remove(*, sanction: Sanction | int, user: Any = None) -> None:
    """Delete a Retrocessione per contatore of an open turno."""
    found = _of_a_turno(
        Sanction, sanction, "SANCTION_MISSING", gettext_noop("sanzione inesistente"), "sanction"
    )
    ledger_of(found.turno.season).sanction_remove(sanction=found, user=user)


# -- the Classifica -----------------------------------------------------------------------------


def season_standing(*, season: Season | int) -> list[dict[str, Any]]:
    """The season's Classifica as stored after the last close or reopen, in display order: one
    dict per member with ``place``, ``player`` and the figures that ``kingscore`` prints for the
    season's rule set, with the same keys and values (C.A.F.: ``league_points`` as a string with
    two decimals, ``series``, ``turni``, ``absences``, ``scudetti``; the other games: their
    system's standing columns)."""
    season = _season_of(season)
    return ledger_of(season).standing(season)
