"""The writes of an open turno's deals, penalità and sanctions: one implementation for every game
system (issue 24, "One ledger").

The season's game system (:mod:`scoring.rules.systems`) checks and scores everything; this module
stores what the segretario recorded (each deal's interchange record, players by seat:
:mod:`scoring.records`) and what the system computed from it: each player's points per deal,
what the system indexes of a deal (:meth:`smazzata_keys`: the game and who chose it, and where
the system gives them the trump, a forced call, a scazzata, a cappotto) and the running totals.
Every function is one transaction; on any problem nothing is written and
:class:`RuleViolation` is raised, naming the deal, the field and the player.

The turno is loaded once per write with everything its live screen reads
(:func:`scoring.selectors.turno_with_everything`) and returned current: a recorded deal's
``smazzata.turno`` holds its deals, results and seats as they now stand, so the live screen
renders it without loading it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop

from scoring.models import Penalita, Player, Result, Sanction, Seat, Smazzata, Turno
from scoring.records import record_seats, seat_names
from scoring.rules.problems import Problem, RuleViolation
from scoring.rules.text import user_text
from scoring.selectors import turno_with_everything
from scoring.selectors_games import game_record
from scoring.services.history import history_created
from scoring.services.locks import season_lock_of_turno
from scoring.services.turno_frame import (
    closed_score,
    fail,
    next_number,
    penalita_delete,
    penalty_points,
    recorded_meanwhile,
    require_open,
    store_places,
    turno_lock,
    undo_last,
    user_of,
)


def lock(turno: Turno | int) -> Turno:
    """The turno, its row locked for this transaction, with everything the system and the live
    screen read."""
    return turno_lock(turno, turno_with_everything)


def _cached(turno: Turno, name: str, rows: list[Any]) -> None:
    """``turno.<name>.all()`` holds ``rows`` from now on (its prefetched rows kept current)."""
    turno._prefetched_objects_cache[name]._result_cache = rows  # type: ignore[attr-defined]


def _loaded(queryset: Any, rows: list[Any]) -> Any:
    """A queryset that holds ``rows`` as if prefetched (``.all()`` returns them, no query)."""
    queryset._result_cache = list(rows)
    queryset._prefetch_done = True
    return queryset


def _columns(keys: Mapping[str, Any], seats: Mapping[str, Seat]) -> dict[str, Any]:
    """A deal's indexed columns from what its system says of it (:meth:`smazzata_keys`): the
    game and the player who chose it, and the trump, a forced call, a scazzata and a cappotto
    where the system gives them (blank otherwise). Players as the seats' (loaded) members."""

    def player(name: Any) -> Player | None:
        return seats[name].player if name else None

    return {
        "game": keys["game"],
        "caller": player(keys.get("caller")),
        "trump": keys.get("trump") or "",
        "forced": bool(keys.get("forced")),
        "scazzata": bool(keys.get("scazzata")),
        "cappotto": player(keys.get("cappotto")),
    }


def store_totals(turno: Turno, running: Mapping[str, Any]) -> None:
    """Every seat's running total and penalità from the system's ``score_running``."""
    seats = list(turno.seats.all())
    for seat in seats:
        seat.total = running["totals"].get(seat.player.name, 0)
        seat.penalty_total = running.get("penalties", {}).get(seat.player.name, 0)
    Seat.objects.bulk_update(seats, ["total", "penalty_total"])


#: the running score of a turno its season's (edited) rules no longer score: no totals yet, as its
#: live screen shows it, until the rules or the turno are put right
NOT_SCORED: Mapping[str, Any] = {"smazzate": [], "totals": {}, "penalties": {}}


def _running(system: Any, rules: Any, record: Mapping[str, Any]) -> Mapping[str, Any]:
    """The turno scored so far by its system, or :data:`NOT_SCORED` if its rules cannot."""
    try:
        return system.score_running(rules, record)
    except RuleViolation:
        return NOT_SCORED


def _record_of(turno: Turno, record: Mapping[str, Any]) -> dict[str, Any]:
    """A deal's record as its system keeps it (:meth:`deal_record`), players by seat."""
    return record_seats(turno.season.system, record, seat_names(turno.seats.all()))


