"""The close, the rescore, the replay and the import of a season kept by the records ledger (every
system but C.A.F.); the writes of a turno's deals are every game's (:mod:`.deals`).

The season's game system (:mod:`scoring.rules.systems`) checks and scores everything; this module
stores what the system computed from the recorded deals (places, the system's figures, the
season standing), one transaction per function. On any problem nothing is written and
:class:`RuleViolation` is raised, naming the smazzata and the player.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from scoring.models import (
    Enrollment,
    Giornata,
    Penalita,
    Result,
    Season,
    Seat,
    Smazzata,
    Standing,
    Turno,
    TurnoEvent,
)
from scoring.records import record_seats
from scoring.rules.caf.interchange import MAX_TURNO_NUMBER
from scoring.rules.calendar import Calendar
from scoring.rules.problems import AT_TURNO, Problem, RuleViolation, said
from scoring.rules.systems import get_system
from scoring.selectors_games import game_record, game_turni, takes_penalties
from scoring.services.bulk import ids_by_name, insert_rows
from scoring.services.deals import penalty_texts, turno_rescore
from scoring.services.differences import (
    AT_CLASSIFICA,
    AT_GIORNATA,
    REPLAY_ERRORS,
    Difference,
    unreplayable,
)
from scoring.services.news import news_muted
from scoring.services.season import (
    FOLD,
    game_standing_refresh,
    season_create,
    season_recompute,
)
from scoring.services.turno_frame import (
    fail,
    turno_close,
    turno_lock,
    turno_reopen,
    user_of,
)


def _lock(turno: Turno | int) -> Turno:
    return turno_lock(turno, game_turni)


@transaction.atomic
def season_turni_rescore(*, season: Season) -> None:
    """Every turno of a season of any game scored again with its (edited) rule set
    (:func:`turno_rescore`), then the season's standing from the first giornata; a closed turno
    the new rules reject stops everything (nothing is written)."""
    for pk in (
        Turno.objects.filter(season=season)
        .order_by("giornata__date", "number")
        .values_list("pk", flat=True)
    ):
        turno_rescore(turno=pk)
    season_recompute(season=season)


# one close for every game (:func:`scoring.services.turno_frame.turno_close`)
game_turno_close = turno_close

# one reopen for every game (:func:`scoring.services.turno_frame.turno_reopen`)
game_turno_reopen = turno_reopen


def _closed_records(season: Season, before: dt.date | None = None) -> list[dict[str, Any]]:
    qs = Turno.objects.filter(season=season, status=Turno.CHIUSO)
    if before is not None:
        qs = qs.filter(giornata__date__lt=before)
    return [game_record(t) for t in game_turni(qs).order_by("giornata__date", "number")]


def game_standing(season: Season, *, before: dt.date | None = None) -> list[dict[str, Any]]:
    """The season's standing rows replayed from its closed turni (those before ``before`` if
    given): every turno scored again by the system (``check_ledger``; the pages read the stored
    standing that :func:`game_standing_refresh` keeps)."""
    roster = list(
        Enrollment.objects.filter(season=season)
        .order_by("player__name")
        .values_list("player__name", flat=True)
    )
    return season.system.standing(season.game_rules, roster, _closed_records(season, before))


def game_differences(season: Season) -> list[Any]:
    """Every stored value of a generic season that differs from a replay of its facts by the
    season's system (``check_ledger`` for these games): each smazzata's dealer, chooser, game
    and points, the running totals, a closed turno's places and figures, the standing."""
    season = Season.objects.get(pk=season.pk)  # the rule set as stored now
    system, rules = season.system, season.game_rules
    found: list[Difference] = []

    def compare(where: str, field: str, stored: object, expected: object) -> None:
        if stored != expected:
            found.append(Difference(season.name, where, field, stored, expected))

    found_unreplayable: list[str] = []

    def refused(where: str, exc: Exception) -> None:
        found_unreplayable.append(where)
        found.append(unreplayable(season.name, where, exc))

    replayed: dict[int, list[dict[str, dict[str, Any]]]] = {}  # giornata -> closed turni
    for turno in game_turni(
        Turno.objects.filter(season=season).order_by("giornata__date", "number")
    ):
        record = game_record(turno)
        try:
            running = system.score_running(rules, record)
            figures = {}
            if not turno.is_open:
                figures = system.seat_results(system.score_turno(rules, record))
        except REPLAY_ERRORS as exc:  # a record the engine refuses: reported, never raised
            refused(said(AT_TURNO, turno=turno.label), exc)
            continue
        scored = {s["number"]: s for s in running["smazzate"]}
        for sm in turno.smazzate.all():
            where = said(
                gettext_noop("%(turno)s smazzata %(number)s"), turno=turno.label, number=sm.number
            )
            mine = scored.get(sm.number)
            if mine is None:
                compare(where, "smazzata", sm.number, None)
                continue
            keys = system.smazzata_keys(mine)
            compare(where, "dealer", sm.dealer.name, mine["dealer"])
            compare(where, "game", sm.game, keys["game"])
            compare(where, "caller", sm.caller.name if sm.caller else None, keys.get("caller"))
            compare(where, "points", {r.player.name: r.points for r in sm.results.all()},
                    dict(mine["points"]))  # fmt: skip
        for seat in turno.seats.all():
            where, name = f"{turno.label} {seat.player.name}", seat.player.name
            if turno.is_open:
                compare(where, "total", seat.total, running["totals"].get(name, 0))
                compare(where, "place", seat.place, None)
                continue
            mine = figures[name]
            compare(where, "total", seat.total, mine["total"])
            compare(where, "place", seat.place, mine["place"])
            compare(where, "league_points", seat.league_points, Decimal(mine["score"]))
            compare(where, "extra", seat.extra, mine["extra"])
        if not turno.is_open:
            ids = {s.player.name: str(s.player_id) for s in turno.seats.all()}
            replayed.setdefault(turno.giornata_id, []).append(
                {ids[p]: {"total": f["total"], "place": f["place"], "extra": f["extra"]}
                 for p, f in figures.items()}
            )  # fmt: skip
            winner = next((p for p, f in figures.items() if f["place"] == 1), None)
            compare(turno.label, "winner", turno.winner.name if turno.winner else None, winner)
    # the season fold kept after each giornata, against the replayed turni folded again (a
    # giornata without a checkpoint is folded from an earlier one: it costs time, not truth)
    state: dict[str, Any] = {}
    for g in Giornata.objects.filter(season=season).order_by("date"):
        state = system.standing_fold(state, replayed.get(g.pk, []))
        if FOLD in (g.state_after or {}) and not found_unreplayable:
            where = said(AT_GIORNATA, date=g.date.isoformat())
            compare(where, "stato dopo", g.state_after[FOLD], state)
    columns = system.standing_columns()
    try:
        replay = game_standing(season)
    except REPLAY_ERRORS as exc:
        refused("classifica", exc)
        return found
    # every column of the stored Classifica (a row edited in a backup is a difference)
    fields = ("place", "score", "turni")
    expected = {
        r["player"]: (r["place"], Decimal(str(r[columns[0][0]])), r.get("turni", 0)) for r in replay
    }
    kept = list(Standing.objects.filter(season=season).select_related("player"))
    stored_rows = {s.player.name: (s.place, s.score, s.turni) for s in kept}
    extra = {r["player"]: {k: r[k] for k, _ in columns if k in r} for r in replay}
    for s in kept:
        if s.player.name in extra:
            columns_of = said(gettext_noop("%(player)s (colonne)"), player=s.player.name)
            compare("classifica", columns_of, s.extra, extra[s.player.name])
    if Turno.objects.filter(season=season, status=Turno.CHIUSO).exists() or stored_rows:
        for name in sorted(set(expected) | set(stored_rows)):
            stored, mine = stored_rows.get(name), expected.get(name)
            if stored is None or mine is None:
                compare("classifica", name, stored, mine)
                continue
            for field, a, b in zip(fields, stored, mine, strict=True):
                compare(said(AT_CLASSIFICA, player=name), field, a, b)
    return found


