"""Import and export of whole seasons in the ``kingclub/v1`` format (SPEC §10)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.models import (
    Absence,
    Enrollment,
    Giornata,
    Penalita,
    Player,
    Result,
    Sanction,
    Season,
    SeasonEvent,
    Seat,
    Smazzata,
    TitleAward,
    Turno,
)
from scoring.records import record_seats
from scoring.rules.caf import SeasonState
from scoring.rules.caf.interchange import (
    SeasonScorer,
    loads,
    parse_header,
    parse_turno,
    smazzata_to_input,
)
from scoring.rules.caf.records import TableOutcome, TurnoRecord, TurnoScore
from scoring.rules.caf.ruleset import RuleSet
from scoring.rules.caf.turno import score_turno
from scoring.rules.problems import (
    NOT_AN_OBJECT,
    TURNI_NOT_A_LIST,
    Problem,
    RuleViolation,
    gettext_noop,
)
from scoring.rules.systems import system_of_document
from scoring.services.bulk import ids_by_name, insert_rows, pks_by
from scoring.services.history import history_for_import
from scoring.services.jsonread import DEFAULT, DocumentFile, Limits, read_json
from scoring.services.jsonstream import batched, materialize
from scoring.services.recording import ledger_for, ledger_of
from scoring.services.season import season_create, standings_refresh


def read_document(
    raw: bytes | str, limit: int | None = DEFAULT, max_values: int | None = DEFAULT
) -> Any:
    """Bytes of a JSON document, refused when too large, not UTF-8, absurdly nested or made of
    too many values (:func:`~scoring.services.jsonread.read_json`, checked as it streams).

    ``limit`` is in bytes: by default ``KINGCLUB_MAX_IMPORT_BYTES``; ``max_values`` by default
    ``KINGCLUB_MAX_JSON_VALUES``; None for no limit (a backup, which the administrator restores
    from the shell, may be larger than an import). The depth is always limited.
    """
    return read_json(raw, Limits.of(max_bytes=limit, max_values=max_values))


class _Columns:
    """Every text of the document fits its column, on every database (SQLite checks none)."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.seen: set[tuple[str, str]] = set()

    def check(self, model, name: str, value: str, where: str, turno: str | None = None) -> None:
        limit = model._meta.get_field(name).max_length
        if len(value) > limit and (where, value) not in self.seen:
            self.seen.add((where, value))
            self.problems.append(
                Problem.said(
                    "TEXT_TOO_LONG",
                    gettext_noop("%(where)s: al massimo %(limit)s caratteri (sono %(length)s)"),
                    {"where": where, "limit": limit, "length": len(value)},
                    turno=turno,
                    field=where,
                )
            )

    def header(self, season: str, ruleset_code: str, roster: list[str]) -> None:
        self.check(Season, "name", season, "season")
        self.check(Season, "ruleset_code", ruleset_code, "ruleset")
        for name in roster:
            self.check(Player, "name", name, "roster")

    def turno(self, t: TurnoRecord) -> None:
        for name in t.players:
            self.check(Player, "name", name, "players", t.label)
        for p in t.penalties:
            self.check(Penalita, "article", p.article, "penalties.article", t.label)
            self.check(Penalita, "reason", p.reason, "penalties.reason", t.label)
        for s in t.sanctions:
            self.check(Sanction, "kind", s.kind, "sanctions.kind", t.label)
            self.check(Sanction, "reason", s.reason, "sanctions.reason", t.label)


IMPORT_CHUNK = 200  # turni written per round: bounds the memory of a large import

TurniSource = Callable[[], Iterable[Any]]
"""Opens the document's turni afresh at each call (a list, or a file read item by item)."""


def season_import(*, data: Any, user=None, current: bool | None = None) -> Season:
    """Load a ``kingclub/v1`` document: all turni closed, all or nothing (every problem named)."""
    ledger = ledger_for(system_of_document(data))
    if isinstance(data, dict) and not ledger.streams_import:
        return ledger.import_document(data, user=user, current=bool(current))
    if not isinstance(data, dict):
        raise RuleViolation([NOT_AN_OBJECT])
    turni = data.get("turni")
    return season_import_stream(
        header=data,
        turni=lambda: turni if isinstance(turni, list) else (),
        turni_is_list=isinstance(turni, list),
        user=user,
        current=current,
    )


def season_import_file(
    path: Path, *, limit: int | None = None, user=None, current: bool | None = None
) -> Season:
    """Load a ``kingclub/v1`` document from a file, read turno by turno (:class:`DocumentFile`):
    the memory does not grow with the season. A ledger that does not stream its import
    (:attr:`Ledger.streams_import`) reads it whole.
    """
    try:
        document = DocumentFile(path, Limits.of(max_bytes=limit))
        header = document.header()
        if not ledger_for(system_of_document(header)).streams_import:
            return season_import(data=loads(path.read_bytes()), user=user, current=current)
        return season_import_stream(
            header=header,
            turni=document.turni,
            turni_is_list=document.has_turni_list,
            user=user,
            current=current,
        )
    except RuleViolation as exc:
        if not any(p.code == "JSON_SYNTAX" for p in exc.problems):
            raise
    # The streaming parser refuses what is not JSON, and also what Python's own reads (an
    # integer beyond 64 bits): the whole document, read once, names the exact problem.
    return season_import(data=loads(path.read_bytes()), user=user, current=current)


