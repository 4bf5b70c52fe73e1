"""Reads of a game kept by the generic ledger (every game but C.A.F.), and the read models of its
documents. Nothing here computes a point: the season's game system does.

- :func:`game_turni`, :func:`game_record`: the turni loaded in a fixed number of queries, and a
  stored turno as its system's interchange record (the engine's input). The services, the
  documents and the scoreboard read the database through these.
- :func:`verbale_rows` -> :class:`GameVerbale`: the Verbale di Turno's documents (the PDF and the
  XLSX of :mod:`scoring.exports.games`, the stored documents, the mail); the page and the
  scoreboard read :mod:`scoring.selectors_turno`, which lists the deals with :func:`deal_rows`.
- :func:`member_season` -> :class:`MemberSeason`: a member's season (the player page), for
  every game: what differs is what the season's ledger keeps (:data:`MEMBER_LEDGERS`).
"""

from __future__ import annotations

import bisect
import datetime as dt
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, Q, QuerySet, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring import formatting
from scoring.charts import even_indices
from scoring.models import (
    Absence,
    Giornata,
    Penalita,
    Player,
    PlayerFigures,
    Result,
    Sanction,
    Season,
    Seat,
    Smazzata,
    Turno,
)
from scoring.problem_text import engine_text
from scoring.records import record_names, seat_names
from scoring.rules.caf.season import FIGURE_COUNTS, league_line, season_figures
from scoring.selectors import TURNO_RELATED
from scoring.selectors_confirmations import confirmation_lines
from scoring.verbale import ClassificaSheet, classifica, classifica_sheet


def game_prefetches(*, sanctions: bool = False) -> tuple[Prefetch, ...]:
    """What :func:`game_turni` prefetches (for ``prefetch_related_objects`` on turni already
    loaded with :data:`scoring.selectors.TURNO_RELATED`); ``sanctions`` too for a system that
    ``takes_sanctions`` (:func:`game_record` reads them)."""
    return (
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch(
            "smazzate",
            queryset=Smazzata.objects.select_related("caller", "dealer")
            .prefetch_related(Prefetch("results", queryset=Result.objects.select_related("player")))
            .order_by("number"),
        ),
        Prefetch("penalita", queryset=Penalita.objects.select_related("player").order_by("id")),
        *(
            [
                Prefetch(
                    "sanctions", queryset=Sanction.objects.select_related("player").order_by("id")
                )
            ]
            if sanctions
            else []
        ),
    )


def game_turni(
    queryset: QuerySet[Turno] | None = None, *, sanctions: bool = False
) -> QuerySet[Turno]:
    """Turni with what :func:`game_record` and the pages read, in a fixed number of queries
    (``sanctions``: their sanctions too, for a system that ``takes_sanctions``)."""
    qs = queryset if queryset is not None else Turno.objects.all()
    return qs.select_related(*TURNO_RELATED).prefetch_related(*game_prefetches(sanctions=sanctions))


def game_record(turno: Turno, *, tiebreak: Iterable[str] | None = None) -> dict[str, Any]:
    """A stored turno as its system's interchange record (players by their current name, in seat
    order; the smazzate's records are stored by seat, :mod:`scoring.records`)."""
    seats = sorted(turno.seats.all(), key=lambda s: s.position)
    if tiebreak is None:
        ranked = sorted(
            (s for s in seats if s.tiebreak_rank is not None), key=lambda s: s.tiebreak_rank
        )
        tiebreak = [s.player.name for s in ranked]
    system, names = turno.season.system, seat_names(seats)
    record: dict[str, Any] = {
        "date": turno.giornata.date.isoformat(),
        "number": turno.number,
        "players": [s.player.name for s in seats],
        "first_dealer": turno.first_dealer.name,
        "smazzate": [
            record_names(system, sm.record, names)
            for sm in sorted(turno.smazzate.all(), key=lambda s: s.number)
        ],
    }
    # the interchange's order (SPEC §10, the sample documents): penalties, tiebreak, sanctions
    if takes_penalties(turno.season.system):
        record["penalties"] = [
            {"player": p.player.name, "points": p.points, "article": p.article, "reason": p.reason}
            for p in sorted(turno.penalita.all(), key=lambda p: p.pk)
        ]
    record["tiebreak"] = list(tiebreak)
    if system.takes_sanctions:  # read from the turno's sanctions (prefetched where loaded so)
        record["sanctions"] = [
            {"player": s.player.name, "kind": s.kind, "reason": s.reason}
            for s in sorted(turno.sanctions.all(), key=lambda s: s.pk)
        ]
    return record


