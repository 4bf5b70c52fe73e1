"""Season-wide writes: create a season, enrol members, edit its rule set, and recompute
series, titles, league points, absences and the stored Classifica Generale with the engine."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Count, Sum

from scoring.models import (
    Absence,
    Enrollment,
    Giornata,
    Player,
    Season,
    SeasonEvent,
    Seat,
    Standing,
    TitleAward,
    Turno,
)
from scoring.rules import (
    Problem,
    RuleSet,
    RuleSetError,
    RuleViolation,
    SeasonState,
    TableResult,
    play_giornate,
    rank_classifica,
)
from scoring.rules import Sanction as SanctionRecord
from scoring.rules import (
    Standing as StandingRecord,
)
from scoring.rules.ruleset import default_ruleset_dict, get_ruleset


@transaction.atomic
def season_create(
    *, name: str, ruleset_code: str = "caf", rules: dict | None = None, current: bool = True
) -> Season:
    """A new season with a copy of the rule set (the club may edit it before the first close)."""
    name = (name or "").strip()
    if not name:
        raise RuleViolation([Problem("SEASON_NAME", "il nome della stagione è obbligatorio")])
    if Season.objects.filter(name=name).exists():
        raise RuleViolation([Problem("SEASON_EXISTS", f"la stagione {name} esiste già")])
    if rules is None:
        try:
            rules = get_ruleset(ruleset_code).to_dict()
        except RuleSetError:
            rules = default_ruleset_dict()
    else:
        _validate_rules(rules)
    if current:
        Season.objects.filter(is_current=True).update(is_current=False)
    return Season.objects.create(
        name=name, ruleset_code=ruleset_code, rules=rules, is_current=current
    )


def _validate_rules(rules: dict) -> RuleSet:
    try:
        return RuleSet.from_dict(rules)
    except RuleSetError as exc:
        raise RuleViolation(
            [Problem("RULESET_INVALID", f"regolamento non valido: {exc}")]
        ) from None


@transaction.atomic
def season_rules_update(
    *, season: Season, rules: dict[str, Any], user=None, reason: str = "", recompute: bool = False
) -> Season:
    """Edit the season's rule set: free before the first close; afterwards only with an
    explicit recompute, recorded in the audit trail (SPEC §9)."""
    _validate_rules(rules)
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season.rules_locked and not recompute:
        raise RuleViolation(
            [
                Problem(
                    "RULESET_LOCKED",
                    "la stagione ha già turni chiusi: il regolamento si cambia solo con un "
                    "ricalcolo esplicito",
                )
            ]
        )
    season.rules = rules
    season.save(update_fields=["rules"])
    season.__dict__.pop("ruleset", None)
    SeasonEvent.objects.create(
        season=season,
        kind="rules_update",
        reason=reason,
        user=user if user is not None and user.is_authenticated else None,
    )
    if recompute:
        season_rescore(season=season, user=user, reason=reason or "cambio del regolamento")
    return season


@transaction.atomic
def season_rescore(*, season: Season, user=None, reason: str = "") -> None:
    """Score every turno again with the season's rule set, then recompute the season."""
    from scoring.services.turni import rescore_turno

    for turno in Turno.objects.filter(season=season).order_by("giornata__date", "number"):
        rescore_turno(turno=turno)
    SeasonEvent.objects.create(
        season=season,
        kind="recompute",
        reason=reason,
        user=user if user is not None and user.is_authenticated else None,
    )
    season_recompute(season=season)


@transaction.atomic
def enrollment_add(*, season: Season, player: Player) -> Enrollment:
    """Enrol a member: a late joiner takes the lowest score of every earlier giornata."""
    enrollment, created = Enrollment.objects.get_or_create(season=season, player=player)
    if created and Giornata.objects.filter(season=season).exists():
        season_recompute(season=season)
    return enrollment


def _tables(turni: list[Turno]) -> list[TableResult]:
    tables = []
    for t in turni:
        seats = sorted(t.seats.all(), key=lambda s: s.place)
        tables.append(
            TableResult(
                key=t.pk,
                date=t.giornata.date,
                number=t.number,
                order=tuple(s.player.name for s in seats),
                ratios={s.player.name: s.ratio for s in seats},
                sanctions=tuple(
                    SanctionRecord(s.player.name, s.kind, s.reason) for s in t.sanctions.all()
                ),
            )
        )
    return tables