@transaction.atomic
def season_import_stream(
    *,
    header: dict[str, Any],
    turni: TurniSource,
    turni_is_list: bool = True,
    user=None,
    current: bool | None = None,
) -> Season:
    """Load a ``kingclub/v1`` King C.A.F. document whose turni are read twice from ``turni``,
    one at a time: memory holds the season's light outcome, not its smazzate.

    The first reading parses and scores every turno and keeps only what the season needs (the
    order, ratios and sanctions of each table); the whole season (series, titles, league points,
    absences) is played once from those. The second reading scores each turno again and writes
    it with its season outcome, :data:`IMPORT_CHUNK` turni at a time, in this one transaction:
    a problem anywhere writes nothing, and every problem is named.
    """
    problems: list[Problem] = []
    code, name, roster, rules = parse_header(header, problems)
    if not turni_is_list:
        problems.append(TURNI_NOT_A_LIST)
    if rules is None:
        raise RuleViolation(problems)
    columns = _Columns()
    columns.header(name, code, roster)
    scorer = SeasonScorer(rules)
    names = dict.fromkeys(roster)
    days: dict[dt.date, str] = {}  # each giornata's first turno, for the calendar's check
    for i, raw in enumerate(turni(), start=1):
        before = len(problems)
        t = parse_turno(raw, i, problems)
        if t is None or len(problems) > before:
            continue
        if t.date is not None:
            days.setdefault(t.date, t.label)
        columns.turno(t)
        if problems or columns.problems:
            continue  # the document is refused for its shape: its scores would not be shown
        scorer.add(t)
        names.update(dict.fromkeys(t.players))
    # the dates within the rule set's window, as if the turni were started in date order
    calendar = system_of_document(header).calendar(rules.raw)
    problems.extend(calendar.dates_problems(days.items(), today=timezone.localdate()))
    for found in (problems, columns.problems):
        if found:
            raise RuleViolation(found)
    outcome = scorer.play(roster)
    tables = scorer.tables

    name = name or "stagione importata"
    if Season.objects.filter(name=name).exists():
        raise RuleViolation(
            [
                Problem.said(
                    "SEASON_EXISTS",
                    gettext_noop("la stagione %(name)s esiste già: importazione annullata"),
                    {"name": repr(name)},
                )
            ]
        )
    if current is None:
        current = not Season.objects.filter(is_current=True).exists()
    season = season_create(name=name, ruleset_code=code, rules=rules.to_dict(), current=current)
    players = ids_by_name(Player, list(names))
    Enrollment.objects.bulk_create(
        [Enrollment(season=season, player_id=players[n]) for n in names], batch_size=1000
    )
    Giornata.objects.bulk_create(
        [
            Giornata(
                season=season,
                date=day.date,
                lowest=day.lowest,
                state_after=Giornata.dump_state(day.state_after or SeasonState(), players),
            )
            for day in sorted(outcome.giornate, key=lambda day: day.date)
        ]
    )
    giornate = dict(Giornata.objects.filter(season=season).values_list("date", "pk"))
    insert_rows(
        Absence,
        ["giornata", "season", "player", "league_points"],
        (
            (giornate[day.date], season.pk, players[p], lp)
            for day in outcome.giornate
            for p, lp in day.absences.items()
        ),
    )
    # the Verbali numbered by date; of the season's outcome only the tables' are read from here
    order = sorted(range(len(tables)), key=[(t.date, t.number) for t in tables].__getitem__)
    verbale = [0] * len(tables)
    for n, k in enumerate(order, start=1):
        verbale[k] = n
    outcomes = outcome.tables
    del scorer, tables, order, outcome  # the second reading's memory, whatever the season's size
    closed_by = user if user is not None and user.is_authenticated else None
    written = _Written(season, rules, players, giornate, closed_by, timezone.now())
    rescored = (
        (k, t, score_turno(rules, t, require_complete=True))
        for k, t in enumerate(parse_turno(raw, i, []) for i, raw in enumerate(turni(), start=1))
    )
    for chunk in batched(rescored, IMPORT_CHUNK):
        written.turni([(t, score, outcomes[k], verbale[k]) for k, t, score in chunk])
    SeasonEvent.objects.create(
        season=season,
        kind="import",
        reason=f"{len(verbale)} turni importati",
        user=closed_by,
    )
    standings_refresh(season=season)
    return season