def takes_penalties(system: Any) -> bool:
    """Does the game count penalità in the turno total (the King family, §0.5)?"""
    return system.takes_penalties


@dataclass
class GameVerbale:
    """Everything the Verbale of a generic turno shows, in order."""

    club: str
    season: str
    game: str
    title: str
    date: Any
    number: int
    table: str
    first_dealer: str
    verbale_number: int | None
    closed: bool
    players: list[str]
    rows: list[dict[str, Any]]  # number, dealer, line, points (per player, None if not in play)
    totals: list[int]
    columns: list[tuple[str, str]]  # the system's per-player figures of a closed turno
    results: list[dict[str, Any]]  # place, player, total, values (in ``columns`` order)
    reopens: list[str] = field(default_factory=list)
    confirmations: list[str] = field(default_factory=list)  # who confirmed or contested
    penalties: list[str] = field(default_factory=list)
    balance: int | None = None  # the zero-sum check, where the game has one
    # the game's own list layout where its system keeps one (the Skat Spielliste: running totals
    # per player, the Seeger-Fabian evaluation); None for the generic grid above
    sheet: dict[str, Any] | None = None
    # the points count against a player (Ramino): plain figures, never "+" nor a gain's colour
    penalty_points: bool = False
    # the frame every Verbale shares (issue 25): when the turno was closed, by which segretario,
    # under which of the season's rules
    closed_at: Any = None
    segretario: str = ""
    rules: str = ""


def sheet_of(system: Any, rules: Any, record: dict[str, Any]) -> dict[str, Any] | None:
    """The system's own list (``system.sheet(rules, turno)``) with every per-player map turned
    into a list in seat order, ready for a template or a spreadsheet; None without one."""
    raw = system.sheet(rules, record) if system.has_sheet else None
    if raw is None:
        return None
    players = record["players"]
    summary = []  # the engine's texts in the reader's language, as every renderer prints them
    for row in raw["summary"]:
        g = row.get("won") or row.get("counts")
        v = row.get("lost")
        summary.append(
            {
                **row,
                "label": engine_text(row["label"]),
                "cells": [
                    {
                        "value": row["values"][p],
                        "g": g[p] if g is not None else None,
                        "v": v[p] if v is not None else None,
                    }
                    for p in players
                ],
            }
        )
    return {
        **raw,
        "columns": [engine_text(c) for c in raw["columns"]],
        "player_columns": [engine_text(c) for c in raw["player_columns"]],
        "rows": [
            {**r, "facts": [engine_text(x) if x else x for x in r["facts"]]} for r in raw["rows"]
        ],
        "summary": summary,
    }


def _reopen_events(turno: Turno) -> list[Any]:
    events = getattr(turno, "reopen_events", None)
    if events is None:
        events = list(turno.events.filter(kind="reopen").select_related("user"))
    return events


def _signed_by(user: Any) -> str:
    """The segretario as the Verbale names them (as C.A.F.'s): full name, else username."""
    return "" if user is None else (user.get_full_name() or user.get_username())


def deal_rows(system: Any, running: dict[str, Any], players: list[str]) -> list[dict[str, Any]]:
    """The smazzate of a turno scored by its system (``score_running``) as the Verbale lists
    them: number, dealer, the system's line and the points per player in seat order (None for
    a player not in play)."""
    return [
        {
            "number": s["number"],
            "dealer": s["dealer"],
            "line": engine_text(system.describe(s)),
            "points": [s["points"].get(p) for p in players],
        }
        for s in running["smazzate"]
    ]


