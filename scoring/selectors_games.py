"""Reads of a game kept by the generic ledger (every game but C.A.F.), and the read models of its
documents. Nothing here computes a point: the season's game system does.

- :func:`game_turni`, :func:`game_record`: the turni loaded in a fixed number of queries, and a
  stored turno as its system's interchange record (the engine's input). The services, the
  documents and the scoreboard read the database through these.
- :func:`verbale_rows` -> :class:`GameVerbale`: the Verbale di Turno's documents (the PDF and the
  XLSX of :mod:`scoring.exports.games`, the stored documents, the mail); the page and the
  scoreboard read :mod:`scoring.selectors_turno`, which lists the deals with :func:`deal_rows`.
- :func:`game_player` -> :class:`GamePlayer`: a member's season (the player page).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Avg, Count, Prefetch, QuerySet
from django.utils.translation import gettext as _

from scoring import formatting
from scoring.models import Penalita, Player, Result, Season, Seat, Smazzata, Turno
from scoring.problem_text import engine_text
from scoring.records import record_names, seat_names
from scoring.rules.systems import get_system
from scoring.selectors import TURNO_RELATED
from scoring.selectors_confirmations import confirmation_lines
from scoring.verbale import classifica, classifica_sheet


def game_prefetches() -> tuple[Prefetch, ...]:
    """What :func:`game_turni` prefetches (for ``prefetch_related_objects`` on turni already
    loaded with :data:`scoring.selectors.TURNO_RELATED`)."""
    return (
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch(
            "smazzate",
            queryset=Smazzata.objects.select_related("caller", "dealer")
            .prefetch_related(Prefetch("results", queryset=Result.objects.select_related("player")))
            .order_by("number"),
        ),
        Prefetch("penalita", queryset=Penalita.objects.select_related("player").order_by("id")),
    )


def game_turni(queryset: QuerySet[Turno] | None = None) -> QuerySet[Turno]:
    """Turni with what :func:`game_record` and the pages read, in a fixed number of queries."""
    qs = queryset if queryset is not None else Turno.objects.all()
    return qs.select_related(*TURNO_RELATED).prefetch_related(*game_prefetches())


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
        "tiebreak": list(tiebreak),
    }
    if takes_penalties(turno.season.system):
        record["penalties"] = [
            {"player": p.player.name, "points": p.points, "article": p.article, "reason": p.reason}
            for p in sorted(turno.penalita.all(), key=lambda p: p.pk)
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


@dataclass(frozen=True)
class GamePlayer:
    """A member's season in a generic game: the standing row, every turno, and per game code
    (contract, close, game type) how often they chose it and their average points."""

    # the member's row of the Classifica (its read model, :func:`scoring.verbale.classifica_sheet`)
    standing: dict[str, Any] | None
    sheet: Any  # the ClassificaSheet of that one row, for its columns
    seats: list[Seat]  # every turno of the member, oldest first (with its giornata)
    games: list[dict[str, Any]]  # code, played, average, chosen


def member_page_follows_version(ruleset_code: str) -> bool:
    """Does a member's page of a season of this game change only with the season's ``version``
    (a close, a reopen, a rename...), so that the page cache may keep it whole? C.A.F.'s ledger
    keeps a member's figures per closed turno (``PlayerFigures``); the generic ledger's page
    (:func:`game_player`) reads every smazzata, a turno in corso's too, which bumps no version.
    The one place the members' pages ask which ledger keeps the season (issue 24: C.A.F.'s
    switch onto the generic ledger removes it)."""
    return not get_system(ruleset_code).generic_ledger


def game_player(member: Player, season: Season) -> GamePlayer:
    """The one row source of a member's page in a generic season."""
    sheet = classifica_sheet(season, classifica(season, top=0, player_id=member.pk))
    seats = list(
        Seat.objects.filter(player=member, turno__season=season)
        .select_related("turno__giornata")
        .order_by("turno__giornata__date", "turno__number")
    )
    by_game = (
        Result.objects.filter(player=member, smazzata__turno__season=season)
        .values("smazzata__game")
        .annotate(n=Count("id"), avg=Avg("points"))
        .order_by("smazzata__game")
    )
    chosen = dict(
        Smazzata.objects.filter(caller=member, turno__season=season)
        .values("game")
        .annotate(n=Count("id"))
        .values_list("game", "n")
    )
    return GamePlayer(
        standing=sheet.rows[0] if sheet.rows else None,
        sheet=sheet,
        seats=seats,
        games=[
            {
                "code": g["smazzata__game"],
                # the rules' name of the code (an engine text: the page translates it)
                "name": season.system.game_name(g["smazzata__game"]),
                "played": g["n"],
                # written with two decimals by the page ("40,50", "39,14", "−20,00")
                "average": Decimal(str(g["avg"])),
                "chosen": chosen.get(g["smazzata__game"], 0),
            }
            for g in by_game
        ],
    )
