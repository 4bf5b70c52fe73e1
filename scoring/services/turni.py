"""Writes to a turno: its start (every game's), and C.A.F.'s close and rescore; the deals,
penalità and sanctions are every game's (:mod:`.deals`), the reopen too (:mod:`.turno_frame`).

Every function is one transaction: the engine checks the input, and on any problem nothing is
written and :class:`RuleViolation` (Italian messages, one per problem) is raised.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.db import transaction
from django.db.models import Max, Min
from django.utils import timezone
from django.utils.translation import gettext_noop

from scoring import formatting
from scoring.models import (
    Enrollment,
    Giornata,
    Player,
    Season,
    Seat,
    Turno,
)
from scoring.rules.problems import Problem, RuleViolation
from scoring.rules.text import user_text
from scoring.selectors import turno_with_everything
from scoring.services.history import history_created
from scoring.services.locks import (
    season_lock,
    season_require_open,
)
from scoring.services.season import season_recompute, standing_keep_for_table
from scoring.services.turno_frame import (
    turno_close as turno_close,  # one close for every game (its old home)
)
from scoring.services.turno_frame import turno_lock, user_of
from scoring.services.turno_frame import (
    turno_reopen as turno_reopen,  # one reopen for every game (its old home)
)


def _lock(turno: Turno | int) -> Turno:
    """The turno, locked for this transaction, with everything the engine needs."""
    return turno_lock(turno, turno_with_everything)


def _players_by_name(names: Sequence[str]) -> dict[str, Player]:
    found = {p.name: p for p in Player.objects.filter(name__in=list(names))}
    missing = [n for n in names if n not in found]
    if missing:
        raise RuleViolation(
            [
                Problem.said(
                    "PLAYER_UNKNOWN",
                    gettext_noop("%(name)s non è un giocatore del circolo"),
                    {"name": repr(n)},
                    player=n,
                )
                for n in missing
            ]
        )
    return found


@transaction.atomic
def turno_start(
    *,
    season: Season,
    date: dt.date,
    players: Sequence[str],
    first_dealer: str,
    table: str = "",
    number: int | None = None,
    user=None,
) -> Turno:
    """Open a turno: the table's players in seat order and the first dealer (SPEC §3.1)."""
    table = user_text(table, field="table", label="tavolo", max_length=40, required=False)
    problems = season.system.check_table(season.game_rules, list(players), first_dealer)
    if problems:
        raise RuleViolation(problems)
    by_name = _players_by_name(players)
    season_lock(season)  # the giornata, the turno number and a late joiner's recompute
    season_require_open(season, fresh=True)
    calendar = season.system.calendar(season.rules)
    span = Giornata.objects.filter(season=season).aggregate(first=Min("date"), last=Max("date"))
    outside = calendar.date_problem(date, **span, today=timezone.localdate())
    if outside is not None:  # the rule set's window: the season's span ± a year by default
        raise RuleViolation([outside])
    giornata, created = Giornata.objects.get_or_create(season=season, date=date)
    # one turno a date where the rule set says so (C.A.F. and the King family by default:
    # absences, series); other games play successive matches or lists on one evening
    busy = (
        Seat.objects.filter(turno__giornata=giornata, player__name__in=list(players))
        .select_related("player", "turno")
        .first()
        if calendar.one_turno_a_day
        else None
    )
    if busy is not None:
        raise RuleViolation(
            [
                Problem.said(
                    "PLAYER_TWICE_IN_GIORNATA",
                    gettext_noop("%(player)s gioca già il turno #%(number)s del %(date)s"),
                    {
                        "player": busy.player.name,
                        "number": busy.turno.number,
                        "date": formatting.date_short(date),
                    },
                    player=busy.player.name,
                    field="players",
                )
            ]
        )
    if number is None:
        number = (giornata.turni.aggregate(m=Max("number"))["m"] or 0) + 1
    elif giornata.turni.filter(number=number).exists():
        raise RuleViolation(
            [
                Problem.said(
                    "TURNO_DUPLICATE",
                    gettext_noop("esiste già il turno #%(number)s del %(date)s"),
                    {"number": number, "date": formatting.date_short(date)},
                )
            ]
        )
    turno = Turno.objects.create(
        season=season,
        giornata=giornata,
        number=number,
        table=table,
        first_dealer=by_name[first_dealer],
        segretario=user_of(user),
    )
    Seat.objects.bulk_create(
        Seat(turno=turno, player=by_name[name], position=i) for i, name in enumerate(players)
    )
    enrolled = set(
        Enrollment.objects.filter(season=season, player__name__in=list(players)).values_list(
            "player__name", flat=True
        )
    )
    history_created(Seat.objects.filter(turno=turno), user=user)
    Enrollment.objects.bulk_create(
        [Enrollment(season=season, player=by_name[n]) for n in players if n not in enrolled],
        ignore_conflicts=True,
    )
    if len(enrolled) < len(players) and season.standings.exists():
        # a late joiner takes the lowest score of every earlier giornata (SPEC §8.1) and a row
        # of the Classifica, as every member has once the table is written
        season_recompute(season=season)
    elif not created:
        # a table in corso excuses its players from the giornata's absences (C.A.F.): after a
        # close on that date they were absent. The first turno of a new date changes nothing
        # the standing holds: no query more
        standing_keep_for_table(season=season, giornata=giornata)
    return turno
