"""Writes to a turno: start, record and undo smazzate, penalità, sanctions, close, reopen.

Every function is one transaction: the engine checks the input, and on any problem nothing is
written and :class:`RuleViolation` (Italian messages, one per problem) is raised.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import replace

from django.db import IntegrityError, transaction
from django.db.models import Max, Min
from django.utils import timezone
from django.utils.translation import gettext_noop

from scoring import formatting
from scoring.models import (
    Enrollment,
    Giornata,
    Penalita,
    Player,
    Result,
    Sanction,
    Season,
    Seat,
    Smazzata,
    Turno,
)
from scoring.records import record_seats, seat_names
from scoring.rules.caf import (
    Penalty,
    SmazzataRecord,
    TurnoRecord,
    check_smazzata,
    score_smazzata,
    score_turno,
)
from scoring.rules.caf import Sanction as SanctionRecord
from scoring.rules.caf.interchange import smazzata_to_input
from scoring.rules.caf.turno import check_penalties_and_sanctions
from scoring.rules.problems import Problem, RuleViolation
from scoring.rules.text import user_text
from scoring.selectors import turno_record, turno_with_everything
from scoring.services.history import history_created
from scoring.services.locks import (
    retry_once,
    season_lock,
    season_lock_of_turno,
    season_require_open,
)
from scoring.services.season import season_recompute, standing_keep_for_table
from scoring.services.turno_frame import (
    close_stamp,
    fail,
    next_number,
    penalita_delete,
    penalty_points,
    recorded_meanwhile,
    require_open,
    turno_lock,
    undo_last,
    user_of,
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


def _stored(turno: Turno, sm: SmazzataRecord) -> dict[str, object]:
    """A checked smazzata as :class:`Smazzata` keeps its record: the interchange record with
    its players by seat (:mod:`scoring.records`), as every game's."""
    return record_seats(turno.season.system, smazzata_to_input(sm), seat_names(turno.seats.all()))


def _refresh_totals(turno: Turno) -> None:
    """Running totals of every seat, from the engine, after any change to the turno."""
    record = turno_record(turno)
    score = score_turno(turno.season.ruleset, record, require_complete=False)
    seats = list(turno.seats.all())
    for seat in seats:
        seat.total = score.totals.get(seat.player.name, 0)
        seat.penalty_total = score.penalties.get(seat.player.name, 0)
    Seat.objects.bulk_update(seats, ["total", "penalty_total"])


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
def smazzata_record(
    *,
    turno: Turno | int,
    game: str,
    caller: str,
    counts: Mapping[str, object],
    trump: str | None = None,
    number: int | None = None,
    user=None,
) -> Smazzata:
    """Record the next smazzata of an open turno, scored by the engine.

    ``number`` is the smazzata the segretario believes they are recording: if another segretario
    recorded it first, nothing is written and the problem says so.
    """
    turno = _lock(turno)
    require_open(turno)
    rules = turno.season.ruleset
    record = turno_record(turno)
    expected = next_number(number, len(record.smazzate) + 1)
    sm = SmazzataRecord(game=game, caller=caller, result=dict(counts), trump=trump or None)
    problems, forced = check_smazzata(rules, record, sm)
    if problems:
        raise RuleViolation(problems)
    pts = score_smazzata(rules, record.players, game, caller, forced, sm.result)
    seats = {s.player.name: s for s in turno.seats.all()}
    dealer_name = record.first_dealer if not record.smazzate else record.smazzate[-1].caller
    try:
        with transaction.atomic():
            smazzata = Smazzata.objects.create(
                turno=turno,
                number=expected,
                game=game,
                caller=seats[caller].player,
                dealer=seats[dealer_name].player,
                trump=(trump or "") if rules.games[game].trump else "",
                forced=forced,
                scazzata=pts.scazzata,
                cappotto=seats[pts.cappotto].player if pts.cappotto else None,
                record=_stored(turno, sm),
                recorded_by=user_of(user),
            )
    except IntegrityError:
        raise recorded_meanwhile(expected) from None
    results = Result.objects.bulk_create(
        Result(smazzata=smazzata, player=seats[name].player, points=p)
        for name, p in pts.points.items()
    )
    history_created(Result.objects.filter(smazzata=smazzata), user=user)
    for name, seat in seats.items():
        seat.total += pts.points[name]
    Seat.objects.bulk_update(seats.values(), ["total"])
    # ``smazzata.turno`` is the turno as it now stands (its prefetched smazzate, results and
    # seats kept current), so the live screen renders it without loading it again
    smazzata._prefetched_objects_cache = {"results": _loaded(Result.objects.none(), results)}
    turno._prefetched_objects_cache["smazzate"]._result_cache.append(smazzata)
    return smazzata


def _loaded(queryset, rows: list):
    """A queryset that holds ``rows`` as if prefetched (``.all()`` returns them, no query)."""
    queryset._result_cache = list(rows)
    queryset._prefetch_done = True
    return queryset


@transaction.atomic
def smazzata_undo(*, turno: Turno | int, number: int | None = None, user=None) -> int:
    """Delete the last smazzata of an open turno (the segretario's undo). Returns its number."""
    done = undo_last(_lock(turno), number)
    _refresh_totals(_lock(turno))
    return done


