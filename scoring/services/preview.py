"""What closing a back-dated turno will change, before it changes it (issue 11.7).

A turno dated before the season's last closed giornata replays the season from its date: people
who were not at the table can change series, lose or win titles, and receive absences. The
segretario must see that first. :func:`close_preview` computes it with the pure engine
(:func:`scoring.rules.play_giornate`, :func:`scoring.rules.rank_classifica`) on a copy of the
season's facts read from the database, exactly as the close would replay them, and compares the
result with what is stored now. It writes nothing.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Max, Sum

from scoring import formatting
from scoring.models import Absence, Enrollment, Giornata, Sanction, Seat, Standing, Turno
from scoring.rules.caf import Sanction as SanctionRecord
from scoring.rules.caf import Standing as StandingRecord
from scoring.rules.caf import TableResult, play_giornate, rank_classifica, score_turno
from scoring.rules.caf.season import tally
from scoring.rules.problems import RuleViolation
from scoring.selectors import season_start_state, turno_record, turno_with_everything


@dataclass(frozen=True)
class SeriesChange:
    player: str
    before: str
    after: str


@dataclass(frozen=True)
class PlaceChange:
    player: str
    before: int | None
    after: int


@dataclass(frozen=True)
class TitleChange:
    """A title of another turno that changes hands: ``gained`` or lost by ``player``."""

    player: str
    turno: str  # "2026-09-18 #1"
    code: str
    gained: bool

    @property
    def shown(self) -> str:
        """The turno as a reader names it: ``18/09/2026 #1``."""
        day, number = self.turno.split(" #")
        return formatting.turno_label(dt.date.fromisoformat(day), int(number))


@dataclass(frozen=True)
class AbsenceChange:
    """An absence given (``before`` None), taken away (``after`` None) or worth a new amount."""

    player: str
    date: dt.date
    before: Decimal | None
    after: Decimal | None


@dataclass(frozen=True)
class ClosePreview:
    turno: str
    date: dt.date
    last_closed: dt.date | None
    at_table: tuple[str, ...]
    series: tuple[SeriesChange, ...]
    places: tuple[PlaceChange, ...]
    titles: tuple[TitleChange, ...]
    absences: tuple[AbsenceChange, ...]

    @property
    def others_affected(self) -> tuple[str, ...]:
        """Players not at the table whose series, titles or absences change, by name."""
        names = {c.player for c in (*self.series, *self.titles, *self.absences)}
        return tuple(sorted(names - set(self.at_table)))


def last_closed_giornata(season_id: int) -> dt.date | None:
    """The date of the season's last giornata with a closed turno."""
    return Turno.objects.filter(season_id=season_id, status=Turno.CHIUSO).aggregate(
        m=Max("giornata__date")
    )["m"]


def is_backdated(season_id: int, date: dt.date) -> dt.date | None:
    """The last closed giornata when ``date`` comes before it (a back-dated turno), else None."""
    last = last_closed_giornata(season_id)
    return last if last is not None and date < last else None


def _label(date: dt.date, number: int) -> str:
    return f"{date.isoformat()} #{number}"