@transaction.atomic
def season_recompute(*, season: Season, since: dt.date | None = None) -> None:
    """Replay the season's giornate from ``since`` (all when None) with the engine.

    Series and Scudetto streaks chain through the giornate, so everything from that giornata
    on is rewritten: seats' series, titles and league points, absences, giornate, standings.
    """
    rules = season.ruleset
    giornate = list(Giornata.objects.filter(season=season).order_by("date"))
    if since is not None:
        earlier = [g for g in giornate if g.date < since]
        giornate = [g for g in giornate if g.date >= since]
        start = SeasonState.from_dict(earlier[-1].state_after) if earlier else None
    else:
        start = None
    if not giornate:
        standings_refresh(season=season)
        return
    first = giornate[0].date
    closed = list(
        Turno.objects.filter(season=season, status=Turno.CHIUSO, giornata__date__gte=first)
        .select_related("giornata")
        .prefetch_related("seats__player", "sanctions__player")
    )
    pending: dict[dt.date, set[str]] = defaultdict(set)
    for date, name in Seat.objects.filter(
        turno__season=season, turno__status=Turno.IN_CORSO, turno__giornata__date__gte=first
    ).values_list("turno__giornata__date", "player__name"):
        pending[date].add(name)
    roster = list(
        Enrollment.objects.filter(season=season)
        .order_by("player__name")
        .values_list("player__name", flat=True)
    )
    outcomes, days, _ = play_giornate(rules, roster, _tables(closed), start, pending)

    players = {p.name: p for p in Player.objects.filter(name__in=roster)}
    seats: list[Seat] = []
    awards: list[TitleAward] = []
    for t in closed:
        o = outcomes[t.pk]
        for seat in t.seats.all():
            name = seat.player.name
            seat.series_before = o.series_before[name]
            seat.series_after = o.series_after[name]
            seat.titles = list(o.titles[name])
            seat.league_points = o.league_points[name]
            seats.append(seat)
            awards.extend(
                TitleAward(
                    seat=seat,
                    season=season,
                    player=seat.player,
                    code=code,
                    value=rules.title_value(code),
                )
                for code in o.titles[name]
            )
    Seat.objects.bulk_update(
        seats, ["series_before", "series_after", "titles", "league_points"], batch_size=500
    )
    TitleAward.objects.filter(season=season, seat__turno__giornata__date__gte=first).delete()
    TitleAward.objects.bulk_create(awards, batch_size=1000)

    by_date = {d.date: d for d in days}
    Absence.objects.filter(giornata__in=giornate).delete()
    absences: list[Absence] = []
    state = start or SeasonState()
    for g in giornate:
        day = by_date.get(g.date)
        if day is None:  # no closed turno on this date yet
            g.lowest = None
        else:
            state = day.state_after or state
            g.lowest = day.lowest
            absences.extend(
                Absence(giornata=g, season=season, player=players[name], league_points=lp)
                for name, lp in day.absences.items()
            )
        g.state_after = state.to_dict()
    Giornata.objects.bulk_update(giornate, ["lowest", "state_after"])
    Absence.objects.bulk_create(absences, batch_size=1000)
    standings_refresh(season=season)


def standings_aggregate(season: Season, *, before: dt.date | None = None) -> list[StandingRecord]:
    """Every roster member's season score, turni, absences and titles, in three aggregate
    queries over the stored results (optionally only giornate before ``before``)."""
    seat_qs = Seat.objects.filter(turno__season=season, turno__status=Turno.CHIUSO)
    abs_qs = Absence.objects.filter(season=season)
    award_qs = TitleAward.objects.filter(season=season)
    if before is not None:
        seat_qs = seat_qs.filter(turno__giornata__date__lt=before)
        abs_qs = abs_qs.filter(giornata__date__lt=before)
        award_qs = award_qs.filter(seat__turno__giornata__date__lt=before)
    played = {
        r["player_id"]: (r["s"], r["n"])
        for r in seat_qs.values("player_id").annotate(s=Sum("league_points"), n=Count("id"))
    }
    absent = {
        r["player_id"]: (r["s"], r["n"])
        for r in abs_qs.values("player_id").annotate(s=Sum("league_points"), n=Count("id"))
    }
    titles: dict[int, dict[str, int]] = defaultdict(dict)
    for r in award_qs.values("player_id", "code").annotate(n=Count("id")):
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


@transaction.atomic
def standings_refresh(*, season: Season) -> None:
    """Rewrite the stored Classifica Generale (and the places before the last giornata)."""
    rules = season.ruleset
    last = Giornata.objects.filter(season=season, lowest__isnull=False).order_by("-date").first()
    state = SeasonState.from_dict(last.state_after) if last else SeasonState()
    previous_state = SeasonState()
    prev = None
    if last is not None:
        prev = (
            Giornata.objects.filter(season=season, lowest__isnull=False, date__lt=last.date)
            .order_by("-date")
            .first()
        )
        previous_state = SeasonState.from_dict(prev.state_after) if prev else SeasonState()
    now = rank_classifica(standings_aggregate(season))
    # places as they stood before the last giornata: the movement arrows of the table
    before = (
        {
            row.player: place
            for place, row in rank_classifica(standings_aggregate(season, before=last.date))
        }
        if prev is not None
        else {}
    )
    players = dict(
        Enrollment.objects.filter(season=season).values_list("player__name", "player_id")
    )
    Standing.objects.filter(season=season).delete()
    Standing.objects.bulk_create(
        [
            Standing(
                season=season,
                player_id=players[row.player],
                place=place,
                previous_place=before.get(row.player),
                score=row.score,
                series=state.series.get(row.player, rules.start_series),
                previous_series=previous_state.series.get(row.player, rules.start_series),
                turni=row.turni,
                absences=row.absences,
                scudetti=row.scudetti,
                titles=dict(row.titles),
                streak=state.streak.get(row.player, 0),
            )
            for place, row in now
        ],
        batch_size=1000,
    )