@transaction.atomic
def smazzata_correct(
    *,
    turno: Turno | int,
    game: str,
    caller: str,
    counts: Mapping[str, object],
    trump: str | None = None,
    number: int | None = None,
    user=None,
) -> Smazzata:
    """Correct smazzata ``number`` (the last one when None) of an open turno, in place.

    The engine checks the corrected smazzata and every later one again, in order (a new call
    changes who deals next, what is left to call and who is forced); if any of them is now
    illegal nothing is saved and the problem names its number. Otherwise smazzate
    ``number``..end are scored again and the totals refreshed. Each changed row is saved on its
    own, so the audit trail (django-simple-history) keeps every correction.
    """
    turno = _lock(turno)
    require_open(turno)
    rules = turno.season.ruleset
    record = turno_record(turno)
    played = len(record.smazzate)
    if played == 0:
        raise fail("NOTHING_TO_CORRECT", "non ci sono smazzate da correggere")
    k = played if number is None else number
    if not 1 <= k <= played:
        raise fail(
            "SMAZZATA_MISSING",
            f"la smazzata {k} non esiste: il turno ne ha {played}",
            smazzata=k,
        )
    fixed = SmazzataRecord(game=game, caller=caller, result=dict(counts), trump=trump or None)
    sequence = [*record.smazzate[: k - 1], fixed, *record.smazzate[k:]]
    rescored = []  # (number, record, forced, points), for k..end
    for i in range(k - 1, played):
        sm = sequence[i]
        problems, forced = check_smazzata(rules, replace(record, smazzate=tuple(sequence[:i])), sm)
        if problems and i > k - 1:  # a later smazzata: reported by number, not on a field
            # the number is the problem's smazzata, named once by the frame (describe(), the
            # summary) and by the problem put first; its message is the engine's as it is
            problems = [replace(p, field=None, player=None, smazzata=i + 1) for p in problems]
            problems.insert(
                0,
                Problem.said(
                    "CORRECTION_BREAKS_LATER",
                    gettext_noop(
                        "con questa correzione la smazzata %(number)s non è più valida: "
                        "correggere prima quella"
                    ),
                    {"number": i + 1},
                    smazzata=i + 1,
                ),
            )
        if problems:
            raise RuleViolation(problems)
        rescored.append(
            (
                i + 1,
                sm,
                forced,
                score_smazzata(rules, record.players, sm.game, sm.caller, forced, sm.result),
            )
        )
    seats = {s.player.name: s.player for s in turno.seats.all()}
    rows = {sm.number: sm for sm in turno.smazzate.all()}
    recorder = user_of(user)
    for n, sm, forced, pts in rescored:
        row = rows[n]
        dealer = record.first_dealer if n == 1 else sequence[n - 2].caller
        values = {
            "game": sm.game,
            "caller_id": seats[sm.caller].pk,
            "dealer_id": seats[dealer].pk,
            "trump": (sm.trump or "") if rules.games[sm.game].trump else "",
            "forced": forced,
            "scazzata": pts.scazzata,
            "cappotto_id": seats[pts.cappotto].pk if pts.cappotto else None,
            "record": _stored(turno, sm),
        }
        if n == k:
            values["recorded_by_id"] = recorder.pk if recorder is not None else None
        changed = [f for f, v in values.items() if getattr(row, f) != v]
        recounted = any(r.points != pts.points[r.player.name] for r in row.results.all())
        if changed or recounted:  # recorded_at dates the correction (the scoreboard's version)
            for f in changed:
                setattr(row, f, values[f])
            row.save(update_fields=[*changed, "recorded_at"])
        for result in row.results.all():
            name = result.player.name
            new = {"points": pts.points[name]}
            diff = [f for f, v in new.items() if getattr(result, f) != v]
            if diff:
                for f in diff:
                    setattr(result, f, new[f])
                result.save(update_fields=diff)
    _refresh_totals(_lock(turno))
    return rows[k]


@transaction.atomic
def penalita_add(
    *, turno: Turno | int, player: str, points: int, article: str, reason: str = "", user=None
) -> Penalita:
    penalty_points(points)
    turno = _lock(turno)
    require_open(turno)
    article = user_text(article, field="article", label="articolo", max_length=20, required=False)
    reason = user_text(reason, field="reason", label="motivo", max_length=300, required=False)
    record = turno_record(turno)
    probe = TurnoRecord(
        players=record.players,
        first_dealer=record.first_dealer,
        penalties=(Penalty(player, points, article, reason),),
    )
    problems = check_penalties_and_sanctions(probe)
    if problems:
        raise RuleViolation(problems)
    seat = next(s for s in turno.seats.all() if s.player.name == player)
    pen = Penalita.objects.create(
        turno=turno,
        player=seat.player,
        points=points,
        article=article,
        reason=reason,
        created_by=user_of(user),
    )
    _refresh_totals(_lock(turno))
    return pen


