"""Reads: the database as the engine's records, and the data behind each page."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

from django.db.models import Count, Prefetch, QuerySet, Sum
from django.http import HttpRequest

from scoring.models import (
    Absence,
    Enrollment,
    Giornata,
    Penalita,
    Player,
    Result,
    Sanction,
    Season,
    Seat,
    Smazzata,
    TitleAward,
    Turno,
    TurnoEvent,
)
from scoring.records import record_names, seat_names
from scoring.rules.caf import (
    Penalty,
    Progress,
    SeasonState,
    SmazzataRecord,
    TurnoRecord,
    TurnoScore,
    progress_of,
    score_turno,
    starting_state,
)
from scoring.rules.caf import Sanction as SanctionRecord
from scoring.rules.caf import Standing as StandingRecord

CARRIED = "carried"  # Season.series_origin: the series carried over from a closed season


def current_season() -> Season | None:
    return Season.objects.filter(is_current=True).first() or Season.objects.first()


S = TypeVar("S", bound=Any)


def default_season(seasons: Sequence[S]) -> S | None:
    """What :func:`current_season` picks, from seasons already read newest name first (the
    season picker's rows, or the kept pages' season states)."""
    return next((s for s in seasons if s.is_current), seasons[0] if seasons else None)


def own_player_id(request: HttpRequest) -> int | None:
    """The logged-in member's player (the user ↔ player link), or None: one query, none for an
    anonymous visitor."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user_id=user.pk).values_list("pk", flat=True).first()


#: what every page of a turno reads beside it, in its own query (both ledgers' loaders)
TURNO_RELATED = ("giornata", "season", "first_dealer", "segretario", "closed_by", "winner")


def turno_prefetches() -> tuple[Prefetch, ...]:
    """What :func:`turno_with_everything` prefetches (for ``prefetch_related_objects`` on turni
    already loaded with :data:`TURNO_RELATED`)."""
    return (
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch(
            "smazzate",
            queryset=Smazzata.objects.select_related("caller", "dealer", "cappotto")
            .prefetch_related(Prefetch("results", queryset=Result.objects.select_related("player")))
            .order_by("number"),
        ),
        Prefetch("penalita", queryset=Penalita.objects.select_related("player").order_by("id")),
        Prefetch("sanctions", queryset=Sanction.objects.select_related("player").order_by("id")),
        Prefetch(
            "events",
            queryset=TurnoEvent.objects.filter(kind=TurnoEvent.REOPEN)
            .select_related("user")
            .order_by("at", "id"),
            to_attr="reopen_events",
        ),
    )


def turno_with_everything(queryset: QuerySet[Turno] | None = None) -> QuerySet[Turno]:
    """Turni with seats, smazzate, results, penalità and sanctions in a fixed number of queries."""
    qs = queryset if queryset is not None else Turno.objects.all()
    return qs.select_related(*TURNO_RELATED).prefetch_related(*turno_prefetches())


def turno_record(turno: Turno, *, tiebreak: Iterable[str] | None = None) -> TurnoRecord:
    """A stored turno as the engine's input (players by name, in seat order).

    Uses prefetched relations when present (see :func:`turno_with_everything`).
    """
    seats = sorted(turno.seats.all(), key=lambda s: s.position)
    if tiebreak is None:
        ranked = sorted(
            (s for s in seats if s.tiebreak_rank is not None), key=lambda s: s.tiebreak_rank
        )
        tiebreak = [s.player.name for s in ranked]
    smazzate = sorted(turno.smazzate.all(), key=lambda s: s.number)
    system, names = turno.season.system, seat_names(seats)
    return TurnoRecord(
        players=tuple(s.player.name for s in seats),
        first_dealer=turno.first_dealer.name,
        smazzate=tuple(smazzata_input(record_names(system, sm.record, names)) for sm in smazzate),
        penalties=tuple(
            Penalty(p.player.name, p.points, p.article, p.reason) for p in turno.penalita.all()
        ),
        tiebreak=tuple(tiebreak),
        sanctions=tuple(
            SanctionRecord(s.player.name, s.kind, s.reason) for s in turno.sanctions.all()
        ),
        date=turno.giornata.date,
        number=turno.number,
    )


def smazzata_input(record: Any) -> SmazzataRecord:
    """A stored C.A.F. record (players by name again) as the engine's input; a record of the
    wrong shape is given as it is, for the engine to refuse (``check_ledger`` reports it)."""
    record = record if isinstance(record, dict) else {}
    result = record.get("result")
    return SmazzataRecord(
        game=record.get("game"),  # type: ignore[arg-type]
        caller=record.get("caller"),  # type: ignore[arg-type]
        result=result if isinstance(result, dict) else {},
        trump=record.get("trump") or None,
    )


