"""The one row source of the official documents.

:func:`verbale` yields the Verbale di Turno and :func:`classifica` the Classifica Generale; the
HTML pages, the PDFs and the workbooks all render these, so every number comes from one place
(stored by the engine when the turno changed).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Max, Q, Subquery

from scoring import formatting
from scoring.models import Giornata, Season, Standing, Turno, TurnoEvent
from scoring.rules.caf import rank_classifica
from scoring.rules.caf.ruleset import SUIT_SYMBOLS, TITLE_LABELS, TITLE_ORDER
from scoring.rules.systems import Column
from scoring.selectors import season_start_state, standings_aggregate
from scoring.selectors_confirmations import confirmation_lines

SUIT_NAMES = {"S": "picche", "H": "cuori", "D": "quadri", "C": "fiori"}
RED_SUITS = {"H", "D"}


def game_label(code: str) -> str:
    """The game as the club writes it everywhere: NJ, NQ♠, N♥, NU2, NF, Domino, Briscola..."""
    return formatting.game_label(code)


@dataclass(frozen=True)
class Cell:
    count: int
    points: int


@dataclass(frozen=True)
class Row:
    number: int
    game: str
    game_label: str
    game_name: str
    trump: str  # "" or S/H/D/C
    trump_symbol: str
    trump_red: bool
    dealer: str
    caller: str
    forced: bool
    scazzata: bool
    cappotto: str | None
    cells: tuple[Cell, ...]  # seat order


@dataclass(frozen=True)
class SeatLine:
    player: str
    player_id: int
    position: int
    smazzate_points: int
    penalty: int
    total: int
    place: int | None
    ratio: Decimal | None
    series_before: str
    series_after: str
    titles: tuple[tuple[str, str, Decimal], ...]  # (code, label, value)
    league_points: Decimal | None
    spareggio: bool = False  # the place was decided by the spareggio (a tie on the total)

    @property
    def place_text(self) -> str:
        """``1°``, or ``1° per spareggio, carta più alta`` when the spareggio decided it."""
        return formatting.place(self.place, spareggio=self.spareggio)


@dataclass(frozen=True)
class ReopenLine:
    """A reopen of the turno, as the Verbale records it: when, by whom, why."""

    at: dt.datetime
    user: str
    reason: str


@dataclass(frozen=True)
class PenaltyLine:
    id: int
    player: str
    points: int
    article: str
    reason: str


@dataclass(frozen=True)
class Verbale:
    club: str
    season: str
    turno_id: int
    date: dt.date
    number: int
    table: str
    verbale_number: int | None
    status: str
    closed: bool
    first_dealer: str
    segretario: str
    closed_at: dt.datetime | None
    seats: tuple[SeatLine, ...]
    rows: tuple[Row, ...]
    penalties: tuple[PenaltyLine, ...]
    sanctions: tuple[PenaltyLine, ...] = field(default=())
    smazzate_total: int = 0
    reopens: tuple[ReopenLine, ...] = ()
    # who confirmed or contested the Verbale, one line each (the documents print them); filled
    # by ``verbale(turno, confirmations=True)``
    confirmations: tuple[str, ...] = ()
    # the season's own rules as the documents name them (formatting.rules_name)
    rules: str = ""
    # the series' names of the season's ladder (code -> label): what the documents print
    series_labels: tuple[tuple[str, str], ...] = ()

    @property
    def spareggio(self) -> bool:
        """Some places were decided by the spareggio."""
        return any(s.spareggio for s in self.seats)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.seats)

    @property
    def by_place(self) -> tuple[SeatLine, ...]:
        return tuple(sorted(self.seats, key=lambda s: (s.place or 99, s.position)))


def user_name(user: Any) -> str:
    """A user as the documents sign with them: the full name, else the username."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def verbale(turno: Turno, *, confirmations: bool = False) -> Verbale:
    """The Verbale di Turno of a turno loaded with :func:`selectors.turno_with_everything`;
    with ``confirmations`` also the players' confirmations (one query more: the documents)."""
    rules = turno.season.ruleset
    seats = sorted(turno.seats.all(), key=lambda s: s.position)
    index = {s.player_id: i for i, s in enumerate(seats)}
    rows = []
    sums = [0] * len(seats)
    for sm in sorted(turno.smazzate.all(), key=lambda s: s.number):
        cells = [Cell(0, 0)] * len(seats)
        counts = sm.record.get("result") if isinstance(sm.record, dict) else None
        counts = counts if isinstance(counts, dict) else {}
        for r in sm.results.all():
            seat = seats[index[r.player_id]]  # the record keeps the counts by seat
            cells[index[r.player_id]] = Cell(counts.get(str(seat.position)), r.points)
            sums[index[r.player_id]] += r.points
        rule = rules.games.get(sm.game)
        rows.append(
            Row(
                number=sm.number,
                game=sm.game,
                game_label=game_label(sm.game),
                game_name=rule.name if rule else sm.game,
                trump=sm.trump,
                trump_symbol=SUIT_SYMBOLS.get(sm.trump, ""),
                trump_red=sm.trump in RED_SUITS,
                dealer=sm.dealer.name,
                caller=sm.caller.name,
                forced=sm.forced,
                scazzata=sm.scazzata,
                cappotto=sm.cappotto.name if sm.cappotto_id else None,
                cells=tuple(cells),
            )
        )
    closed = not turno.is_open
    tied = {t for t in (s.total for s in seats) if sum(1 for o in seats if o.total == t) > 1}
    lines = tuple(
        SeatLine(
            player=s.player.name,
            player_id=s.player_id,
            position=s.position,
            smazzate_points=sums[i],
            penalty=s.penalty_total,
            total=s.total,
            place=s.place,
            ratio=s.ratio,
            series_before=s.series_before,
            series_after=s.series_after,
            titles=tuple(
                (code, TITLE_LABELS.get(code, code), rules.titles.get(code, Decimal(0)))
                for code in s.titles
            ),
            league_points=s.league_points,
            spareggio=closed and s.place is not None and s.total in tied,
        )
        for i, s in enumerate(seats)
    )
    return Verbale(
        club=settings.CLUB_NAME,
        season=turno.season.name,
        turno_id=turno.pk,
        date=turno.giornata.date,
        number=turno.number,
        table=turno.table,
        verbale_number=turno.verbale_number,
        status=turno.get_status_display(),
        closed=closed,
        first_dealer=turno.first_dealer.name,
        segretario=user_name(turno.segretario) or user_name(turno.closed_by),
        closed_at=turno.closed_at,
        seats=lines,
        rows=tuple(rows),
        penalties=tuple(
            PenaltyLine(p.pk, p.player.name, p.points, p.article, p.reason)
            for p in turno.penalita.all()
        ),
        sanctions=tuple(
            PenaltyLine(s.pk, s.player.name, 0, "", s.reason) for s in turno.sanctions.all()
        ),
        smazzate_total=rules.smazzate_count(len(seats)),
        reopens=_reopens(turno),
        confirmations=tuple(confirmation_lines(turno.pk)) if confirmations else (),
        rules=formatting.rules_name(turno.season.system.label, turno.season.rules),
        series_labels=tuple((x.code, x.label) for x in rules.series),
    )