@transaction.atomic
def penalita_remove(*, penalita: Penalita | int, user=None) -> None:
    _refresh_totals(_lock(penalita_delete(penalita, _lock)))


@transaction.atomic
def sanction_add(*, turno: Turno | int, player: str, reason: str, user=None) -> Sanction:
    """Record a Retrocessione per contatore (applied when the turno closes)."""
    turno = _lock(turno)
    require_open(turno)
    reason = user_text(reason, field="reason", label="motivo", max_length=300, required=False)
    record = turno_record(turno)
    probe = TurnoRecord(
        players=record.players,
        first_dealer=record.first_dealer,
        sanctions=(*record.sanctions, SanctionRecord(player, Sanction.CONTATORE, reason)),
    )
    problems = check_penalties_and_sanctions(probe)
    if problems:
        raise RuleViolation(problems)
    seat = next(s for s in turno.seats.all() if s.player.name == player)
    sanction = Sanction(turno=turno, player=seat.player, reason=reason, created_by=user_of(user))
    _history_by(sanction, user)
    sanction.save()
    return sanction


@transaction.atomic
def sanction_remove(*, sanction: Sanction | int, user=None) -> None:
    pk = sanction.pk if isinstance(sanction, Sanction) else sanction
    s = Sanction.objects.filter(pk=pk).first()
    if s is None:
        raise fail("SANCTION_MISSING", "sanzione inesistente")
    require_open(_lock(s.turno_id))
    _history_by(s, user)
    s.delete()


def _history_by(row: Sanction, user) -> None:
    """The change history names ``user`` for the next save or delete of ``row``, from a program
    too (without it only a request's signed-in user is named)."""
    if user_of(user) is not None:
        row._history_user = user  # type: ignore[attr-defined]


@retry_once
@transaction.atomic
def turno_close(
    *,
    turno: Turno | int,
    tiebreak: Sequence[str] | None = None,
    user=None,
    recompute: bool = True,
) -> Turno:
    """Close a complete turno: places (with the spareggio), ratios, then the season from its
    giornata on: series, titles, league points, absences, standings (SPEC §7-§8).

    ``tiebreak`` is the spareggio order; None keeps the one recorded before (after a reopen).
    """
    season_lock_of_turno(turno)  # first: closes, reopens and Verbale numbers are serial
    turno = _lock(turno)
    require_open(turno)
    rules = turno.season.ruleset
    record = turno_record(turno, tiebreak=None if tiebreak is None else list(tiebreak))
    score = score_turno(rules, record, require_complete=True)
    if score.problems:
        raise RuleViolation(score.problems)
    assert score.places is not None and score.ratios is not None
    rank = {name: i + 1 for i, name in enumerate(record.tiebreak)}
    seats = list(turno.seats.all())
    for seat in seats:
        name = seat.player.name
        seat.total = score.totals[name]
        seat.penalty_total = score.penalties[name]
        seat.place = score.places[name]
        seat.ratio = score.ratios[name]
        seat.tiebreak_rank = rank.get(name)
    # places are unique per turno: clear then set, so a swap never trips the constraint
    Seat.objects.filter(turno=turno).update(place=None)
    Seat.objects.bulk_update(seats, ["total", "penalty_total", "place", "ratio", "tiebreak_rank"])
    turno.winner = next(s.player for s in seats if s.place == 1)
    return close_stamp(turno, user, recompute=recompute)


@transaction.atomic
def rescore_turno(*, turno: Turno | int) -> None:
    """Score every smazzata of a turno again (after a rule set change), and its places."""
    season_lock_of_turno(turno)
    turno = _lock(turno)
    rules = turno.season.ruleset
    record = turno_record(turno)
    score = score_turno(rules, record, require_complete=not turno.is_open)
    if score.problems:
        raise RuleViolation([p.in_turno(turno.label) for p in score.problems])
    by_number = {s.number: s for s in score.smazzate}
    players = {s.player.name: s.player for s in turno.seats.all()}
    smazzate, results = [], []
    for sm in turno.smazzate.all():
        scored = by_number[sm.number]
        sm.forced, sm.scazzata = scored.forced, scored.scazzata
        sm.cappotto = players[scored.cappotto] if scored.cappotto else None
        smazzate.append(sm)
        for r in sm.results.all():
            r.points = scored.points[r.player.name]
            results.append(r)
    Smazzata.objects.bulk_update(smazzate, ["forced", "scazzata", "cappotto"])
    Result.objects.bulk_update(results, ["points"])
    seats = list(turno.seats.all())
    for seat in seats:
        name = seat.player.name
        seat.total, seat.penalty_total = score.totals[name], score.penalties[name]
        if score.places is not None:
            seat.place, seat.ratio = score.places[name], score.ratios[name]
    for seat in seats:
        seat.extra = {}  # the figures of the rescored smazzate: stored again by the recompute
    Seat.objects.filter(turno=turno).update(place=None)
    Seat.objects.bulk_update(seats, ["total", "penalty_total", "place", "ratio", "extra"])
    if score.places is not None:
        turno.winner = next(players[n] for n, p in score.places.items() if p == 1)
        turno.save(update_fields=["winner"])