def close_preview(*, turno: Turno | int, tiebreak: list[str] | None = None) -> ClosePreview:
    """What closing ``turno`` (with the spareggio ``tiebreak``) changes in its season.

    Raises :class:`RuleViolation` with the close's own problems when the turno cannot close.
    """
    pk = turno.pk if isinstance(turno, Turno) else turno
    turno = turno_with_everything(Turno.objects.filter(pk=pk)).get()
    season = turno.season
    rules = season.ruleset
    record = turno_record(turno, tiebreak=tiebreak)
    score = score_turno(rules, record, require_complete=True)
    if score.problems:
        raise RuleViolation(score.problems)
    assert score.ratios is not None
    since = turno.giornata.date

    # the facts, as the close's replay reads them: the state before the turno's giornata, the
    # closed turni from that giornata on (this one added), the roster, the turni still open
    raw = (
        Giornata.objects.filter(season=season, date__lt=since, lowest__isnull=False)
        .order_by("-date")
        .values_list("state_after", flat=True)
        .first()
    )
    # before the first closed giornata: the series the season starts from (carried or not)
    start = Giornata.load_state(raw) if raw is not None else season_start_state(season)
    roster = sorted(Enrollment.objects.filter(season=season).values_list("player__name", flat=True))
    closed = {
        t_pk: (date, number)
        for t_pk, date, number in Turno.objects.filter(
            season=season, status=Turno.CHIUSO, giornata__date__gte=since
        ).values_list("pk", "giornata__date", "number")
    }
    seats: dict[int, list[tuple[str, int, Decimal, list]]] = defaultdict(list)
    for t_pk, name, place, ratio, titles in Seat.objects.filter(turno_id__in=closed).values_list(
        "turno_id", "player__name", "place", "ratio", "titles"
    ):
        seats[t_pk].append((name, place, ratio, titles))
    sanctions: dict[int, list[SanctionRecord]] = defaultdict(list)
    for t_pk, name, kind, reason in (
        Sanction.objects.filter(turno_id__in=closed)
        .order_by("pk")
        .values_list("turno_id", "player__name", "kind", "reason")
    ):
        sanctions[t_pk].append(SanctionRecord(name, kind, reason))
    tables = [
        TableResult(
            key=t_pk,
            date=date,
            number=number,
            order=tuple(s[0] for s in sorted(seats[t_pk], key=lambda s: s[1])),
            ratios={s[0]: s[2] for s in seats[t_pk]},
            sanctions=tuple(sanctions[t_pk]),
        )
        for t_pk, (date, number) in closed.items()
    ]
    tables.append(
        TableResult(
            key=turno.pk,
            date=since,
            number=turno.number,
            order=score.order(),
            ratios=dict(score.ratios),
            sanctions=record.sanctions,
        )
    )
    pending: dict[dt.date, set[str]] = defaultdict(set)
    for date, name in (
        Seat.objects.filter(
            turno__season=season, turno__status=Turno.IN_CORSO, turno__giornata__date__gte=since
        )
        .exclude(turno=turno)
        .values_list("turno__giornata__date", "player__name")
    ):
        pending[date].add(name)
    outcomes, days, state = play_giornate(rules, roster, tables, start, pending)

    # titles of the other turni that change hands
    title_changes = []
    for t_pk, (date, number) in sorted(closed.items(), key=lambda kv: kv[1]):
        for name, _place, _ratio, stored in seats[t_pk]:
            old, new = set(stored), set(outcomes[t_pk].titles[name])
            title_changes += [
                TitleChange(name, _label(date, number), code, gained)
                for codes, gained in ((new - old, True), (old - new, False))
                for code in sorted(codes)
            ]

    # absences from the turno's giornata on
    old_abs = {
        (date, name): lp
        for date, name, lp in Absence.objects.filter(
            season=season, giornata__date__gte=since
        ).values_list("giornata__date", "player__name", "league_points")
    }
    new_abs = {(d.date, name): lp for d in days for name, lp in d.absences.items()}
    absence_changes = tuple(
        AbsenceChange(name, date, old_abs.get((date, name)), new_abs.get((date, name)))
        for date, name in sorted(set(old_abs) | set(new_abs))
        if old_abs.get((date, name)) != new_abs.get((date, name))
    )

    # the Classifica afterwards: what is stored before the giornata, plus the replay
    stored = {
        name: (series, place)
        for name, series, place in Standing.objects.filter(season=season).values_list(
            "player__name", "series", "place"
        )
    }
    score_of: dict[str, Decimal] = defaultdict(Decimal)
    turni_of: dict[str, int] = defaultdict(int)
    absences_of: dict[str, int] = defaultdict(int)
    titles_of: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    earlier = Seat.objects.filter(
        turno__season=season, turno__status=Turno.CHIUSO, turno__giornata__date__lt=since
    )
    for name, lp, n in (
        earlier.order_by()
        .values_list("player__name")
        .annotate(s=Sum("league_points"), n=Count("id"))
    ):
        score_of[name] += lp or Decimal(0)
        turni_of[name] += n
    for name, titles in earlier.values_list("player__name", "titles"):
        for code in titles:
            titles_of[name][code] += 1
    for name, lp, n in (
        Absence.objects.filter(season=season, giornata__date__lt=since)
        .order_by()
        .values_list("player__name")
        .annotate(s=Sum("league_points"), n=Count("id"))
    ):
        score_of[name] += lp or Decimal(0)
        absences_of[name] += n
    tally(outcomes.values(), days, score_of, turni_of, absences_of, titles_of)
    ranked = rank_classifica(
        StandingRecord(
            player=name,
            score=score_of[name],
            series="",
            turni=turni_of[name],
            absences=absences_of[name],
            titles=dict(titles_of[name]),
        )
        for name in roster
    )
    places = tuple(
        PlaceChange(row.player, stored.get(row.player, (None, None))[1], place)
        for place, row in ranked
        if stored.get(row.player, (None, None))[1] != place
    )
    series = tuple(
        SeriesChange(name, stored[name][0], state.series.get(name, rules.start_series))
        for name in roster
        if name in stored and stored[name][0] != state.series.get(name, rules.start_series)
    )
    return ClosePreview(
        turno=turno.label,
        date=since,
        last_closed=last_closed_giornata(season.pk),
        at_table=record.players,
        series=series,
        places=places,
        titles=tuple(title_changes),
        absences=absence_changes,
    )