def _reopens(turno: Turno) -> tuple[ReopenLine, ...]:
    """The turno's reopens, oldest first (prefetched by ``turno_with_everything``)."""
    events = getattr(turno, "reopen_events", None)
    if events is None:
        events = turno.events.filter(kind=TurnoEvent.REOPEN).select_related("user")
    return tuple(ReopenLine(e.at, user_name(e.user), e.reason) for e in events)


@dataclass(frozen=True)
class ClassificaRow:
    place: int
    player: str
    player_id: int | None
    score: Decimal
    series: str
    series_label: str
    turni: int
    absences: int
    scudetti: int
    titles: dict[str, int]
    average: Decimal | None
    previous_place: int | None
    previous_series: str
    series_movement: int = 0  # +1 promoted, -1 relegated at the last giornata
    # the game's own figures of the row (the standing columns a system declares)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def movement(self) -> int | None:
        """Places gained (+) or lost (-) since the previous giornata."""
        return None if self.previous_place is None else self.previous_place - self.place


def _series_move(rules, before: str, now: str) -> int:
    codes = rules.series_codes()
    if before not in codes or now not in codes or before == now:
        return 0
    return 1 if codes.index(now) < codes.index(before) else -1


def _average(score: Decimal, turni: int, absences: int) -> Decimal | None:
    n = turni + absences
    return (score / n).quantize(Decimal("0.01")) if n else None


def classifica(
    season: Season, *, top: int | None = None, player_id: int | None = None
) -> list[ClassificaRow]:
    """The stored Classifica Generale of a season, in display order (one query). With ``top``
    or ``player_id``, only the rows placed ``top`` or better and that player's row (a player's
    page shows those, not 300 rows): with places ranked 1, 2, 2, 4..., the first ``top`` rows of
    the whole table are always among them."""
    rules = season.ruleset if season.system.series_ladder else None
    rows = []
    labels: dict[str, str] = {}
    standings = Standing.objects.filter(season=season)
    if top is not None or player_id is not None:
        standings = standings.filter(Q(place__lte=top or 0) | Q(player_id=player_id))
    # plain values, no model instances: 300 members' rows in a few milliseconds
    for (
        place,
        name,
        player_id,
        score,
        series,
        turni,
        absences,
        scudetti,
        titles,
        previous_place,
        previous_series,
        extra,
    ) in standings.values_list(
        "place",
        "player__name",
        "player_id",
        "score",
        "series",
        "turni",
        "absences",
        "scudetti",
        "titles",
        "previous_place",
        "previous_series",
        "extra",
    ):
        if rules and series not in labels:
            labels[series] = rules.series_label(series)
        rows.append(
            ClassificaRow(
                place=place,
                player=name,
                player_id=player_id,
                score=score,
                series=series,
                series_label=labels[series] if rules else "",
                turni=turni,
                absences=absences,
                scudetti=scudetti,
                titles={c: titles.get(c, 0) for c in TITLE_ORDER},
                average=_average(score, turni, absences),
                previous_place=previous_place,
                previous_series=previous_series,
                series_movement=_series_move(rules, previous_series, series) if rules else 0,
                extra=extra or {},
            )
        )
    return rows