def verbale_rows(turno: Turno) -> GameVerbale:
    """The one row source of a generic turno's Verbale documents (PDF, XLSX, the stored
    documents, the mail; the page reads :mod:`scoring.selectors_turno`). The reopenings are
    read from ``turno.reopen_events`` when the caller loaded them."""
    season = turno.season
    system, rules = season.system, season.game_rules
    record = game_record(turno)
    running = system.score_running(rules, record)
    players = record["players"]
    seats = sorted(turno.seats.all(), key=lambda s: (s.place or 99, s.position))
    columns = system.turno_columns()
    return GameVerbale(
        club=settings.CLUB_NAME,
        season=season.name,
        game=system.label,
        title=_("Verbale di Turno"),
        date=turno.giornata.date,
        number=turno.number,
        table=turno.table,
        first_dealer=turno.first_dealer.name,
        verbale_number=turno.verbale_number,
        closed=not turno.is_open,
        players=players,
        rows=deal_rows(system, running, players),
        totals=[running["totals"].get(p, 0) for p in players],
        balance=running.get("balance"),
        sheet=sheet_of(system, rules, record),
        penalty_points=system.points_are_penalties,
        columns=columns,
        results=[
            {
                "place": seat.place,
                "player": seat.player.name,
                "total": seat.total,
                "values": [seat.extra.get(key, "") for key, _label in columns],
            }
            for seat in seats
            if not turno.is_open
        ],
        reopens=[
            _("Riaperto il %(at)s da %(user)s: %(reason)s")  # as C.A.F.'s, translated
            % {
                "at": formatting.moment(e.at),
                "user": e.user.get_username() if e.user else "—",
                "reason": e.reason,
            }
            for e in _reopen_events(turno)
        ],
        confirmations=confirmation_lines(turno.pk),
        closed_at=None if turno.is_open else turno.closed_at,
        segretario=_signed_by(turno.segretario) or _signed_by(turno.closed_by),
        rules=formatting.rules_name(system.label, season.rules),
        penalties=[
            f"{p['player']} {p['points']:+d} (art. {p['article']}"
            + (f": {p['reason']})" if p.get("reason") else ")")
            for p in record.get("penalties", [])
        ],
    )


# -- a member's season: the player page of every game -------------------------------------------
@dataclass(frozen=True)
class Giorno:
    """A row of a member's timeline: a turno they sat at on that date, or their absence."""

    date: dt.date
    seat: Seat | None
    absence: Decimal | None


@dataclass(frozen=True)
class MemberGame:
    """A game (contract, close, Skat game, C.A.F.'s game) in a member's closed turni."""

    code: str
    name: str  # the rules' name of the code (an engine text: the page translates it)
    count: int  # the smazzate of it the member played
    total: int  # their points in those
    chosen: int | None  # how often they chose it (called, declared, closed), where it is counted
    symbol: (
        bool  # written as the club writes the game (C.A.F.'s ``NJ``, ``N♥``), its name the title
    )

    @property
    def average(self) -> Decimal:
        return (Decimal(self.total) / self.count).quantize(Decimal("0.01"))


@dataclass(frozen=True)
class ChartLine:
    """A member's cumulative league points at the giornate the chart shows, from ``start``."""

    name: str
    values: list[Decimal]
    start: int
    highlight: bool = False


@dataclass(frozen=True)
class MemberChart:
    dates: list[dt.date]  # the closed giornate drawn
    giornate: int  # the closed giornate in all (more than drawn: the line is thinned)
    lines: list[ChartLine]


@dataclass(frozen=True)
class MemberSeason:
    """A member's season as their page shows it, the same read model for every game: their row
    of the Classifica in the season's own columns, what their ledger keeps beyond it (C.A.F.'s
    wins, podiums, calls, titles and league points per giornata), the points per game of their
    closed turni, and their giornate a page at a time (newest first)."""

    # the member's row of the Classifica (:func:`scoring.verbale.classifica_sheet`), its
    # ``turni`` counting the turni in corso too; None when the member is not in it
    standing: dict[str, Any] | None
    sheet: ClassificaSheet  # the season's columns and that one row
    turni: int  # the turni played, in corso included
    kept: list[tuple[str, str, int]]  # the ledger's own figures: key, label (to translate), value
    calls: dict[str, int] | None  # C.A.F.'s calls, forced calls, scazzate, cappotti
    titles: list[tuple[str, int]]  # the titles won, by code
    games: list[MemberGame]
    timeline: list[Giorno]  # this page's giornate, newest first
    page: Any  # the timeline's Page (its paginator counts the giornate)
    # the columns of a turno after place and total (the system's ``turno_columns``, from the
    # seat's figures); None: the counts ledger's ratio, titles, league points and series
    timeline_columns: list[tuple[str, str]] | None
    chart: MemberChart | None  # league points giornata by giornata, where the ledger keeps them
    # the points per game written with their sign (C.A.F.'s counts, as its Verbale writes them)
    signed: bool = False


@dataclass(frozen=True)
class _Kept:
    """What a ledger keeps of a member's season beyond the Classifica (:data:`MEMBER_LEDGERS`)."""

    played: Iterable[dt.date]  # the giornate of their closed turni
    kept: list[tuple[str, str, int]]
    calls: dict[str, int] | None
    games: list[MemberGame]
    chart: MemberChart | None
    timeline_columns: list[tuple[str, str]] | None
    signed: bool = False


