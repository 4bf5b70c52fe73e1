"""Reads for the club room's scoreboard (issue 17, part 1): which turni are live, their running
state as the engine computes it, and a cheap version of all of it for the polling screens.

- :func:`live_turni` picks the giornata in progress: today's, or else the latest date with a turno
  in progress (every season playing that day; the unpublished ones only for the staff).
- :func:`board_version` is ONE aggregate query over those turni (their status, their smazzate
  and penalità): it changes whenever a smazzata is recorded, corrected or undone, a penalità is
  added or removed, a turno starts, closes or reopens. The screens poll it every 2 s and get
  ``304`` while it stands still.
- :func:`board` builds what the screen shows, from the stored rows, through the engine (C.A.F.:
  :func:`scoring.selectors.turno_record`, ``score_turno``, ``progress_of``; every other game: its
  system's ``score_running`` / ``next_step``). Nothing here computes a point itself.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.cache import caches
from django.db.models import Count, F, Max, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from scoring import formatting
from scoring.models import Giornata, Penalita, Season, Smazzata, Turno
from scoring.problem_text import engine_text
from scoring.rules.caf import progress_of, score_turno
from scoring.rules.systems import get_system
from scoring.selectors import turno_record, turno_with_everything
from scoring.selectors_games import game_record, game_turni
from scoring.verbale import classifica_sheet, game_label, verbale

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
class LivePlayer:
    name: str
    total: int
    dealer: bool = False
    note: str = ""
    remaining: tuple[str, ...] = ()  # C.A.F.: the games still to call, as written on the Verbale
    place: int | None = None
    ratio: Decimal | None = None
    titles: tuple[str, ...] = ()
    series_before: str = ""
    series_after: str = ""
    league_points: Decimal | None = None
    figures: tuple[Any, ...] = ()  # another game's own columns at the close


@dataclass(frozen=True)
class LastSmazzata:
    number: int
    text: str
    dealer: str
    caller: str
    points: tuple[tuple[str, int | None], ...]


@dataclass(frozen=True)
class LiveTable:
    turno: Turno
    season: Season
    game: str
    is_open: bool
    played: int
    total: int | None  # smazzate of the turno, when the game has a fixed number
    next_number: int | None
    dealer: str | None
    calling_order: tuple[str, ...]  # C.A.F.: who may call now, the dealer last
    chooser: str | None  # another game's chooser / declarer of the next smazzata, when known
    players: tuple[LivePlayer, ...]
    last: LastSmazzata | None
    columns: tuple[str, ...] = ()  # another game's own columns at the close
    penalty_points: bool = False  # the game's points count against a player (Ramino)
    series_moves: tuple[tuple[str, str, str, int], ...] = ()  # name, from, to, +1/-1

    @property
    def by_place(self) -> tuple[LivePlayer, ...]:
        return tuple(sorted(self.players, key=lambda p: (p.place or 99, p.name)))


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
    tables: tuple[LiveTable, ...]
    standings: tuple[StandingBlock, ...]

    @property
    def open_tables(self) -> int:
        return sum(1 for t in self.tables if t.is_open)


def _caf_table(turno: Turno) -> LiveTable:
    rules = turno.season.ruleset
    record = turno_record(turno)
    score = score_turno(rules, record, require_complete=False)
    progress = progress_of(rules, record)
    v = verbale(turno)
    is_open = turno.is_open
    labels = {s.code: s.label for s in rules.series}
    order = rules.series_codes()
    players = []
    moves = []
    for line in v.seats:
        name = line.player
        players.append(
            LivePlayer(
                name=name,
                total=score.totals.get(name, 0) if is_open else line.total,
                dealer=is_open and not progress.complete and name == progress.dealer,
                remaining=tuple(game_label(g) for g in progress.remaining_games(name))
                if is_open
                else (),
                place=None if is_open else line.place,
                ratio=None if is_open else line.ratio,
                titles=() if is_open else tuple(label for _code, label, _v in line.titles),
                series_before=labels.get(line.series_before, line.series_before),
                series_after=labels.get(line.series_after, line.series_after),
                league_points=None if is_open else line.league_points,
            )
        )
        before, after = line.series_before, line.series_after
        if not is_open and before and after and before != after and before in order:
            up = order.index(after) < order.index(before) if after in order else False
            moves.append(
                (name, labels.get(before, before), labels.get(after, after), 1 if up else -1)
            )
    last = None
    if v.rows:
        row = v.rows[-1]
        text = row.game_label + (f" {row.trump_symbol}" if row.trump_symbol else "")
        last = LastSmazzata(
            number=row.number,
            text=text,
            dealer=row.dealer,
            caller=row.caller,
            points=tuple((p, c.points) for p, c in zip(v.players, row.cells, strict=True)),
        )
    return LiveTable(
        turno=turno,
        season=turno.season,
        game=turno.season.system.label,
        is_open=is_open,
        played=len(record.smazzate),
        total=progress.total,
        next_number=progress.number if is_open and not progress.complete else None,
        dealer=progress.dealer if is_open and not progress.complete else None,
        calling_order=progress.calling_order() if is_open else (),
        chooser=None,
        players=tuple(players),
        last=last,
        series_moves=tuple(moves),
    )


def _generic_table(turno: Turno) -> LiveTable:
    season = turno.season
    system, rules = season.system, season.game_rules
    record = game_record(turno)
    running = system.score_running(rules, record)
    step = system.next_step(rules, record)
    notes = system.player_notes(rules, record) if turno.is_open else {}
    names = record["players"]
    seats = {s.player.name: s for s in turno.seats.all()}
    columns = system.turno_columns()
    is_open = turno.is_open
    going = is_open and not step.get("complete")
    players = tuple(
        LivePlayer(
            name=p,
            total=running["totals"].get(p, 0),
            dealer=going and p == step.get("dealer"),
            note=engine_text(notes.get(p, "")),
            place=None if is_open else seats[p].place,
            figures=()
            if is_open
            else tuple(seats[p].extra.get(key, "") for key, _label in columns),
        )
        for p in names
    )
    last = None
    if running["smazzate"]:
        s = running["smazzate"][-1]
        last = LastSmazzata(
            number=s["number"],
            text=engine_text(system.describe(s)),
            dealer=s.get("dealer") or "",
            caller="",
            points=tuple((p, s["points"].get(p)) for p in names),
        )
    games = step.get("games")
    chooser = step.get("chooser") or step.get("declarer")
    return LiveTable(
        turno=turno,
        season=season,
        game=system.label,
        is_open=is_open,
        played=len(running["smazzate"]),
        total=games if isinstance(games, int) else None,
        next_number=step.get("number") if going else None,
        dealer=step.get("dealer") if going else None,
        calling_order=(),
        chooser=str(chooser) if going and isinstance(chooser, str) else None,
        players=players,
        last=last,
        columns=tuple(label for _key, label in columns),
        penalty_points=system.points_are_penalties,
    )


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
    """Every live table (in corso first, then the closed ones of the day), and the Classifica
    of each season with a table closed that day. A fixed number of queries per game kind."""
    caf_ids, generic_ids = [], []
    for pk, generic in _kinds(turni):
        (generic_ids if generic else caf_ids).append(pk)
    loaded: list[Turno] = []
    if caf_ids:
        loaded += list(turno_with_everything(Turno.objects.filter(pk__in=caf_ids)))
    if generic_ids:
        loaded += list(game_turni(Turno.objects.filter(pk__in=generic_ids)))
    loaded.sort(key=lambda t: (not t.is_open, t.season.name, t.number))
    tables = tuple(_generic_table(t) if t.season.is_generic else _caf_table(t) for t in loaded)
    seasons: dict[int, Season] = {}
    for t in tables:
        if not t.is_open:
            seasons.setdefault(t.season.pk, t.season)
    day = loaded[0].giornata.date if loaded else None
    return Board(day, tables, tuple(_standing(s) for s in seasons.values()))


def _kinds(turni: QuerySet[Turno]) -> list[tuple[int, bool]]:
    return [
        (pk, get_system(code).generic_ledger)
        for pk, code in turni.values_list("pk", "season__ruleset_code")
    ]