@transaction.atomic
def smazzata_record(
    *, turno: Turno | int, record: Mapping[str, Any], number: int | None = None, user: Any = None
) -> Smazzata:
    """Record the next deal of an open turno, checked and scored by the season's system.

    ``number`` is the deal the segretario believes they are recording: if another segretario
    recorded it first, nothing is written and the problem says so.
    """
    turno = lock(turno)
    system, rules = turno.season.system, turno.season.game_rules
    record = system.deal_record(record)
    require_open(turno)
    head = game_record(turno)
    expected = next_number(number, len(head["smazzate"]) + 1)
    problems = system.check_smazzata(rules, head, record)
    if problems:
        raise RuleViolation(problems)
    running = system.score_running(rules, {**head, "smazzate": [*head["smazzate"], record]})
    scored = running["smazzate"][-1]
    seats = {s.player.name: s for s in turno.seats.all()}
    try:
        with transaction.atomic():
            smazzata = Smazzata.objects.create(
                turno=turno,
                number=expected,
                dealer=seats[scored["dealer"]].player,
                record=_record_of(turno, record),
                recorded_by=user_of(user),
                **_columns(system.smazzata_keys(scored), seats),
            )
    except IntegrityError:
        raise recorded_meanwhile(expected) from None
    results = Result.objects.bulk_create(
        Result(smazzata=smazzata, player=seats[name].player, points=points)
        for name, points in scored["points"].items()
    )
    history_created(Result.objects.filter(smazzata=smazzata), user=user)
    store_totals(turno, running)
    # ``smazzata.turno`` is the turno as it now stands (its prefetched deals, results and seats
    # kept current), so the live screen renders it without loading it again
    smazzata._prefetched_objects_cache = {"results": _loaded(Result.objects.none(), results)}
    _cached(turno, "smazzate", [*turno.smazzate.all(), smazzata])
    return smazzata


@transaction.atomic
def smazzata_undo(*, turno: Turno | int, number: int | None = None, user: Any = None) -> int:
    """Delete the last deal of an open turno (``number``: the one the caller means). Returns its
    number. The deals before it are as they were: only the totals change."""
    turno = lock(turno)
    done = undo_last(turno, number)
    _cached(turno, "smazzate", [s for s in turno.smazzate.all() if s.number != done])
    system, rules = turno.season.system, turno.season.game_rules
    store_totals(turno, _running(system, rules, game_record(turno)))
    return done


def _later_problem(
    system: Any, rules: Any, full: Mapping[str, Any], deals: list[Any], since: int
) -> RuleViolation | None:
    """The first deal after ``since`` that the corrected ``deals`` make illegal, its problems
    addressed to it (by number, not on a field of the corrected deal's form); None if none."""
    for i in range(since, len(deals)):
        problems = system.check_smazzata(rules, {**full, "smazzate": deals[:i]}, deals[i])
        if problems:
            return RuleViolation(
                [
                    Problem.said(
                        "CORRECTION_BREAKS_LATER",
                        gettext_noop(
                            "con questa correzione la smazzata %(number)s non è più valida: "
                            "correggere prima quella"
                        ),
                        {"number": i + 1},
                        smazzata=i + 1,
                    ),
                    # the problem put first names the deal; each message is the engine's as is
                    *(replace(p, field=None, player=None, smazzata=i + 1) for p in problems),
                ]
            )
    return None


