"""Import and export of whole seasons in the ``kingclub/v1`` format (SPEC §10)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from scoring.models import (
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
    Turno,
)
from scoring.rules import Problem, RuleViolation
from scoring.rules.interchange import (
    input_document,
    loads,
    parse_document,
    score_document,
    turno_to_input,
)
from scoring.selectors import turno_record, turno_with_everything
from scoring.services.season import season_create, season_recompute


def read_document(raw: bytes | str) -> Any:
    """Bytes of a JSON document, refused when too large, not UTF-8 or absurdly nested."""
    limit = settings.KINGCLUB_MAX_IMPORT_BYTES
    if len(raw) > limit:
        raise RuleViolation(
            [
                Problem(
                    "JSON_TOO_LARGE",
                    f"il documento è di {len(raw)} byte, oltre il limite di {limit}",
                )
            ]
        )
    return loads(raw)


@transaction.atomic
def season_import(*, data: Any, user=None, current: bool | None = None) -> Season:
    """Load a ``kingclub/v1`` document: all turni closed, all or nothing (every problem named)."""
    doc = parse_document(data)
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
    players = {p.name: p for p in Player.objects.filter(name__in=names)}
    Enrollment.objects.bulk_create([Enrollment(season=season, player=players[n]) for n in names])
    dates = sorted({t.date for t in doc.turni})
    Giornata.objects.bulk_create([Giornata(season=season, date=d) for d in dates])
    giornate = {g.date: g for g in Giornata.objects.filter(season=season)}

    now = timezone.now()
    order = sorted(range(len(doc.turni)), key=lambda i: (doc.turni[i].date, doc.turni[i].number))
    verbale = {i: k + 1 for k, i in enumerate(order)}
    turni = [
        Turno(
            season=season,
            giornata=giornate[t.date],
            number=t.number,
            first_dealer=players[t.first_dealer],
            status=Turno.CHIUSO,
            closed_at=now,
            closed_by=user if user is not None and user.is_authenticated else None,
            verbale_number=verbale[i],
            winner=players[scored.scores[i].order()[0]],
        )
        for i, t in enumerate(doc.turni)
    ]
    Turno.objects.bulk_create(turni, batch_size=500)
    if any(t.pk is None for t in turni):  # backends that do not return ids
        ids = {(t.giornata_id, t.number): t.pk for t in Turno.objects.filter(season=season)}
        for t in turni:
            t.pk = t.id = ids[(t.giornata_id, t.number)]

    seats, smazzate, penalita, sanctions = [], [], [], []
    pending_results = []
    for i, (t, score) in enumerate(zip(doc.turni, scored.scores, strict=True)):
        turno = turni[i]
        rank = {n: k + 1 for k, n in enumerate(t.tiebreak)}
        for pos, name in enumerate(t.players):
            seats.append(
                Seat(
                    turno=turno,
                    player=players[name],
                    position=pos,
                    total=score.totals[name],
                    penalty_total=score.penalties[name],
                    tiebreak_rank=rank.get(name),
                    place=score.places[name],
                    ratio=score.ratios[name],
                )
            )
        for sm in score.smazzate:
            obj = Smazzata(
                turno=turno,
                number=sm.number,
                game=sm.game,
                caller=players[sm.caller],
                dealer=players[sm.dealer],
                trump=sm.trump or "",
                forced=sm.forced,
                scazzata=sm.scazzata,
                cappotto=players[sm.cappotto] if sm.cappotto else None,
            )
            smazzate.append(obj)
            pending_results.append((obj, sm))
        penalita.extend(
            Penalita(
                turno=turno,
                player=players[p.player],
                points=p.points,
                article=p.article,
                reason=p.reason,
            )
            for p in t.penalties
        )
        sanctions.extend(
            Sanction(turno=turno, player=players[s.player], kind=s.kind, reason=s.reason)
            for s in t.sanctions
        )
    Seat.objects.bulk_create(seats, batch_size=1000)
    Smazzata.objects.bulk_create(smazzate, batch_size=1000)
    if any(s.pk is None for s in smazzate):
        ids = {(s.turno_id, s.number): s.pk for s in Smazzata.objects.filter(turno__season=season)}
        for s in smazzate:
            s.pk = s.id = ids[(s.turno_id, s.number)]
    Result.objects.bulk_create(
        (
            Result(smazzata=obj, player=players[name], count=sm.result[name], points=pts)
            for obj, sm in pending_results
            for name, pts in sm.points.items()
        ),
        batch_size=2000,
    )
    Penalita.objects.bulk_create(penalita, batch_size=1000)
    Sanction.objects.bulk_create(sanctions, batch_size=1000)
    SeasonEvent.objects.create(
        season=season,
        kind="import",
        reason=f"{len(turni)} turni importati",
        user=user if user is not None and user.is_authenticated else None,
    )
    season_recompute(season=season)
    return season


def season_export(*, season: Season, include_open: bool = False) -> dict[str, Any]:
    """The season as a ``kingclub/v1`` input document: its closed turni, in date order."""
    qs = Turno.objects.filter(season=season)
    if not include_open:
        qs = qs.filter(status=Turno.CHIUSO)
    turni = [
        turno_record(t) for t in turno_with_everything(qs.order_by("giornata__date", "number"))
    ]
    roster = list(
        Enrollment.objects.filter(season=season)
        .order_by("player__name")
        .values_list("player__name", flat=True)
    )
    return input_document(season.name, roster, turni, season.ruleset_code)


BACKUP_FORMAT = "kingclub/v1-backup"


def backup_document() -> dict[str, Any]:
    """Every member and every season (its own rule set, closed and open turni)."""
    seasons = []
    for season in Season.objects.order_by("created_at", "pk"):
        doc = season_export(season=season)
        doc["rules"] = season.rules
        doc["current"] = season.is_current
        doc["tables"] = {
            f"{t.giornata.date.isoformat()}#{t.number}": t.table
            for t in Turno.objects.filter(season=season).select_related("giornata")
            if t.table
        }
        open_qs = Turno.objects.filter(season=season, status=Turno.IN_CORSO)
        doc["open_turni"] = [
            turno_to_input(turno_record(t))
            for t in turno_with_everything(open_qs.order_by("giornata__date", "number"))
        ]
        seasons.append(doc)
    return {
        "format": BACKUP_FORMAT,
        "members": [{"name": p.name, "active": p.active} for p in Player.objects.order_by("name")],
        "seasons": seasons,
    }


def database_is_empty() -> bool:
    return not (Season.objects.exists() or Player.objects.exists())


@transaction.atomic
def backup_restore(*, data: Any, force: bool = False, user=None) -> list[Season]:
    """Restore a backup; refuses a non-empty database unless ``force`` (which wipes it)."""
    from scoring.services.turni import penalita_add, sanction_add, smazzata_record, turno_start

    if not isinstance(data, dict) or data.get("format") != BACKUP_FORMAT:
        raise RuleViolation([Problem("FORMAT", f"non è un backup {BACKUP_FORMAT}")])
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
        _wipe()
    members = data.get("members") or []
    Player.objects.bulk_create(
        [Player(name=m["name"], active=bool(m.get("active", True))) for m in members]
    )
    restored = []
    for doc in data.get("seasons") or []:
        season = season_import(data=doc, user=user, current=bool(doc.get("current")))
        for key, table in (doc.get("tables") or {}).items():
            date, number = key.split("#")
            Turno.objects.filter(season=season, giornata__date=date, number=int(number)).update(
                table=table
            )
        for t in doc.get("open_turni") or []:
            turno = turno_start(
                season=season,
                date=dt.date.fromisoformat(t["date"]),
                players=t["players"],
                first_dealer=t["first_dealer"],
                number=t["number"],
                table=(doc.get("tables") or {}).get(f"{t['date']}#{t['number']}", ""),
                user=user,
            )
            for k, sm in enumerate(t["smazzate"], start=1):
                smazzata_record(
                    turno=turno,
                    game=sm["game"],
                    caller=sm["caller"],
                    counts=sm["result"],
                    trump=sm.get("trump"),
                    number=k,
                    user=user,
                )
            for p in t.get("penalties") or []:
                penalita_add(
                    turno=turno,
                    player=p["player"],
                    points=p["points"],
                    article=p["article"],
                    reason=p.get("reason", ""),
                    user=user,
                )
            for s in t.get("sanctions") or []:
                sanction_add(turno=turno, player=s["player"], reason=s["reason"], user=user)
        restored.append(season)
    return restored


def _wipe() -> None:
    from scoring.models import (
        Absence,
        Standing,
        TitleAward,
        TurnoEvent,
    )

    for model in (Absence, Standing, TitleAward, TurnoEvent, Result, Penalita, Sanction):
        model.objects.all().delete()
    Smazzata.objects.all().delete()
    Seat.objects.all().delete()
    Turno.objects.all().delete()
    Giornata.objects.all().delete()
    Enrollment.objects.all().delete()
    SeasonEvent.objects.all().delete()
    Season.objects.all().delete()
    Player.objects.all().delete()
