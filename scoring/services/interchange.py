"""Import and export of whole seasons in the ``kingclub/v1`` format (SPEC §10)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
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
from scoring.rules import Problem, RuleViolation, SeasonState
from scoring.rules.interchange import (
    FORMAT,
    MAX_TURNO_NUMBER,
    ScoredDocument,
    SeasonDocument,
    input_document,
    loads,
    parse_document,
    score_document,
    turno_to_input,
)
from scoring.rules.systems import is_generic, system_of_document
from scoring.rules.text import TextError, clean_text
from scoring.selectors import turno_record, turno_with_everything
from scoring.services.bulk import insert_rows
from scoring.services.history import history_for_import
from scoring.services.jsonstream import Stream, batched, materialize
from scoring.services.season import season_create, standings_refresh


def read_document(raw: bytes | str, limit: int | None = -1) -> Any:
    """Bytes of a JSON document, refused when too large, not UTF-8 or absurdly nested.

    ``limit`` is in bytes: by default ``KINGCLUB_MAX_IMPORT_BYTES``; None for no limit (a
    backup, which the administrator restores from the shell, may be larger than an import).
    """
    if limit == -1:
        limit = settings.KINGCLUB_MAX_IMPORT_BYTES
    if limit is not None and len(raw) > limit:
        raise RuleViolation(
            [
                Problem(
                    "JSON_TOO_LARGE",
                    f"il documento è di {len(raw)} byte, oltre il limite di {limit}",
                )
            ]
        )
    return loads(raw)


def column_problems(doc: SeasonDocument) -> list[Problem]:
    """Every text of the document fits its column, on every database (SQLite checks none)."""
    problems: list[Problem] = []
    seen: set[tuple[str, str]] = set()

    def check(model, name: str, value: str, where: str, turno: str | None = None) -> None:
        limit = model._meta.get_field(name).max_length
        if len(value) > limit and (where, value) not in seen:
            seen.add((where, value))
            problems.append(
                Problem(
                    "TEXT_TOO_LONG",
                    f"{where}: al massimo {limit} caratteri (sono {len(value)})",
                    turno=turno,
                    field=where,
                )
            )

    check(Season, "name", doc.season, "season")
    check(Season, "ruleset_code", doc.ruleset_code, "ruleset")
    for name in doc.roster:
        check(Player, "name", name, "roster")
    for t in doc.turni:
        for name in t.players:
            check(Player, "name", name, "players", t.label)
        for p in t.penalties:
            check(Penalita, "article", p.article, "penalties.article", t.label)
            check(Penalita, "reason", p.reason, "penalties.reason", t.label)
        for s in t.sanctions:
            check(Sanction, "kind", s.kind, "sanctions.kind", t.label)
            check(Sanction, "reason", s.reason, "sanctions.reason", t.label)
    return problems


IMPORT_CHUNK = 500  # turni written per round: bounds the memory of a large import


@transaction.atomic
def season_import(*, data: Any, user=None, current: bool | None = None) -> Season:
    """Load a ``kingclub/v1`` document: all turni closed, all or nothing (every problem named).

    The engine scores the document once (turni and the whole season: series, titles, league
    points, absences) and that result is stored as it is, what :func:`season_recompute` would
    write, without replaying the season a second time.
    """
    if isinstance(data, dict) and is_generic(system_of_document(data)):
        from scoring.services.games import game_season_import

        return game_season_import(data=data, user=user, current=bool(current))
    doc = parse_document(data)
    problems = column_problems(doc)
    if problems:
        raise RuleViolation(problems)
    scored = score_document(doc)  # raises RuleViolation listing every problem
    name = doc.season or "stagione importata"
    if Season.objects.filter(name=name).exists():
        raise RuleViolation(
            [Problem("SEASON_EXISTS", f"la stagione {name!r} esiste già: importazione annullata")]
        )
    if current is None:
        current = not Season.objects.filter(is_current=True).exists()
    season = season_create(
        name=name, ruleset_code=doc.ruleset_code, rules=doc.rules.to_dict(), current=current
    )
    names = list(dict.fromkeys([*doc.roster, *(p for t in doc.turni for p in t.players)]))
    existing = {p.name: p for p in Player.objects.filter(name__in=names)}
    Player.objects.bulk_create([Player(name=n) for n in names if n not in existing])
    players = {p.name: p.pk for p in Player.objects.filter(name__in=names)}
    Enrollment.objects.bulk_create([Enrollment(season=season, player_id=players[n]) for n in names])
    days = {d.date: d for d in scored.season.giornate}
    Giornata.objects.bulk_create(
        [
            Giornata(
                season=season,
                date=d,
                lowest=days[d].lowest,
                state_after=(days[d].state_after or SeasonState()).to_dict(),
            )
            for d in sorted(days)
        ]
    )
    giornate = {g.date: g for g in Giornata.objects.filter(season=season)}

    order = sorted(range(len(doc.turni)), key=lambda i: (doc.turni[i].date, doc.turni[i].number))
    verbale = {i: k + 1 for k, i in enumerate(order)}
    closed_by = user if user is not None and user.is_authenticated else None
    now = timezone.now()
    for lo in range(0, len(doc.turni), IMPORT_CHUNK):
        _import_turni(
            season,
            scored,
            range(lo, min(lo + IMPORT_CHUNK, len(doc.turni))),
            players=players,
            giornate=giornate,
            verbale=verbale,
            closed_by=closed_by,
            now=now,
        )
    insert_rows(
        Absence,
        ["giornata", "season", "player", "league_points"],
        (
            (giornate[day.date].pk, season.pk, players[p], lp)
            for day in scored.season.giornate
            for p, lp in day.absences.items()
        ),
    )
    SeasonEvent.objects.create(
        season=season,
        kind="import",
        reason=f"{len(doc.turni)} turni importati",
        user=closed_by,
    )
    standings_refresh(season=season)
    return season


def _import_turni(
    season: Season,
    scored: ScoredDocument,
    indexes: range,
    *,
    players: dict[str, int],
    giornate: dict[dt.date, Giornata],
    verbale: dict[int, int],
    closed_by,
    now: dt.datetime,
) -> None:
    """Write the turni ``indexes`` of a scored document: turni, seats with the season's
    outcome, smazzate, results, penalità, sanctions, titles."""
    doc, rules = scored.doc, scored.doc.rules
    turni = [
        Turno(
            season=season,
            giornata=giornate[doc.turni[i].date],
            number=doc.turni[i].number,
            first_dealer_id=players[doc.turni[i].first_dealer],
            status=Turno.CHIUSO,
            closed_at=now,
            closed_by=closed_by,
            verbale_number=verbale[i],
            winner_id=players[scored.scores[i].order()[0]],
        )
        for i in indexes
    ]
    Turno.objects.bulk_create(turni, batch_size=500)
    if any(t.pk is None for t in turni):  # backends that do not return ids
        ids = {
            (t.giornata_id, t.number): t.pk
            for t in Turno.objects.filter(season=season, pk__gt=0).only("giornata", "number")
        }
        for t in turni:
            t.pk = t.id = ids[(t.giornata_id, t.number)]
    turno_ids = [t.pk for t in turni]

    seats, smazzate, penalita, sanctions = [], [], [], []
    for i, turno in zip(indexes, turni, strict=True):
        t, score, outcome = doc.turni[i], scored.scores[i], scored.season.tables[i]
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
                now,
            )
            for sm in score.smazzate
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
            "recorded_at",
        ],
        smazzate,
    )
    smazzata_ids = {
        (turno_id, number): pk
        for turno_id, number, pk in Smazzata.objects.filter(turno_id__in=turno_ids).values_list(
            "turno_id", "number", "pk"
        )
    }
    insert_rows(
        Result,
        ["smazzata", "player", "count", "points"],
        (
            (smazzata_ids[(turno.pk, sm.number)], players[name], sm.result[name], pts)
            for i, turno in zip(indexes, turni, strict=True)
            for sm in scored.scores[i].smazzate
            for name, pts in sm.points.items()
        ),
    )
    seat_ids = {
        (turno_id, player_id): pk
        for turno_id, player_id, pk in Seat.objects.filter(turno_id__in=turno_ids).values_list(
            "turno_id", "player_id", "pk"
        )
    }
    insert_rows(
        TitleAward,
        ["seat", "season", "player", "code", "value"],
        (
            (
                seat_ids[(turno.pk, players[name])],
                season.pk,
                players[name],
                code,
                rules.title_value(code),
            )
            for i, turno in zip(indexes, turni, strict=True)
            for name, codes in scored.season.tables[i].titles.items()
            for code in codes
        ),
    )
    Penalita.objects.bulk_create(penalita, batch_size=1000)
    Sanction.objects.bulk_create(sanctions, batch_size=1000)
    history_for_import(turno_ids, user=closed_by, when=now)


EXPORT_BATCH = 200  # turni loaded at a time by the streaming export


def _turni_in_order(season: Season, include_open: bool) -> QuerySet[Turno]:
    qs = Turno.objects.filter(season=season)
    if not include_open:
        qs = qs.filter(status=Turno.CHIUSO)
    return qs.order_by("giornata__date", "number", "pk")


def turni_in_batches(
    season: Season, include_open: bool, load: Callable[[QuerySet[Turno]], QuerySet[Turno]]
) -> Iterator[Turno]:
    """The season's turni in date order, loaded :data:`EXPORT_BATCH` at a time with ``load``
    (which adds the prefetches): memory holds one batch, whatever the season's size."""
    ids = _turni_in_order(season, include_open).values_list("pk", flat=True)
    for chunk in batched(ids.iterator(chunk_size=2000), EXPORT_BATCH):
        batch = Turno.objects.filter(pk__in=chunk).order_by("giornata__date", "number", "pk")
        yield from load(batch)