def game_check(season: Season) -> list[str]:
    """:func:`game_differences` as lines of text."""
    return [str(d) for d in game_differences(season)]


# -- interchange: a whole season as a kingclub/v1 document ---------------------------------------
def _check_calendar(calendar: Calendar, turni: Sequence[Mapping[str, Any]]) -> None:
    """The turni of a document within the rule set's calendar: their dates in the window (as if
    started one by one in date order) and, where the rule set says so, a member at one turno a
    date; RuleViolation naming every turno that is not."""
    days: dict[str, str] = {}
    seated: dict[tuple[str, str], int] = {}
    problems: list[Problem] = []
    for t in turni:
        number = t.get("number", 1)
        label = f"{t['date']} #{number}"
        days.setdefault(t["date"], label)
        for p in t["players"] if calendar.one_turno_a_day else ():
            other = seated.setdefault((t["date"], p), number)
            if other != number:
                problems.append(
                    Problem.said(
                        "PLAYER_TWICE_IN_GIORNATA",
                        gettext_noop(
                            "%(player)s gioca già il turno #%(other)s dello stesso giorno"
                        ),
                        {"player": p, "other": other},
                        player=p,
                        turno=label,
                        field="players",
                    )
                )
    dates = ((dt.date.fromisoformat(d), label) for d, label in days.items())
    problems[:0] = calendar.dates_problems(dates, today=timezone.localdate())
    if problems:
        raise RuleViolation(problems)


