"""What every ledger does to a turno the same way, written once: the row lock, the guards and
their messages, the undo of the last deal, the close's stamp (status, Verbale number, trail,
standing, news) and the whole reopen. The two ledgers (:mod:`.turni`, :mod:`.games`) add only
what they score and store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from scoring import formatting
from scoring.models import Penalita, Player, Season, Seat, TitleAward, Turno, TurnoEvent
from scoring.rules.problems import Problem, RuleViolation
from scoring.rules.text import user_text
from scoring.selectors import turno_with_everything
from scoring.selectors_games import game_record
from scoring.services.close_requests import confirmations_clear
from scoring.services.locks import retry_once, season_lock_of_turno, season_require_open
from scoring.services.news import news_turno
from scoring.services.season import standing_keep, standing_keep_for_table

TURNO_CLOSED = gettext_noop(
    "il turno %(turno)s è chiuso: per modificarlo va riaperto con una motivazione"
)
TURNO_OPEN = gettext_noop("il turno %(turno)s è già aperto")


def fail(
    code: str, message: str, params: Mapping[str, Any] | None = None, **kw: Any
) -> RuleViolation:
    """A refusal in the reader's language: ``message`` is marked with ``gettext_noop`` (the
    frame translates it, :mod:`scoring.problem_text`), its values ``params`` put in apart."""
    return RuleViolation([Problem.said(code, message, params, **kw)])


def user_of(user: Any) -> Any:
    """The signed-in user a row records (None for a program or an anonymous request)."""
    return user if user is not None and user.is_authenticated else None


def turno_problem(code: str, template: str, turno: Turno, **kw: Any) -> RuleViolation:
    """A problem naming ``turno`` as a reader does (``20/11/2026 #1``), said in their language."""
    label = formatting.turno_label(turno.date, turno.number)
    return RuleViolation([Problem.said(code, template, {"turno": label}, **kw)])


def turno_lock(turno: Turno | int, load: Callable[[QuerySet[Turno]], QuerySet[Turno]]) -> Turno:
    """The turno, its row locked for this transaction, loaded by ``load`` (the prefetches its
    ledger reads)."""
    pk = turno.pk if isinstance(turno, Turno) else turno
    # lock the row first (PostgreSQL); SQLite serialises writers with IMMEDIATE transactions
    Turno.objects.select_for_update().filter(pk=pk).values_list("pk", flat=True).first()
    try:
        return load(Turno.objects.filter(pk=pk)).get()
    except Turno.DoesNotExist:
        raise fail("TURNO_MISSING", gettext_noop("turno inesistente")) from None


def require_open(turno: Turno) -> None:
    season_require_open(turno.season)  # a closed season is frozen
    if not turno.is_open:
        raise turno_problem("TURNO_CLOSED", TURNO_CLOSED, turno)


def next_number(number: int | None, expected: int) -> int:
    """The number of the deal to record: ``expected``, unless the caller believed another (a
    deal recorded meanwhile by another segretario)."""
    if number is not None and number != expected:
        raise fail(
            "SMAZZATA_ALREADY_RECORDED",
            gettext_noop(
                "la smazzata %(number)s è già stata registrata (ora si registra la "
                "%(expected)s): ricaricare la pagina"
            ),
            {"number": number, "expected": expected},
            smazzata=number,
        )
    return expected


def recorded_meanwhile(number: int) -> RuleViolation:
    """Deal ``number`` written by another segretario between the check and the insert."""
    return fail(
        "SMAZZATA_ALREADY_RECORDED",
        gettext_noop("la smazzata %(number)s è già stata registrata: ricaricare la pagina"),
        {"number": number},
        smazzata=number,
    )


def undo_last(turno: Turno, number: int | None) -> int:
    """Delete the last deal of an open, locked turno (``number``: the one the caller means);
    returns its number. The ledger then refreshes the totals."""
    require_open(turno)
    last = max(turno.smazzate.all(), key=lambda s: s.number, default=None)
    if last is None:
        raise fail("NOTHING_TO_UNDO", gettext_noop("non ci sono smazzate da annullare"))
    if number is not None and number != last.number:
        raise fail(
            "NOT_LAST_SMAZZATA",
            gettext_noop(
                "si può annullare solo l'ultima smazzata (la %(last)s), non la %(number)s"
            ),
            {"last": last.number, "number": number},
            smazzata=number,
        )
    last.delete()
    return last.number


def penalita_delete(penalita: Penalita | int, lock: Callable[[int], Turno]) -> Turno:
    """Delete a penalità of an open turno (locked with ``lock``); returns the turno, whose
    totals the ledger then refreshes."""
    pk = penalita.pk if isinstance(penalita, Penalita) else penalita
    pen = Penalita.objects.filter(pk=pk).first()
    if pen is None:
        raise fail("PENALITA_MISSING", gettext_noop("penalità inesistente"))
    turno = lock(pen.turno_id)
    require_open(turno)
    pen.delete()
    return turno


@transaction.atomic
def turno_delete(*, turno: Turno | int, user: Any = None) -> None:
    """Delete an open turno of any game with no deals (a turno started by mistake), and its
    giornata if it was the giornata's only turno. Beside a closed turno of the giornata, the
    season is computed again from it where the game declares `open_tables_excuse` (C.A.F.: the
    deleted table's players are absent again); the caller holds the season's lock
    (``scoring.api.turno_delete``)."""
    turno = turno_lock(turno, lambda qs: qs.select_related("season", "giornata"))
    require_open(turno)
    if turno.smazzate.exists():
        raise fail(
            "TURNO_NOT_EMPTY",
            gettext_noop("si può eliminare solo un turno senza smazzate: annullarle prima"),
        )
    giornata = turno.giornata
    turno.delete()
    if not giornata.turni.exists():
        giornata.delete()
    else:
        standing_keep_for_table(season=turno.season, giornata=giornata)


def close_stamp(turno: Turno, user: Any, *, recompute: bool = True) -> Turno:
    """The close of a scored turno (its places and winner set by its ledger): status, time,
    who, the Verbale number (kept across a reopen), the trail, the season's standing from its
    giornata, the news (after the commit)."""
    turno.status = Turno.CHIUSO
    turno.closed_at = timezone.now()
    turno.closed_by = user_of(user)
    if turno.verbale_number is None:
        last = Turno.objects.filter(season=turno.season).aggregate(m=Max("verbale_number"))["m"]
        turno.verbale_number = (last or 0) + 1
    turno.save()
    TurnoEvent.objects.create(turno=turno, kind=TurnoEvent.CLOSE, user=turno.closed_by)
    if recompute:
        standing_keep(season=turno.season, since=turno.giornata.date)
    news_turno(turno=turno, kind="close")  # after the commit, never in the way of the close
    return turno


@retry_once
@transaction.atomic
def turno_close(
    *,
    turno: Turno | int,
    tiebreak: Sequence[str] | None = None,
    user=None,
    recompute: bool = True,
) -> Turno:
    """Close a finished turno of any game: places (with the spareggio), what its system keeps
    on a seat (:attr:`~scoring.rules.systems.BaseSystem.seat_keeps`: C.A.F.'s ratios, the other
    games' scores and figures), the Verbale number, then the season from its giornata on
    (C.A.F.'s series, titles, league points, absences: SPEC §7-§8; the other games' fold).

    ``tiebreak`` is the spareggio order; None keeps the one recorded before (after a reopen).
    ``recompute=False`` leaves the season to the caller (an import closing many turni).
    """
    season_lock_of_turno(turno)  # first: closes, reopens and Verbale numbers are serial
    turno = turno_lock(turno, turno_with_everything)
    require_open(turno)
    season = turno.season
    record = game_record(turno, tiebreak=None if tiebreak is None else list(tiebreak))
    results = season.system.seat_results(closed_score(season, record, turno, label=None))
    turno.winner = store_places(turno, results, record["tiebreak"])
    return close_stamp(turno, user, recompute=recompute)


#: the seat's column for each figure of :meth:`seat_results` a system may keep (``seat_keeps``)
SEAT_COLUMNS = {"score": "league_points", "extra": "extra", "ratio": "ratio"}


def store_places(
    turno: Turno, results: Mapping[str, Mapping[str, Any]], tiebreak: Sequence[str]
) -> Player:
    """A closed turno's seats as its system scored them (``results``: :meth:`seat_results`):
    total, place, spareggio rank and what the system keeps (``seat_keeps``). Returns the
    winner."""
    keeps = turno.season.system.seat_keeps
    rank = {name: i + 1 for i, name in enumerate(tiebreak)}
    seats = list(turno.seats.all())
    for seat in seats:
        mine = results[seat.player.name]
        seat.total, seat.place = mine["total"], mine["place"]
        seat.tiebreak_rank = rank.get(seat.player.name)
        for key in keeps:
            value = mine[key]
            setattr(seat, SEAT_COLUMNS[key], value if key == "extra" else Decimal(str(value)))
    # places are unique per turno: clear then set, so a swap never trips the constraint
    Seat.objects.filter(turno=turno).update(place=None)
    columns = [SEAT_COLUMNS[key] for key in keeps]
    Seat.objects.bulk_update(seats, ["total", "place", "tiebreak_rank", *columns])
    return next(s.player for s in seats if s.place == 1)


def closed_score(season: Season, record: dict, turno: Turno, *, label: str | None) -> dict:
    """The turno's ``record`` scored as closed by the season's system (``score_turno``); its
    problems (unfinished, a tie to draw...) raised as RuleViolation, each named with ``label``
    in place of the label the system gives the turno (None: the turno being closed, unnamed)."""
    try:
        return season.system.score_turno(season.game_rules, record)
    except RuleViolation as exc:
        raise RuleViolation([_named(p, turno, label) for p in exc.problems]) from None


def _named(problem: Problem, turno: Turno, label: str | None) -> Problem:
    return replace(problem, turno=label) if problem.turno in (None, turno.label) else problem


def penalty_points(points: Any) -> None:
    """The points of a penalità as a program passes them: an ``int`` (the form types them; the
    rules then check the value). The one check of their type, for every ledger."""
    if isinstance(points, bool) or not isinstance(points, int):
        raise fail(
            "PENALITA_POINTS",
            gettext_noop("i punti della penalità vanno scritti in cifre"),
            field="points",
        )


def reopen_reason(reason: Any) -> str:
    """The reason of a reopen as it is kept (:func:`user_text`): required."""
    return user_text(
        reason,
        field="reason",
        label=gettext_noop("motivazione"),
        max_length=2000,
        code="REOPEN_REASON",
        empty=gettext_noop("per riaprire un turno chiuso serve una motivazione"),
    )


@retry_once
@transaction.atomic
def turno_reopen(*, turno: Turno | int, reason: str, user: Any = None) -> Turno:
    """Reopen a closed turno of any game with a reason (kept); the season's standing is
    computed again from its giornata."""
    reason = reopen_reason(reason)  # the one check of the reason, before any lock
    season_lock_of_turno(turno)  # first, as every close and reopen (services/locks.py)
    turno = turno_lock(turno, lambda qs: qs.select_related("season", "giornata"))
    season_require_open(turno.season)
    if turno.is_open:
        raise turno_problem("TURNO_OPEN", TURNO_OPEN, turno)
    turno.status = Turno.IN_CORSO
    turno.closed_at = None
    turno.winner = None
    turno.save()
    Seat.objects.filter(turno=turno).update(
        place=None,
        ratio=None,
        series_before="",
        series_after="",
        titles=[],
        league_points=None,
        extra={},  # the player's figures of this turno count again when it closes again
    )
    TitleAward.objects.filter(seat__turno=turno).delete()
    TurnoEvent.objects.create(
        turno=turno, kind=TurnoEvent.REOPEN, reason=reason, user=user_of(user)
    )
    confirmations_clear(turno=turno)  # the Verbale will change: its confirmations go
    standing_keep(season=turno.season, since=turno.giornata.date)
    news_turno(turno=turno, kind="reopen")
    return turno