def season_export_stream(*, season: Season, include_open: bool = False) -> dict[str, Any]:
    """The season as a ``kingclub/v1`` input document whose turni are a :class:`Stream` read
    from the database batch by batch (write it with :func:`jsonstream.write_json`)."""
    if season.is_generic:
        from scoring.services.games import game_season_export_stream

        return game_season_export_stream(season=season, include_open=include_open)
    roster = list(
        Enrollment.objects.filter(season=season)
        .order_by("player__name")
        .values_list("player__name", flat=True)
    )
    doc = input_document(season.name, roster, [], season.ruleset_code)
    turni = turni_in_batches(season, include_open, turno_with_everything)
    doc["turni"] = Stream(turno_to_input(turno_record(t)) for t in turni)
    return doc


def season_export(*, season: Season, include_open: bool = False) -> dict[str, Any]:
    """The season as a ``kingclub/v1`` input document: its closed turni, in date order."""
    return materialize(season_export_stream(season=season, include_open=include_open))


LEGACY_BACKUP_FORMAT = "kingclub/v1-backup"  # written until 2026-11: seasons as kingclub/v1


@transaction.atomic
def legacy_backup_restore(*, data: dict, force: bool = False, user=None) -> list[Season]:
    """Restore a ``kingclub/v1-backup`` (an older backup: its seasons are imported again)."""
    from scoring.services.backup import database_is_empty, wipe_club
    from scoring.services.turni import penalita_add, sanction_add, smazzata_record, turno_start

    if not database_is_empty():
        if not force:
            raise RuleViolation(
                [
                    Problem(
                        "DATABASE_NOT_EMPTY",
                        "il database contiene già dati: il ripristino li sovrascriverebbe "
                        "(usare --force per cancellarli)",
                    )
                ]
            )
        wipe_club()
    members, seasons = _legacy_members(data.get("members")), data.get("seasons") or []
    if not isinstance(seasons, list) or not all(isinstance(d, dict) for d in seasons):
        raise RuleViolation([Problem("FORMAT", "seasons: deve essere una lista di stagioni")])
    Player.objects.bulk_create([Player(name=n, active=a) for n, a in members])
    restored = []
    for doc in seasons:
        season = season_import(data=doc, user=user, current=bool(doc.get("current")))
        tables = _legacy_tables(doc.get("tables"))
        for (date, number), table in tables.items():
            Turno.objects.filter(season=season, giornata__date=date, number=number).update(
                table=table
            )
        open_doc = {"format": FORMAT, "rules": season.rules, "turni": doc.get("open_turni") or []}
        for t in parse_document(open_doc).turni:
            turno = turno_start(
                season=season,
                date=t.date,
                players=t.players,
                first_dealer=t.first_dealer,
                number=t.number,
                table=tables.get((t.date, t.number), ""),
                user=user,
            )
            for k, sm in enumerate(t.smazzate, start=1):
                smazzata_record(
                    turno=turno,
                    game=sm.game,
                    caller=sm.caller,
                    counts=sm.result,
                    trump=sm.trump,
                    number=k,
                    user=user,
                )
            for p in t.penalties:
                penalita_add(
                    turno=turno,
                    player=p.player,
                    points=p.points,
                    article=p.article,
                    reason=p.reason,
                    user=user,
                )
            for sa in t.sanctions:
                sanction_add(turno=turno, player=sa.player, reason=sa.reason, user=user)
        restored.append(season)
    return restored