@news_muted()
@transaction.atomic
def game_season_import(
    *, data: Mapping[str, Any], user: Any = None, current: bool = False
) -> Season:
    """Load a ``kingclub/v1`` document of a generic game, all or nothing: the system scores the
    whole document first (every problem named), then every turno is scored as the live screen
    scores it (each smazzata as recorded, the close) and written in bulk, closed, with its
    history, and the season's standing is folded once: linear in the turni."""
    from scoring.models import Player
    from scoring.services.bulk import pks_by
    from scoring.services.history import history_for_import

    system = get_system(data.get("ruleset"))
    system.score_document(data)  # raises RuleViolation listing every problem
    name = data.get("season") or "stagione importata"
    if Season.objects.filter(name=name).exists():
        raise fail(
            "SEASON_EXISTS",
            gettext_noop("la stagione %(name)s esiste già: importazione annullata"),
            {"name": repr(name)},
        )
    turni = sorted(data.get("turni") or [], key=lambda t: (t["date"], t.get("number", 1)))
    seen: set[tuple[str, int]] = set()
    for t in turni:
        key = (t["date"], t.get("number", 1))
        if key in seen or not 1 <= key[1] <= MAX_TURNO_NUMBER:
            raise fail(
                "TURNO_DUPLICATE" if key in seen else "TURNO_NUMBER",
                gettext_noop(
                    "turno #%(number)s del %(date)s: due turni con la stessa data e numero"
                )
                if key in seen
                else gettext_noop("turno #%(number)s del %(date)s: numero non valido"),
                {"number": key[1], "date": key[0]},
                turno=f"{key[0]} #{key[1]}",
            )
        seen.add(key)
    _check_calendar(system.calendar(data.get("rules")), turni)
    season = season_create(
        name=name,
        ruleset_code=system.code,
        rules=dict(data.get("rules") or system.default_rules()),
        current=current,
    )
    rules = season.game_rules
    names = list(
        dict.fromkeys([*(data.get("roster") or []), *(p for t in turni for p in t["players"])])
    )
    players = ids_by_name(Player, names)
    enrolled = timezone.now()
    insert_rows(  # a new season: no member is enrolled yet ("names" holds each once)
        Enrollment,
        ["season", "player", "enrolled_at"],
        ((season.pk, players[n], enrolled) for n in names),
    )
    Giornata.objects.bulk_create(
        [Giornata(season=season, date=d) for d in sorted({t["date"] for t in turni})]
    )
    giornate = {
        d.isoformat(): pk
        for d, pk in Giornata.objects.filter(season=season).values_list("date", "pk")
    }
    closed_by, now = user_of(user), timezone.now()

    # every turno scored as the live screen scores it: its smazzate as recorded one by one (the
    # running score), then its close (places, the system's figures)
    scored = []
    for t in turni:
        record = {
            "date": t["date"],
            "number": t.get("number", 1),
            "players": list(t["players"]),
            "first_dealer": t["first_dealer"],
            "smazzate": [dict(sm) for sm in t.get("smazzate", [])],
            "tiebreak": list(t.get("tiebreak") or []),
        }
        if takes_penalties(system):
            record["penalties"] = []
            for p in t.get("penalties") or []:
                article, reason = penalty_texts(p.get("article") or "—", p.get("reason") or "")
                record["penalties"].append(
                    {"player": p["player"], "points": p["points"], "article": article,
                     "reason": reason}
                )  # fmt: skip
        running = system.score_running(rules, record)
        figures = system.seat_results(system.score_turno(rules, record))
        scored.append((record, running, figures))

    rows = [
        Turno(
            season=season,
            giornata_id=giornate[record["date"]],
            number=record["number"],
            first_dealer_id=players[record["first_dealer"]],
            segretario=closed_by,
            status=Turno.CHIUSO,
            closed_at=now,
            closed_by=closed_by,
            verbale_number=k,
            winner_id=players[next(p for p, f in figures.items() if f["place"] == 1)],
        )
        for k, (record, _, figures) in enumerate(scored, start=1)
    ]
    Turno.objects.bulk_create(rows, batch_size=500)
    if any(t.pk is None for t in rows):  # backends that do not return ids
        ids = pks_by(Turno.objects.filter(season=season), "giornata_id", "number")
        for t in rows:
            t.pk = t.id = ids[(t.giornata_id, t.number)]
    turno_ids = [t.pk for t in rows]
    insert_rows(
        Seat,
        [
            "turno",
            "player",
            "position",
            "total",
            "penalty_total",
            "tiebreak_rank",
            "place",
            "league_points",
            "extra",
            "series_before",
            "series_after",
            "titles",
        ],
        (
            (
                turno.pk,
                players[p],
                pos,
                figures[p]["total"],
                running.get("penalties", {}).get(p, 0),
                {n: i + 1 for i, n in enumerate(record["tiebreak"])}.get(p),
                figures[p]["place"],
                Decimal(figures[p]["score"]),
                figures[p]["extra"],
                "",
                "",
                [],
            )
            for turno, (record, running, figures) in zip(rows, scored, strict=True)
            for pos, p in enumerate(record["players"])
        ),
    )
    smazzate = []
    for turno, (record, running, _) in zip(rows, scored, strict=True):
        names = dict(enumerate(record["players"]))
        for sm, mine in zip(record["smazzate"], running["smazzate"], strict=True):
            sm = record_seats(system, sm, names)  # stored by seat (:mod:`scoring.records`)
            keys = system.smazzata_keys(mine)
            caller = players[keys["caller"]] if keys.get("caller") else None
            dealer = players[mine["dealer"]]
            by = closed_by.pk if closed_by else None
            smazzate.append(
                (
                    turno.pk,
                    mine["number"],
                    keys["game"],
                    caller,
                    dealer,
                    sm,
                    by,
                    now,
                    "",
                    False,
                    False,
                )
            )
    insert_rows(
        Smazzata,
        [
            "turno",
            "number",
            "game",
            "caller",
            "dealer",
            "record",
            "recorded_by",
            "recorded_at",
            "trump",
            "forced",
            "scazzata",
        ],
        smazzate,
    )
    smazzata_ids = pks_by(Smazzata.objects.filter(turno_id__in=turno_ids), "turno_id", "number")
    insert_rows(
        Result,
        ["smazzata", "player", "points"],
        (
            (smazzata_ids[(turno.pk, mine["number"])], players[p], points)
            for turno, (_, running, _) in zip(rows, scored, strict=True)
            for mine in running["smazzate"]
            for p, points in mine["points"].items()
        ),
    )
    Penalita.objects.bulk_create(
        [
            Penalita(
                turno=turno,
                player_id=players[p["player"]],
                points=p["points"],
                article=p["article"],
                reason=p["reason"],
                created_by=closed_by,
            )
            for turno, (record, _, _) in zip(rows, scored, strict=True)
            for p in record.get("penalties", [])
        ],
        batch_size=1000,
    )
    TurnoEvent.objects.bulk_create(
        [TurnoEvent(turno=turno, kind=TurnoEvent.CLOSE, user=closed_by) for turno in rows],
        batch_size=1000,
    )
    history_for_import(turno_ids, user=closed_by, when=now)
    game_standing_refresh(season=season)
    return season
