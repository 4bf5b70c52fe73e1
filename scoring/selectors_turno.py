"""The read model of one turno on screen, the same for every game: its Verbale's page
(``/turni/<pk>/``) and its table on the club room's scoreboard (:mod:`scoring.selectors_live`)
render a :class:`TurnoSheet` and ask nothing more of the database.

:func:`turno_sheets` loads the turni's rows in a fixed number of queries and builds each sheet
from what the season's ledger keeps: the one place that tells the two ledgers apart is
:data:`TURNO_READERS`, looked up by the system's declared ``ledger`` (as
:data:`scoring.services.documents.VERBALE_SOURCES` picks the Verbale's documents):

- ``"counts"`` (C.A.F.): the Verbale of :func:`scoring.verbale.verbale` and, for a turno in
  corso, the engine's ``score_turno`` and ``progress_of``;
- ``"records"`` (every other game): the deals' records scored by the system (``score_running``,
  ``next_step``, ``player_notes``, ``describe``, its own list where it keeps one).

What a closed turno shows of each player beyond place and total is a tuple of
:class:`~scoring.rules.systems.Column` (key, label to translate, kind), as the Classifica's
columns (``classifica_columns()``); the kinds a turno adds to :data:`COLUMN_KINDS
<scoring.rules.systems.COLUMN_KINDS>` are :data:`TURNO_KINDS`. How the deals are listed is a
layout named by :attr:`TurnoSheet.grid` (one template each). Nothing here computes a point.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext_noop

from scoring import formatting
from scoring.models import Season, Turno, TurnoEvent
from scoring.problem_text import engine_text
from scoring.rules.caf import progress_of, score_turno
from scoring.rules.systems import Column
from scoring.selectors import turno_prefetches, turno_record
from scoring.selectors_games import deal_rows, game_prefetches, game_record, sheet_of
from scoring.verbale import PenaltyLine, ReopenLine, game_label, user_name, verbale

#: the kinds of a turno's columns beyond the Classifica's: a ratio (``0,62``, with its value in
#: ``data-ratio``), titles won (badges of ``(code, label, value)``), league points (``+1,03``),
#: a series before and after the turno (``((code, label), (code, label))``: badges, an arrow
#: when it moved)
TURNO_KINDS = ("ratio", "titles", "league", "series_change")

#: C.A.F.'s figures of a closed turno (SPEC §5-§8)
COUNTS_COLUMNS = (
    Column("ratio", gettext_noop("Rapporto"), "ratio"),
    Column("titles", gettext_noop("Titoli"), "titles", narrow=True),
    Column("league_points", gettext_noop("Punti classifica"), "league"),
    Column("series", gettext_noop("Serie"), "series_change"),
)


@dataclass(frozen=True)
class TurnoSeat:
    """A player of the turno, in seat order: the running (or final) total and, once closed,
    the place and the figures of :attr:`TurnoSheet.columns` (``cells``: ``(column, value)``)."""

    name: str
    player_id: int
    total: int
    dealer: bool = False  # deals the next smazzata
    note: str = ""  # the system's short note for the live screen ("a 4 da 101", "fuori")
    remaining: tuple[str, ...] = ()  # C.A.F.: the games still to call, as the Verbale writes them
    place: int | None = None
    spareggio: bool = False  # the place was decided by the spareggio
    cells: tuple[tuple[Column, Any], ...] = ()

    @property
    def place_text(self) -> str:
        """``1°``, or ``1° per spareggio, carta più alta``."""
        return formatting.place(self.place, spareggio=self.spareggio)


@dataclass(frozen=True)
class LastSmazzata:
    number: int
    text: str
    dealer: str
    caller: str
    points: tuple[tuple[str, int | None], ...]


@dataclass(frozen=True)
class DealLines:
    """The deals of a records-ledger turno: one line per smazzata as the system describes it
    (``grid == "lines"``), or the system's own list (``grid == "list"``, the Skat Spielliste)."""

    players: list[str]
    rows: list[dict[str, Any]]
    totals: list[int]
    balance: int | None
    sheet: dict[str, Any] | None