@transaction.atomic
def smazzata_correct(
    *,
    turno: Turno | int,
    record: Mapping[str, Any],
    number: int | None = None,
    user: Any = None,
) -> Smazzata:
    """Correct deal ``number`` (the last one when None) of an open turno, in place.

    The system checks the corrected deal and every later one again, in order (a correction may
    change who deals next, what is left to choose, who is forced); if any of them is now illegal
    nothing is saved and the problem names its number. Otherwise deals ``number``..end are
    scored again and the totals refreshed. Each changed row is saved on its own, so the audit
    trail (django-simple-history) keeps every correction.
    """
    turno = lock(turno)
    system, rules = turno.season.system, turno.season.game_rules
    record = system.deal_record(record)
    require_open(turno)
    full = game_record(turno)
    played = len(full["smazzate"])
    if played == 0:
        nothing = gettext_noop("non ci sono smazzate da correggere")
        raise RuleViolation([Problem.said("NOTHING_TO_CORRECT", nothing)])
    k = played if number is None else number
    if not 1 <= k <= played:
        missing = gettext_noop("la smazzata %(number)s non esiste: il turno ne ha %(played)s")
        params = {"number": k, "played": played}
        raise RuleViolation([Problem.said("SMAZZATA_MISSING", missing, params, smazzata=k)])
    deals = [*full["smazzate"][: k - 1], record, *full["smazzate"][k:]]
    problems = system.check_smazzata(rules, {**full, "smazzate": deals[: k - 1]}, record)
    if problems:
        raise RuleViolation(problems)
    try:
        running = system.score_running(rules, {**full, "smazzate": deals})
    except RuleViolation as exc:  # a later deal the correction makes illegal: named
        raise _later_problem(system, rules, full, deals, k) or exc from None
    seats = {s.player.name: s for s in turno.seats.all()}
    rows = {sm.number: sm for sm in turno.smazzate.all()}
    recorder = user_of(user)
    for scored in running["smazzate"][k - 1 :]:
        n = scored["number"]
        row = rows[n]
        values = {
            **_columns(system.smazzata_keys(scored), seats),
            "dealer": seats[scored["dealer"]].player,
            "record": _record_of(turno, deals[n - 1]),
        }
        if n == k:
            values["recorded_by_id"] = recorder.pk if recorder is not None else None
        changed = [f for f, v in values.items() if getattr(row, f) != v]
        results = list(row.results.all())
        rescored = [r for r in results if r.points != scored["points"][r.player.name]]
        if changed or rescored:  # recorded_at dates the correction (the scoreboard's version)
            for f in changed:
                setattr(row, f, values[f])
            row.save(update_fields=[*changed, "recorded_at"])
        for result in rescored:
            result.points = scored["points"][result.player.name]
            result.save(update_fields=["points"])
    store_totals(turno, running)
    return rows[k]


def penalty_texts(article: Any, reason: Any) -> tuple[str, str]:
    """A penalità's article (required) and reason as typed texts are kept (:func:`user_text`)."""
    article = user_text(article, field="article", label="articolo", max_length=20, required=False)
    if not article:
        raise fail(
            "PENALITA_ARTICLE", gettext_noop("serve l'articolo del regolamento"), field="article"
        )
    reason = user_text(reason, field="reason", label="motivo", max_length=300, required=False)
    return article, reason


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
    """A penalità on a player of an open turno, for a game that counts them (checked by the
    system: the player, the points)."""
    penalty_points(points)
    turno = lock(turno)
    require_open(turno)
    system, rules = turno.season.system, turno.season.game_rules
    if not system.takes_penalties:
        raise fail(
            "PENALITA_NOT_IN_GAME",
            gettext_noop("%(game)s non prevede penalità"),
            {"game": system.label},
        )
    article, reason = penalty_texts(article, reason)
    head = game_record(turno)
    penalty = {"player": player, "points": points, "article": article, "reason": reason}
    record = {**head, "penalties": [*head["penalties"], penalty]}
    seat = next((s for s in turno.seats.all() if s.player.name == player), None)
    try:  # the system checks the player and the points
        running = system.score_running(rules, record)
    except RuleViolation:
        if seat is None or _running(system, rules, head) is not NOT_SCORED:
            raise  # the penalità's problems: the turno scores without it
        running = NOT_SCORED  # rules that no longer score the turno: the penalità waits for them
    if points == 0:  # where the system's rules allow one: no penalità all the same
        raise fail(
            "PENALITA_ZERO",
            gettext_noop("una penalità di 0 punti non è una penalità"),
            field="points",
        )
    assert seat is not None  # a player not seated is the system's problem
    pen = Penalita.objects.create(
        turno=turno,
        player=seat.player,
        points=points,
        article=article,
        reason=reason,
        created_by=user_of(user),
    )
    store_totals(turno, running)
    return pen


@transaction.atomic
def penalita_remove(*, penalita: Penalita | int, user: Any = None) -> None:
    """Delete a penalità of an open turno; its totals refreshed."""
    turno = penalita_delete(penalita, lock)
    pk = penalita.pk if isinstance(penalita, Penalita) else penalita
    _cached(turno, "penalita", [p for p in turno.penalita.all() if p.pk != pk])
    system, rules = turno.season.system, turno.season.game_rules
    store_totals(turno, _running(system, rules, game_record(turno)))