def _legacy_members(raw: Any) -> list[tuple[str, bool]]:
    """The members of an older backup: (name, active), each name as the club stores it."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise RuleViolation([Problem("FORMAT", "members: deve essere una lista")])
    members, problems = [], []
    for i, m in enumerate(raw):
        where = f"members[{i}]"
        if not isinstance(m, dict) or not isinstance(m.get("active", True), bool):
            problems.append(Problem("FORMAT", f"{where}: servono name (testo) e active (bool)"))
            continue
        try:
            members.append((clean_text(m.get("name"), max_length=60), m.get("active", True)))
        except TextError as exc:
            problems.append(Problem("TEXT_INVALID", f"{where}.name: {exc}", field="members"))
    names = [n for n, _ in members]
    if len(set(names)) != len(names):
        problems.append(Problem("FORMAT", "members: nomi ripetuti"))
    if problems:
        raise RuleViolation(problems)
    return members


def _legacy_tables(raw: Any) -> dict[tuple[dt.date, int], str]:
    """The tables of an older backup's turni: ``{"2026-11-20#1": "Tavolo 2"}``."""
    if raw is None:
        return {}
    out, problems = {}, []
    for key, table in raw.items() if isinstance(raw, dict) else [("tables", None)]:
        date, _, number = key.partition("#")
        try:
            if not (number.isdigit() and 1 <= int(number) <= MAX_TURNO_NUMBER):
                raise ValueError(f"numero di turno non valido: {number!r:.20}")
            out[(dt.date.fromisoformat(date), int(number))] = clean_text(
                table, max_length=40, required=False
            )
        except (TextError, ValueError) as exc:
            problems.append(Problem("FORMAT", f"tables[{key!r:.40}]: {exc}", field="tables"))
    if problems:
        raise RuleViolation(problems)
    return out
