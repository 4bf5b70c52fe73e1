"""Reads for the club room's scoreboard (issue 17, part 1): which turni are live, their running
state as the engine computes it, and a cheap version of all of it for the polling screens.

- :func:`live_turni` picks the giornata in progress: today's, or else the latest date with a turno
  in progress (every season playing that day; the unpublished ones only for the staff).
- :func:`board_version` is ONE aggregate query over those turni (their status, their smazzate
  and penalità): it changes whenever a smazzata is recorded, corrected or undone, a penalità is
  added or removed, a turno starts, closes or reopens. The screens poll it every 2 s and get
  ``304`` while it stands still.
- :func:`board` builds what the screen shows: each table is the turno's one read model
  (:class:`scoring.selectors_turno.TurnoSheet`, the same as its Verbale's page), the standing
  block the Classifica's (:func:`scoring.verbale.classifica_sheet`). Nothing here computes a
  point itself.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import Any

from django.core.cache import caches
from django.db.models import Count, F, Max, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from scoring import formatting
from scoring.models import Giornata, Penalita, Season, Smazzata, Turno
from scoring.selectors import TURNO_RELATED
from scoring.selectors_turno import TurnoSheet, turno_sheets
from scoring.verbale import classifica_sheet

# the scoreboard's hot path: per-process memory (settings.CACHES["live"]), no query per poll
cache = caches["live"]

STANDING_ROWS = 10  # the Classifica's first rows shown on the board after a close


# -- which turni --------------------------------------------------------------------------------
def live_turni(*, public_only: bool, today: dt.date | None = None) -> QuerySet[Turno]:
    """The turni of the giornata in progress: today's date if any season plays today, else the
    latest date with a turno in corso. ``public_only``: only published seasons count."""
    today = today or timezone.localdate()
    giornate = Giornata.objects.all()
    turni = Turno.objects.all()
    if public_only:
        giornate = giornate.filter(season__published=True)
        turni = turni.filter(season__published=True)
    todays = giornate.filter(date=today).values("date")[:1]
    latest_open = (
        turni.filter(status=Turno.IN_CORSO).order_by("-giornata__date").values("giornata__date")[:1]
    )
    return turni.alias(live_day=Coalesce(Subquery(todays), Subquery(latest_open))).filter(
        giornata__date=F("live_day")
    )


def one_turno(pk: int, *, public_only: bool) -> QuerySet[Turno]:
    turni = Turno.objects.filter(pk=pk)
    return turni.filter(season__published=True) if public_only else turni


def board_version(turni: QuerySet[Turno], *, salt: str = "") -> str:
    """A short tag of everything the board shows, in one query (see the module's docstring).
    ``salt``: what else the rendering depends on (the language, the visitor's kind)."""
    agg = turni.aggregate(
        day=Max("giornata__date"),
        n_turni=Count("id", distinct=True),
        last_turno=Max("id"),
        n_open=Count("id", distinct=True, filter=Q(status=Turno.IN_CORSO)),
        closed_at=Max("closed_at"),
        n_smazzate=Count("smazzate", distinct=True),
        last_smazzata=Max("smazzate__id"),
        recorded_at=Max("smazzate__recorded_at"),
        n_penalita=Count("penalita", distinct=True),
        last_penalita=Max("penalita__id"),
    )
    raw = repr((salt, sorted(agg.items())))
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


# -- the cached version: a write in this process makes every cached version stale at once ----
GENERATION_KEY = "kingclub:live:generation"


def generation() -> int:
    """A counter bumped by every write the board shows (in this process, or in every process
    sharing the cache); part of the key under which the views cache a board's version."""
    return cache.get_or_set(GENERATION_KEY, 0, None)


@receiver([post_save, post_delete], sender=Smazzata, dispatch_uid="live-smazzata")
@receiver([post_save, post_delete], sender=Penalita, dispatch_uid="live-penalita")
@receiver([post_save, post_delete], sender=Turno, dispatch_uid="live-turno")
@receiver(post_save, sender=Season, dispatch_uid="live-season")
def _bump(**kwargs: Any) -> None:
    """Not a rule of the ledger: only tells the scoreboards' cache that something changed."""
    try:
        cache.incr(GENERATION_KEY)
    except ValueError:  # not in the cache (yet, or evicted)
        cache.set(GENERATION_KEY, 1, None)


# -- what the board shows -----------------------------------------------------------------------
@dataclass(frozen=True)
class StandingLine:
    place: int
    player: str
    player_id: int | None
    score: str
    series: str
    movement: int | None


@dataclass(frozen=True)
class StandingBlock:
    season: Season
    rows: tuple[StandingLine, ...]
    more: int  # rows not shown


@dataclass(frozen=True)
class Board:
    day: dt.date | None
    tables: tuple[TurnoSheet, ...]
    standings: tuple[StandingBlock, ...]

    @property
    def open_tables(self) -> int:
        return sum(1 for t in self.tables if t.is_open)


def _standing(season: Season) -> StandingBlock:
    """The first rows of the season's Classifica (its read model): place, player, the season
    score with the decimals its game declares, the series where the game has a ladder."""
    sheet = classifica_sheet(season)
    score = sheet.score_key
    decimals = season.system.season_score_decimals
    lines = [
        StandingLine(
            r["place"],
            r["player"],
            r["player_id"],
            formatting.season_score(r.get(score, ""), decimals=decimals),
            r["series_label"],
            r["movement"],
        )
        for r in sheet.rows
    ]
    return StandingBlock(season, tuple(lines[:STANDING_ROWS]), max(len(lines) - STANDING_ROWS, 0))


def board(turni: QuerySet[Turno]) -> Board:
    """Every live table (in corso first, then the closed ones of the day), each the turno's one
    read model (:func:`scoring.selectors_turno.turno_sheets`), and the Classifica of each season
    with a table closed that day. A fixed number of queries per ledger."""
    loaded = sorted(
        turni.select_related(*TURNO_RELATED),
        key=lambda t: (not t.is_open, t.season.name, t.number),
    )
    tables = tuple(turno_sheets(loaded))
    seasons: dict[int, Season] = {}
    for t in tables:
        if not t.is_open:
            seasons.setdefault(t.season.pk, t.season)
    day = loaded[0].giornata.date if loaded else None
    return Board(day, tables, tuple(_standing(s) for s in seasons.values()))