@dataclass(frozen=True)
class TurnoState:
    """Everything the live screen shows about a turno: the record, its score, what comes next."""

    turno: Turno
    record: TurnoRecord
    score: TurnoScore
    progress: Progress

    @property
    def closable(self) -> bool:
        return self.turno.is_open and self.score.complete

    def callable_by_player(self) -> list[tuple[str, tuple[str, ...], bool]]:
        """Per player in calling order: the games they may call now, and whether forced."""
        return [
            (p, self.progress.callable_games(p), self.progress.is_forced(p))
            for p in self.progress.full_order()
        ]

    def remaining_by_player(self) -> dict[str, tuple[str, ...]]:
        return {p: self.progress.remaining_games(p) for p in self.record.players}


def turno_state(turno_id: int) -> TurnoState:
    """The live state of a turno whose deals are entered as calls and counts (the system's
    ``entry_form``); ``Turno.DoesNotExist`` for any other: no such turno on that screen."""
    turno = turno_with_everything(Turno.objects.filter(pk=turno_id)).get()
    if turno.season.system.entry_form != "calls":
        raise Turno.DoesNotExist(f"turno {turno_id}: its deals are entered as fields")
    return turno_state_of(turno)


def turno_state_of(turno: Turno) -> TurnoState:
    """The live state of a C.A.F. turno already loaded with :func:`turno_with_everything` (or
    returned by a service that keeps its prefetched rows current): no query."""
    record = turno_record(turno)
    rules = turno.season.ruleset
    return TurnoState(
        turno=turno,
        record=record,
        score=score_turno(rules, record, require_complete=False),
        progress=progress_of(rules, record),
    )


def season_turni(season: Season) -> QuerySet[Turno]:
    return (
        Turno.objects.filter(season=season)
        .select_related("giornata", "winner", "first_dealer")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        .order_by("-giornata__date", "-number")
    )


# -- the season's standing as the engine reads it (documents, services) ----------------------
def season_start_state(season: Season) -> SeasonState:
    """The series every player starts the season from: the ones carried over from the season
    before (by name, as the engine reads them), the rule set's start series for everybody else.
    No query for a season that starts from the top."""
    if season.series_origin != CARRIED or not season.start_series:
        return SeasonState()
    names = dict(
        Player.objects.filter(pk__in=[int(pk) for pk in season.start_series]).values_list(
            "pk", "name"
        )
    )
    return starting_state(
        season.ruleset,
        {names[int(pk)]: code for pk, code in season.start_series.items() if int(pk) in names},
    )


def standings_aggregate(
    season: Season, *, before: dt.date | None = None, on: dt.date | None = None
) -> list[StandingRecord]:
    """Every roster member's season score, turni, absences and titles, in three aggregate
    queries over the stored results (optionally only giornate before ``before``, or only the
    giornata of ``on``)."""
    seat_qs = Seat.objects.filter(turno__season=season, turno__status=Turno.CHIUSO)
    abs_qs = Absence.objects.filter(season=season)
    award_qs = TitleAward.objects.filter(season=season)
    if before is not None:
        seat_qs = seat_qs.filter(turno__giornata__date__lt=before)
        abs_qs = abs_qs.filter(giornata__date__lt=before)
        award_qs = award_qs.filter(seat__turno__giornata__date__lt=before)
    if on is not None:
        # one giornata: select it by id and its turni by ids (about 30), which both SQLite and
        # PostgreSQL serve from indexes; a filter on the date makes SQLite walk the season
        giornata = list(
            Giornata.objects.filter(season=season, date=on).values_list("pk", flat=True)
        )
        turni = list(
            Turno.objects.filter(giornata__in=giornata, status=Turno.CHIUSO).values_list(
                "pk", flat=True
            )
        )
        seat_qs = Seat.objects.filter(turno_id__in=turni)
        abs_qs = Absence.objects.filter(giornata__in=giornata)
        award_qs = TitleAward.objects.filter(seat__turno_id__in=turni)
    # .order_by(): no model ordering in a GROUP BY (a seat's would join every turno's giornata)
    played = {
        r["player_id"]: (r["s"], r["n"])
        for r in seat_qs.order_by()
        .values("player_id")
        .annotate(s=Sum("league_points"), n=Count("id"))
    }
    absent = {
        r["player_id"]: (r["s"], r["n"])
        for r in abs_qs.order_by()
        .values("player_id")
        .annotate(s=Sum("league_points"), n=Count("id"))
    }
    titles: dict[int, dict[str, int]] = defaultdict(dict)
    for r in award_qs.order_by().values("player_id", "code").annotate(n=Count("id")):
        titles[r["player_id"]][r["code"]] = r["n"]
    rows = []
    for pid, name in Enrollment.objects.filter(season=season).values_list(
        "player_id", "player__name"
    ):
        ps, pn = played.get(pid, (Decimal(0), 0))
        as_, an = absent.get(pid, (Decimal(0), 0))
        rows.append(
            StandingRecord(
                player=name,
                score=(ps or Decimal(0)) + (as_ or Decimal(0)),
                series="",
                turni=pn,
                absences=an,
                titles=titles.get(pid, {}),
            )
        )
    return rows