@dataclass(frozen=True)
class ClassificaSheet:
    """The Classifica Generale of a season as every document shows it, for every game: the
    columns its game system declares after place and player (:class:`Column`: key, label, kind)
    and one dict per row, in display order, holding every column's key (``place``, ``player``,
    ``player_id`` and ``movement`` besides). The page, the CSV and the scoreboard render it."""

    club: str
    season: str
    game: str
    system: str  # the rule-set code (a page's ``data-system``)
    columns: tuple[Column, ...]
    rows: tuple[dict[str, Any], ...]
    notes: tuple[str, ...]  # the legend's sentences (marked for translation)

    @property
    def score_key(self) -> str:
        """The key of the season score: the first column that is a score or a figure."""
        return next(c.key for c in self.columns if c.kind in ("score", "figure"))

    @property
    def legend(self) -> list[tuple[str, str]]:
        """The abbreviations of the headers, with what they stand for."""
        return [(c.short, c.label) for c in self.columns if c.short]


def sheet_row(row: ClassificaRow, series_order: dict[str, int]) -> dict[str, Any]:
    """A stored row of the Classifica as the sheet's dict: every stored figure by its key (the
    game's own figures over the shared columns of the same name)."""
    return {
        "place": row.place,
        "player": row.player,
        "player_id": row.player_id,
        "movement": row.movement,
        "score": row.score,
        "series": row.series,
        "series_label": row.series_label,
        "series_rank": series_order.get(row.series, 99),
        "turni": row.turni,
        "absences": row.absences,
        "scudetti": row.scudetti,
        "average": row.average,
        **{f"title_{code}": n for code, n in row.titles.items()},
        **row.extra,
    }


def classifica_sheet(season: Season, rows: list[ClassificaRow] | None = None) -> ClassificaSheet:
    """The one read model of a season's Classifica (one query: :func:`classifica`; or its
    ``rows`` when the caller has them)."""
    system = season.system
    rows = classifica(season) if rows is None else rows
    order = (
        {code: i for i, code in enumerate(season.ruleset.series_codes())}
        if system.series_ladder
        else {}
    )
    return ClassificaSheet(
        club=settings.CLUB_NAME,
        season=season.name,
        game=system.label,
        system=system.code,
        columns=tuple(system.classifica_columns()),
        rows=tuple(sheet_row(r, order) for r in rows),
        notes=tuple(system.classifica_notes),
    )


def classifica_dates(season: Season) -> tuple[dt.date | None, Turno | None]:
    """The date the Classifica is up to (its last giornata with a closed turno) and, when the
    season's most recent close was a back-dated turno that replayed it, that turno: one query
    (the most recent close, with the last closed giornata's date beside it)."""
    closed = Turno.objects.filter(season=season, status=Turno.CHIUSO)
    last = closed.order_by("-giornata__date").values("giornata__date")[:1]
    latest = (
        closed.filter(closed_at__isnull=False)
        .select_related("giornata")
        .annotate(last=Subquery(last))
        .order_by("-closed_at", "-pk")
        .first()
    )
    if latest is None:
        return last_closed_date(season), None
    return latest.last, latest if latest.giornata.date < latest.last else None


def classifica_as_of(season: Season, date: dt.date) -> list[ClassificaRow]:
    """The Classifica Generale as it stood after the giornata of ``date``."""
    rules = season.ruleset
    giornata = (
        Giornata.objects.filter(season=season, date__lte=date, lowest__isnull=False)
        .order_by("-date")
        .first()
    )
    state = Giornata.load_state(giornata.state_after) if giornata else season_start_state(season)
    ranked = rank_classifica(standings_aggregate(season, before=date + dt.timedelta(days=1)))
    return [
        ClassificaRow(
            place=place,
            player=row.player,
            player_id=None,
            score=row.score,
            series=state.series.get(row.player, rules.start_series),
            series_label=rules.series_label(state.series.get(row.player, rules.start_series)),
            turni=row.turni,
            absences=row.absences,
            scudetti=row.scudetti,
            titles={c: row.titles.get(c, 0) for c in TITLE_ORDER},
            average=_average(row.score, row.turni, row.absences),
            previous_place=None,
            previous_series="",
        )
        for place, row in ranked
    ]


def last_closed_date(season: Season) -> dt.date | None:
    return Turno.objects.filter(season=season, status=Turno.CHIUSO).aggregate(
        m=Max("giornata__date")
    )["m"]