@dataclass(frozen=True)
class TurnoSheet:
    """Everything a turno's page and its scoreboard table show, for every game."""

    turno: Turno
    season: Season
    game: str  # the system's label
    is_open: bool
    status: str  # the status as the reader's language names it
    date: dt.date
    number: int
    table: str
    verbale_number: int | None
    first_dealer: str
    segretario: str
    played: int  # smazzate recorded
    total: int | None  # smazzate of the turno, when the game fixes the number
    next_number: int | None  # the next smazzata (None when all are recorded, or closed)
    dealer: str | None  # who deals it
    calling_order: tuple[str, ...]  # C.A.F.: who may call now, the dealer last
    chooser: str | None  # the chooser / declarer of the next smazzata, when the system says
    players: tuple[TurnoSeat, ...]  # seat order
    columns: tuple[Column, ...]  # a closed turno's figures after place, player and total
    last: LastSmazzata | None
    # the deals' layout and what it reads, built when first asked (the page lists the deals,
    # the scoreboard does not): see :attr:`grid` and :attr:`deals`
    deals_of: Callable[[], tuple[str, Any]] = field(repr=False, compare=False)
    penalties: tuple[PenaltyLine, ...]
    sanctions: tuple[PenaltyLine, ...]
    provisional: str  # what a turno in corso leaves to the close (marked for translation)
    penalty_points: bool = False  # the points count against a player (Ramino)
    series_moves: tuple[tuple[str, str, str, int], ...] = ()  # name, from, to, +1/-1

    @cached_property
    def _layout(self) -> tuple[str, Any]:
        return self.deals_of()

    @property
    def grid(self) -> str:
        """How the deals are listed: ``calls`` (C.A.F.), ``lines`` or ``list`` (the system's own
        list, the Skat Spielliste): one template each, ``includes/turno_deals_<grid>.html``."""
        return self._layout[0]

    @property
    def deals(self) -> Any:
        """What that layout reads: a :class:`scoring.verbale.Verbale`, or :class:`DealLines`."""
        return self._layout[1]

    @property
    def by_place(self) -> tuple[TurnoSeat, ...]:
        return tuple(sorted(self.players, key=lambda p: (p.place or 99, p.name)))

    @property
    def reopens(self) -> tuple[ReopenLine, ...]:
        """The turno's reopens, oldest first (one query unless prefetched: only the page
        reads them)."""
        events = getattr(self.turno, "reopen_events", None)
        if events is None:
            events = self.turno.events.filter(kind=TurnoEvent.REOPEN).select_related("user")
            events = events.order_by("at", "id")
        return tuple(ReopenLine(e.at, user_name(e.user), e.reason) for e in events)


def _frame(turno: Turno) -> dict[str, Any]:
    """What every game's turno shows the same way: its head."""
    return {
        "turno": turno,
        "season": turno.season,
        "game": turno.season.system.label,
        "is_open": turno.is_open,
        "status": turno.get_status_display(),
        "date": turno.giornata.date,
        "number": turno.number,
        "table": turno.table,
        "verbale_number": turno.verbale_number,
        "first_dealer": turno.first_dealer.name,
        "segretario": user_name(turno.segretario) or user_name(turno.closed_by),
    }


def _counts_sheet(turno: Turno) -> TurnoSheet:
    """A C.A.F. turno: its Verbale, and the engine's running state while in corso."""
    rules = turno.season.ruleset
    v = verbale(turno)
    is_open = turno.is_open
    score = progress = None
    if is_open:
        record = turno_record(turno)
        score = score_turno(rules, record, require_complete=False)
        progress = progress_of(rules, record)
    going = progress is not None and not progress.complete
    labels = {s.code: s.label for s in rules.series}
    order = rules.series_codes()
    players, moves = [], []
    for line in v.seats:
        name = line.player
        before, after = line.series_before, line.series_after
        players.append(
            TurnoSeat(
                name=name,
                player_id=line.player_id,
                total=score.totals.get(name, 0) if score is not None else line.total,
                dealer=going and name == progress.dealer,
                remaining=tuple(game_label(g) for g in progress.remaining_games(name))
                if progress is not None
                else (),
                place=None if is_open else line.place,
                spareggio=line.spareggio,
                cells=()
                if is_open
                else tuple(
                    zip(
                        COUNTS_COLUMNS,
                        (
                            line.ratio,
                            line.titles,
                            line.league_points,
                            (
                                (before, labels.get(before, before)),
                                (after, labels.get(after, after)),
                            ),
                        ),
                        strict=True,
                    )
                ),
            )
        )
        if not is_open and before and after and before != after and before in order:
            up = order.index(after) < order.index(before) if after in order else False
            moves.append(
                (name, labels.get(before, before), labels.get(after, after), 1 if up else -1)
            )
    last = None
    if v.rows:
        row = v.rows[-1]
        last = LastSmazzata(
            number=row.number,
            text=row.game_label + (f" {row.trump_symbol}" if row.trump_symbol else ""),
            dealer=row.dealer,
            caller=row.caller,
            points=tuple((p, c.points) for p, c in zip(v.players, row.cells, strict=True)),
        )
    return TurnoSheet(
        **_frame(turno),
        played=len(v.rows),
        total=progress.total if progress is not None else v.smazzate_total,
        next_number=progress.number if going else None,
        dealer=progress.dealer if going else None,
        calling_order=progress.calling_order() if progress is not None else (),
        chooser=None,
        players=tuple(players),
        columns=() if is_open else COUNTS_COLUMNS,
        last=last,
        deals_of=lambda: ("calls", v),
        penalties=v.penalties,
        sanctions=v.sanctions,
        provisional=gettext_noop(
            "I totali sono provvisori; posti, rapporti, titoli e serie si fissano alla chiusura."
        ),
        series_moves=tuple(moves),
    )