def _counts_kept(
    member: Player, season: Season, leaders: list[Any], absent: dict[dt.date, Decimal], points: int
) -> _Kept:
    """C.A.F.'s: what the last close kept (``PlayerFigures``): the member's season figures and
    league points per giornata played, the leaders' lines of the chart; not a whole season's
    seats."""
    stored = {
        pid: (figures, played, line)
        for pid, figures, played, line in PlayerFigures.objects.filter(
            season=season, player_id__in=[member.pk, *(r.player_id for r in leaders)]
        ).values_list("player_id", "figures", "played", "line")
    }
    figures, played, _line = stored.get(member.pk, ({}, {}, None))
    figures = figures or season_figures()
    mine = {dt.date.fromisoformat(d): Decimal(lp) for d, lp in played.items()}
    dates = list(
        Giornata.objects.filter(season=season, lowest__isnull=False)
        .order_by("date")
        .values_list("date", flat=True)
    )
    shown = even_indices(len(dates), points)
    start, line = league_line(dates, mine, absent)
    first, values = _shown_line({"start": start, "points": line}, shown)
    lines = [ChartLine(member.name, values, first, highlight=True)]
    for r in leaders:
        if r.player_id != member.pk:
            first, values = _shown_line(stored[r.player_id][2], shown)
            lines.append(ChartLine(r.player, values, first))
    per_game = figures.get("games", {})
    games = season.ruleset.games
    order = [*games, *sorted(set(per_game) - set(games))]
    return _Kept(
        played=mine,
        kept=[
            ("wins", gettext_noop("Vittorie"), figures["wins"]),
            ("podiums", gettext_noop("Podi"), figures["podiums"]),
        ],
        calls={key: figures[key] for key in FIGURE_COUNTS},
        games=[
            MemberGame(
                code,
                games[code].name if code in games else code,
                per_game[code][1],
                per_game[code][0],
                None,
                symbol=True,
            )
            for code in order
            if code in per_game and per_game[code][1]
        ],
        chart=MemberChart([dates[i] for i in shown], len(dates), lines),
        timeline_columns=None,
        signed=True,
    )


def _shown_line(line: dict[str, Any], shown: list[int]) -> tuple[int, list[Decimal]]:
    """A stored line (``league_line``: its first giornata and the running totals from there)
    at the giornate the chart shows: the index among ``shown`` of its first point, and its
    values from there."""
    start, points = line["start"], line["points"]
    first = bisect.bisect_left(shown, start)
    return first, [Decimal(points[i - start]) for i in shown[first:]]


#: the member's closed turni whose points per game one entry of the shared cache keeps
GAMES_BLOCK = 50
GAMES_CACHE_SECONDS = 7 * 24 * 3600


def _records_kept(
    member: Player, season: Season, leaders: list[Any], absent: dict[dt.date, Decimal], points: int
) -> _Kept:
    """The five games': the giornate of the member's closed turni and, per game code the ledger
    indexes (``smazzata_keys``), their smazzate, points and choices (:func:`_records_games`)."""
    closed = list(
        Seat.objects.filter(player=member, turno__season=season, turno__status=Turno.CHIUSO)
        .order_by("turno__giornata__date", "turno__number", "turno_id")
        .values_list("turno_id", "turno__closed_at", "turno__giornata__date")
    )
    system = season.system
    return _Kept(
        played={date for _t, _at, date in closed},
        kept=[],
        calls=None,
        games=[
            MemberGame(code, system.game_name(code), n, total, chosen, symbol=False)
            for code, (n, total, chosen) in sorted(_records_games(member, season, closed).items())
        ],
        chart=None,
        timeline_columns=system.turno_columns(),
    )


def _records_games(
    member: Player, season: Season, closed: list[tuple[int, Any, dt.date]]
) -> dict[str, list[int]]:
    """Per game code, the member's smazzate, points and choices in their ``closed`` turni (the
    turno, when it closed; in turno order), summed from blocks of :data:`GAMES_BLOCK` turni
    kept in the shared cache. A block's key names its turni and the moment each closed: a
    closed turno's smazzate change only through a reopen (which takes it out) and a close
    (a new moment), so a block is never stale, and after a close only the block of that turno
    is summed again in the database (one grouped query), not the whole season's smazzate."""
    made = season.created_at.timestamp() if season.created_at else 0
    blocks = [closed[i : i + GAMES_BLOCK] for i in range(0, len(closed), GAMES_BLOCK)]
    keys = [
        "member-games:{}:{}:{}:{}".format(
            season.pk,
            made,
            member.pk,
            hashlib.blake2s(
                repr([(t, at.isoformat() if at else "") for t, at, _d in block]).encode(),
                digest_size=12,
            ).hexdigest(),
        )
        for block in blocks
    ]
    kept = cache.get_many(keys)
    missing = {i for i, key in enumerate(keys) if key not in kept}
    if missing:
        block_of = {t: i for i in missing for t, _at, _d in blocks[i]}
        summed: dict[int, dict[str, list[int]]] = {i: {} for i in missing}
        for turno, code, n, total, chosen in (
            Result.objects.filter(player=member, smazzata__turno_id__in=list(block_of))
            .values_list("smazzata__turno_id", "smazzata__game")
            .annotate(
                n=Count("pk"),
                total=Sum("points"),
                chosen=Count("pk", filter=Q(smazzata__caller=member)),
            )
            .order_by()
        ):
            _add_game(summed[block_of[turno]], code, (n, total or 0, chosen))
        fresh = {keys[i]: summed[i] for i in missing}
        cache.set_many(fresh, GAMES_CACHE_SECONDS)
        kept.update(fresh)
    out: dict[str, list[int]] = {}
    for key in keys:
        for code, figures in kept[key].items():
            _add_game(out, code, figures)
    return out