class _Written:
    """Writes scored turni of one imported season, a chunk at a time."""

    def __init__(
        self,
        season: Season,
        rules: RuleSet,
        players: dict[str, int],
        giornate: dict[dt.date, int],
        closed_by,
        now: dt.datetime,
    ) -> None:
        self.season, self.rules, self.players = season, rules, players
        self.giornate, self.closed_by, self.now = giornate, closed_by, now

    def turni(self, chunk: list[tuple[TurnoRecord, TurnoScore, TableOutcome, int]]) -> None:
        """Turni, seats with the season's outcome, smazzate, results, penalità, sanctions,
        titles."""
        players, now, system = self.players, self.now, self.season.system
        turni = [
            Turno(
                season=self.season,
                giornata_id=self.giornate[t.date],
                number=t.number,
                first_dealer_id=players[t.first_dealer],
                status=Turno.CHIUSO,
                closed_at=now,
                closed_by=self.closed_by,
                verbale_number=number,
                winner_id=players[score.order()[0]],
            )
            for t, score, _, number in chunk
        ]
        Turno.objects.bulk_create(turni, batch_size=500)
        if any(t.pk is None for t in turni):  # backends that do not return ids
            ids = pks_by(Turno.objects.filter(season=self.season), "giornata_id", "number")
            for t in turni:
                t.pk = t.id = ids[(t.giornata_id, t.number)]
        turno_ids = [t.pk for t in turni]

        seats, smazzate, penalita, sanctions = [], [], [], []
        for turno, (t, score, outcome, _) in zip(turni, chunk, strict=True):
            rank = {n: k + 1 for k, n in enumerate(t.tiebreak)}
            seats.extend(
                (
                    turno.pk,
                    players[name],
                    pos,
                    score.totals[name],
                    score.penalties[name],
                    rank.get(name),
                    score.places[name],
                    score.ratios[name],
                    outcome.series_before[name],
                    outcome.series_after[name],
                    list(outcome.titles[name]),
                    outcome.league_points[name],
                )
                for pos, name in enumerate(t.players)
            )
            seat_of = dict(enumerate(t.players))
            smazzate.extend(
                (
                    turno.pk,
                    sm.number,
                    sm.game,
                    players[sm.caller],
                    players[sm.dealer],
                    sm.trump or "",
                    sm.forced,
                    sm.scazzata,
                    players[sm.cappotto] if sm.cappotto else None,
                    record_seats(system, smazzata_to_input(recorded), seat_of),
                    now,
                )
                for sm, recorded in zip(score.smazzate, t.smazzate, strict=True)
            )
            penalita.extend(
                Penalita(
                    turno=turno,
                    player_id=players[p.player],
                    points=p.points,
                    article=p.article,
                    reason=p.reason,
                )
                for p in t.penalties
            )
            sanctions.extend(
                Sanction(turno=turno, player_id=players[s.player], kind=s.kind, reason=s.reason)
                for s in t.sanctions
            )
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
                "ratio",
                "series_before",
                "series_after",
                "titles",
                "league_points",
            ],
            seats,
        )
        insert_rows(
            Smazzata,
            [
                "turno",
                "number",
                "game",
                "caller",
                "dealer",
                "trump",
                "forced",
                "scazzata",
                "cappotto",
                "record",
                "recorded_at",
            ],
            smazzate,
        )
        smazzata_ids = pks_by(Smazzata.objects.filter(turno_id__in=turno_ids), "turno_id", "number")
        insert_rows(
            Result,
            ["smazzata", "player", "points"],
            (
                (smazzata_ids[(turno.pk, sm.number)], players[name], pts)
                for turno, (_, score, _, _) in zip(turni, chunk, strict=True)
                for sm in score.smazzate
                for name, pts in sm.points.items()
            ),
        )
        seat_ids = pks_by(Seat.objects.filter(turno_id__in=turno_ids), "turno_id", "player_id")
        insert_rows(
            TitleAward,
            ["seat", "season", "player", "code", "value"],
            (
                (
                    seat_ids[(turno.pk, players[name])],
                    self.season.pk,
                    players[name],
                    code,
                    self.rules.title_value(code),
                )
                for turno, (_, _, outcome, _) in zip(turni, chunk, strict=True)
                for name, codes in outcome.titles.items()
                for code in codes
            ),
        )
        Penalita.objects.bulk_create(penalita, batch_size=1000)
        Sanction.objects.bulk_create(sanctions, batch_size=1000)
        history_for_import(turno_ids, user=self.closed_by, when=now)


def season_export_stream(*, season: Season, include_open: bool = False) -> dict[str, Any]:
    """The season as a ``kingclub/v1`` input document whose turni are a :class:`Stream` read
    from the database batch by batch (write it with :func:`jsonstream.write_json`)."""
    return ledger_of(season).export_stream(season, include_open)


def season_export(*, season: Season, include_open: bool = False) -> dict[str, Any]:
    """The season as a ``kingclub/v1`` input document: its closed turni, in date order."""
    return materialize(season_export_stream(season=season, include_open=include_open))