def _records_sheet(turno: Turno) -> TurnoSheet:
    """A turno of a game kept as records: the records scored by the season's system."""
    season = turno.season
    system, rules = season.system, season.game_rules
    record = game_record(turno)
    running = system.score_running(rules, record)
    is_open = turno.is_open
    step = system.next_step(rules, record) if is_open else {}
    notes = system.player_notes(rules, record) if is_open else {}
    names = record["players"]
    seats = {s.player.name: s for s in turno.seats.all()}
    columns = () if is_open else tuple(Column(key, label) for key, label in system.turno_columns())
    going = is_open and not step.get("complete")
    players = tuple(
        TurnoSeat(
            name=p,
            player_id=seats[p].player_id,
            total=running["totals"].get(p, 0),
            dealer=going and p == step.get("dealer"),
            note=engine_text(notes.get(p, "")),
            place=None if is_open else seats[p].place,
            cells=tuple((c, seats[p].extra.get(c.key, "")) for c in columns),
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

    def deals() -> tuple[str, DealLines]:
        rows = deal_rows(system, running, names)
        listed = sheet_of(system, rules, record) if rows else None
        return "list" if listed is not None else "lines", DealLines(
            players=names,
            rows=rows,
            totals=[running["totals"].get(p, 0) for p in names],
            balance=running.get("balance"),
            sheet=listed,
        )

    games = step.get("games")
    chooser = step.get("chooser") or step.get("declarer")
    return TurnoSheet(
        **_frame(turno),
        played=len(running["smazzate"]),
        total=games if isinstance(games, int) else None,
        next_number=step.get("number") if going else None,
        dealer=step.get("dealer") if going else None,
        calling_order=(),
        chooser=str(chooser) if going and isinstance(chooser, str) else None,
        players=players,
        columns=columns,
        last=last,
        deals_of=deals,
        penalties=tuple(
            PenaltyLine(p.pk, p.player.name, p.points, p.article, p.reason)
            for p in turno.penalita.all()
        ),
        sanctions=(),
        provisional=gettext_noop("I totali sono provvisori; i posti si fissano alla chiusura."),
        penalty_points=system.points_are_penalties,
    )


@dataclass(frozen=True)
class TurnoReader:
    """How a ledger's turni are read: what to prefetch, and the sheet built from it."""

    prefetches: Callable[[], tuple[Prefetch, ...]]
    sheet: Callable[[Turno], TurnoSheet]


#: the reader of a turno by what its season's ledger keeps (``BaseSystem.ledger``)
TURNO_READERS: dict[str, TurnoReader] = {
    "counts": TurnoReader(turno_prefetches, _counts_sheet),
    "records": TurnoReader(game_prefetches, _records_sheet),
}


def turno_sheets(turni: Sequence[Turno]) -> list[TurnoSheet]:
    """The sheets of ``turni`` (loaded with :data:`scoring.selectors.TURNO_RELATED`), in their
    order: one batch of prefetches per ledger among them, whatever their number."""
    by_ledger: dict[str, list[Turno]] = defaultdict(list)
    for t in turni:
        by_ledger[t.season.system.ledger].append(t)
    for ledger, group in by_ledger.items():
        prefetch_related_objects(group, *TURNO_READERS[ledger].prefetches())
    return [TURNO_READERS[t.season.system.ledger].sheet(t) for t in turni]