def _add_game(into: dict[str, list[int]], code: str, figures: Iterable[int]) -> None:
    into[code] = [a + b for a, b in zip(into.get(code, (0, 0, 0)), figures, strict=True)]


#: What each ledger keeps of a member's season beyond the Classifica, by the ledger the season's
#: system declares (``BaseSystem.ledger``), as ``LEDGERS`` and ``VERBALE_SOURCES``.
MEMBER_LEDGERS: dict[str, Callable[..., _Kept]] = {
    "counts": _counts_kept,
    "records": _records_kept,
}

#: what a timeline row reads of a seat: not the turno's nor the giornata's other columns (the
#: giornata's state_after is the whole season's series)
TIMELINE_FIELDS = (
    *("turno", "place", "total", "ratio", "titles", "league_points", "extra"),
    *("series_before", "series_after"),
    *("turno__number", "turno__status", "turno__giornata__date"),
)


def member_season(
    member: Player,
    season: Season,
    *,
    page: Any = None,
    per_page: int = 20,
    leaders: int = 3,
    chart_points: int = 60,
) -> MemberSeason:
    """The one read model of a member's page of a season, for every game, in a fixed number of
    queries whatever the season's size: the member's and the ``leaders``' rows of the stored
    Classifica, what the member's ledger keeps, and of the member's giornate (the turni of the
    closed ones, those in corso, the absences: newest first) only page ``page`` of ``per_page``.
    The chart draws at most ``chart_points`` giornate (the first and the last always)."""
    rows = classifica(season, top=leaders, player_id=member.pk)
    top = [r for r in rows[:leaders] if r.player_id is not None]
    # the turni being played (not in the Classifica until they close)
    playing = list(
        Seat.objects.filter(player=member, turno__season=season, turno__status=Turno.IN_CORSO)
        .order_by()
        .values_list("turno__giornata__date", flat=True)
    )
    absent = dict(
        Absence.objects.filter(season=season, player_id=member.pk)
        .order_by()
        .values_list("giornata__date", "league_points")
    )
    kept = MEMBER_LEDGERS[season.system.ledger](member, season, top, absent, chart_points)
    me = next((r for r in rows if r.player_id == member.pk), None)
    sheet = classifica_sheet(season, [me] if me else [])
    standing = dict(sheet.rows[0]) if sheet.rows else None
    turni = (me.turni if me else 0) + len(playing)
    if standing is not None:  # a turno in corso is a turno played (its places not known yet)
        standing["turni"] = turni
        sheet = replace(sheet, rows=(standing,))
    giorni = sorted({*kept.played, *playing, *absent}, reverse=True)
    shown = Paginator(giorni, per_page).get_page(page)
    by_date: dict[dt.date, list[Seat]] = {}
    for s in (
        Seat.objects.filter(
            player=member, turno__season=season, turno__giornata__date__in=shown.object_list
        )
        .select_related("turno__giornata")
        .only(*TIMELINE_FIELDS)
        .order_by("-turno__giornata__date", "-turno__number")
    ):
        by_date.setdefault(s.turno.giornata.date, []).append(s)
    timeline = []
    for d in shown.object_list:
        seats = by_date.get(d) or [None]
        timeline += [Giorno(d, s, absent.get(d) if s is None else None) for s in seats]
    return MemberSeason(
        standing=standing,
        sheet=sheet,
        turni=turni,
        kept=kept.kept,
        calls=kept.calls,
        titles=[(code, n) for code, n in (me.titles.items() if me else ()) if n],
        games=kept.games,
        timeline=timeline,
        page=shown,
        timeline_columns=kept.timeline_columns,
        chart=kept.chart,
        signed=kept.signed,
    )
