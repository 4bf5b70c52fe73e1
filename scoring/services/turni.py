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
    Result,
    Season,
    Seat,
    Smazzata,
    Turno,
)
from scoring.rules.problems import Problem, RuleViolation
from scoring.rules.text import user_text
from scoring.selectors import turno_with_everything
from scoring.selectors_games import game_record
from scoring.services.history import history_created
from scoring.services.locks import (
    season_lock,
    season_lock_of_turno,
    season_require_open,
)
from scoring.services.season import season_recompute, standing_keep_for_table
from scoring.services.turno_frame import closed_score, turno_lock, user_of
from scoring.services.turno_frame import (
    turno_close as turno_close,  # one close for every game (its old home)
)
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


@transaction.atomic
def rescore_turno(*, turno: Turno | int) -> None:
    """Score every smazzata of a turno again (after a rule set change), and its places."""
    season_lock_of_turno(turno)
    turno = _lock(turno)
    season = turno.season
    system, rules = season.system, season.game_rules
    record = game_record(turno)
    # a closed turno scored as closed first: every problem of it (a tie too) stops the rescore
    scored = None if turno.is_open else closed_score(season, record, turno, label=turno.label)
    try:
        running = system.score_running(rules, record)
    except RuleViolation as exc:
        raise RuleViolation([p.in_turno(turno.label) for p in exc.problems]) from None
    by_number = {
        s["number"]: system.smazzata_keys(s) | {"points": s["points"]} for s in running["smazzate"]
    }
    players = {s.player.name: s.player for s in turno.seats.all()}
    smazzate, results = [], []
    for sm in turno.smazzate.all():
        keys = by_number[sm.number]
        sm.forced, sm.scazzata = keys["forced"], keys["scazzata"]
        sm.cappotto = players[keys["cappotto"]] if keys["cappotto"] else None
        smazzate.append(sm)
        for r in sm.results.all():
            r.points = keys["points"][r.player.name]
            results.append(r)
    Smazzata.objects.bulk_update(smazzate, ["forced", "scazzata", "cappotto"])
    Result.objects.bulk_update(results, ["points"])
    seats = list(turno.seats.all())
    places = None if scored is None else system.seat_results(scored)
    for seat in seats:
        name = seat.player.name
        seat.total, seat.penalty_total = running["totals"][name], running["penalties"][name]
        if places is not None:
            seat.place, seat.ratio = places[name]["place"], places[name]["ratio"]
    for seat in seats:
        seat.extra = {}  # the figures of the rescored smazzate: stored again by the recompute
    Seat.objects.filter(turno=turno).update(place=None)
    Seat.objects.bulk_update(seats, ["total", "penalty_total", "place", "ratio", "extra"])
    if places is not None:
        turno.winner = next(players[n] for n, p in places.items() if p["place"] == 1)
        turno.save(update_fields=["winner"])