def _history_by(row: Sanction, user: Any) -> None:
    """The change history names ``user`` for the next save or delete of ``row``, from a program
    too (without it only a request's signed-in user is named)."""
    if user_of(user) is not None:
        row._history_user = user  # type: ignore[attr-defined]


@transaction.atomic
def sanction_add(*, turno: Turno | int, player: str, reason: str, user: Any = None) -> Sanction:
    """A Retrocessione per contatore on a player of an open turno (applied when it closes), for
    a game that ``takes_sanctions``; checked by the system (the player, the reason, once)."""
    turno = lock(turno)
    require_open(turno)
    system, rules = turno.season.system, turno.season.game_rules
    if not system.takes_sanctions:
        raise RuleViolation(
            [
                Problem.said(
                    "SANCTION_NOT_IN_GAME",
                    gettext_noop("%(game)s non prevede la retrocessione per contatore"),
                    {"game": system.label},
                    field="sanction",
                )
            ]
        )
    reason = user_text(reason, field="reason", label="motivo", max_length=300, required=False)
    record = game_record(turno)
    record["sanctions"].append({"player": player, "kind": Sanction.CONTATORE, "reason": reason})
    system.score_running(rules, record)
    seat = next(s for s in turno.seats.all() if s.player.name == player)
    sanction = Sanction(turno=turno, player=seat.player, reason=reason, created_by=user_of(user))
    _history_by(sanction, user)
    sanction.save()
    return sanction


@transaction.atomic
def sanction_remove(*, sanction: Sanction | int, user: Any = None) -> None:
    """Delete a sanction of an open turno."""
    pk = sanction.pk if isinstance(sanction, Sanction) else sanction
    found = Sanction.objects.filter(pk=pk).first()
    if found is None:
        raise fail("SANCTION_MISSING", gettext_noop("sanzione inesistente"))
    require_open(lock(found.turno_id))
    _history_by(found, user)
    found.delete()


@transaction.atomic
def turno_rescore(*, turno: Turno | int) -> None:
    """Score a turno of any game again with its season's (edited) rule set: every deal's columns
    (:func:`_columns`, the dealer) and points, the running totals and, for a closed turno, its
    places and what its system keeps on a seat (:func:`store_places`) and its winner; the
    season is the caller's to recompute. A closed turno the rules no longer close (unfinished,
    a tie to draw) or a deal they refuse stops it, named with the turno (RuleViolation).

    A seat's figures (``extra``) are emptied first: a closed turno's are stored again here where
    its system keeps them, C.A.F.'s by the season's recompute (``seat_figures_fill``)."""
    season_lock_of_turno(turno)
    turno = lock(turno)
    season = turno.season
    system, rules = season.system, season.game_rules
    record = game_record(turno)
    # a closed turno scored as closed first: every problem of it (a tie too) stops the rescore
    scored = None if turno.is_open else closed_score(season, record, turno, label=turno.label)
    try:
        running = system.score_running(rules, record)
    except RuleViolation as exc:
        raise RuleViolation([p.in_turno(turno.label) for p in exc.problems]) from None
    by_number = {s["number"]: s for s in running["smazzate"]}
    seats = {s.player.name: s for s in turno.seats.all()}
    smazzate, results = list(turno.smazzate.all()), []
    for sm in smazzate:
        mine = by_number[sm.number]
        values = {
            **_columns(system.smazzata_keys(mine), seats),
            "dealer": seats[mine["dealer"]].player,
        }
        for field, value in values.items():
            setattr(sm, field, value)
        for r in sm.results.all():
            r.points = mine["points"][r.player.name]
            results.append(r)
    if smazzate:
        Smazzata.objects.bulk_update(smazzate, list(values))
    Result.objects.bulk_update(results, ["points"])
    store_totals(turno, running)
    Seat.objects.filter(turno=turno).update(extra={})
    if scored is not None:
        turno.winner = store_places(turno, system.seat_results(scored), record["tiebreak"])
        turno.save(update_fields=["winner"])
