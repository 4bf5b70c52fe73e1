"""Reads for the club's history (issue 17): the Albo d'oro and a member's seasons.

Everything comes from the rows the engine stored (Standing, TitleAward, Seat, Smazzata,
Giornata), in a fixed number of aggregate queries whatever the number of seasons
(``tests/integration/test_history.py`` pins it).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Max, Q

from scoring.models import Giornata, Player, Season, Seat, Smazzata, Standing, TitleAward, Turno
from scoring.rules.caf.ruleset import TITLE_ORDER

# the season's great titles, as the Albo d'oro lists them
HONOURS = ("SCUDETTO", "COPPA_CAMPIONI", "INTERCONTINENTALE")
HOLDERS_SHOWN = 3


@dataclass(frozen=True)
class Winner:
    player_id: int
    name: str
    count: int = 1


@dataclass(frozen=True)
class Champion:
    player_id: int
    name: str
    score: Decimal
    scudetti: int


@dataclass
class SeasonHonours:
    """One season of the Albo d'oro."""

    season: Season
    champions: list[Champion] = field(default_factory=list)
    # title code -> winners (most first), and how many times the title was won in the season
    titles: dict[str, list[Winner]] = field(default_factory=dict)
    title_totals: dict[str, int] = field(default_factory=dict)
    turni: int = 0

    @property
    def closed(self) -> bool:
        return self.season.closed_at is not None

    @property
    def provisional(self) -> bool:
        """A season still open: its leader is not a champion yet."""
        return not self.closed

    @property
    def honours(self) -> list[tuple[str, list[Winner], int]]:
        return [
            (code, self.titles.get(code, []), self.title_totals.get(code, 0)) for code in HONOURS
        ]


@dataclass(frozen=True)
class Holder:
    player_id: int
    name: str
    season: str
    where: str  # the turno ("12/03/2026 #1"), or the season's giornate for a streak
    turno_id: int | None = None


@dataclass(frozen=True)
class Record:
    code: str
    value: Decimal | int | None
    holders: tuple[Holder, ...]
    more: int = 0  # holders of the same value not shown


@dataclass(frozen=True)
class AlboDoro:
    seasons: list[SeasonHonours]
    records: list[Record]


def _label(date: dt.date, number: int) -> str:
    return f"{date:%d/%m/%Y} #{number}"


def _titled_ids(seasons: list[Season]) -> list[int]:
    """The seasons of a game that awards titles (and league points per turno, ratios, cappotti):
    the club's records are theirs."""
    return [s.pk for s in seasons if s.system.awards_titles]


def _seat_record(code: str, qs, value_field: str, names: dict[int, str]) -> Record:
    """The best value of ``value_field`` over closed seats, and who holds it (two queries)."""
    best = qs.aggregate(m=Max(value_field))["m"]
    if best is None:
        return Record(code, None, ())
    rows = list(
        qs.filter(**{value_field: best})
        .order_by("turno__giornata__date", "turno__number", "player__name")
        .values_list(
            "player_id",
            "player__name",
            "turno__season_id",
            "turno__giornata__date",
            "turno__number",
            "turno_id",
        )[: HOLDERS_SHOWN + 1]
    )
    holders = tuple(
        Holder(pid, name, names[sid], _label(date, number), tid)
        for pid, name, sid, date, number, tid in rows[:HOLDERS_SHOWN]
    )
    more = 0
    if len(rows) > HOLDERS_SHOWN:
        more = qs.filter(**{value_field: best}).count() - HOLDERS_SHOWN
    return Record(code, best, holders, more)


def _count_record(code: str, rows: list[tuple[int, str, int]]) -> Record:
    """The most of something per player (rows: player, name, count), and who."""
    if not rows:
        return Record(code, None, ())
    best = max(n for _, _, n in rows)
    top = sorted((name, pid) for pid, name, n in rows if n == best)
    holders = tuple(Holder(pid, name, "", "") for name, pid in top[:HOLDERS_SHOWN])
    return Record(code, best, holders, max(0, len(top) - HOLDERS_SHOWN))


def _longest_streak(titled: list[int], names: dict[int, str]) -> Record:
    """The longest run of Scudetti in consecutive giornate of a season (SPEC §8.3: an absence,
    or a giornata without the Scudetto, ends it), from the giornate played and the Scudetti."""
    days: dict[int, list[dt.date]] = defaultdict(list)
    for sid, date in (
        Giornata.objects.filter(season_id__in=titled, lowest__isnull=False)
        .order_by("season_id", "date")
        .values_list("season_id", "date")
    ):
        days[sid].append(date)
    index = {sid: {d: i for i, d in enumerate(dates)} for sid, dates in days.items()}
    won: dict[tuple[int, int, str], set[int]] = defaultdict(set)
    for sid, pid, name, date in (
        TitleAward.objects.filter(
            season_id__in=titled, code="SCUDETTO", seat__turno__status="chiuso"
        )
        .order_by()
        .values_list("season_id", "player_id", "player__name", "seat__turno__giornata__date")
    ):
        if date in index.get(sid, {}):
            won[(sid, pid, name)].add(index[sid][date])
    runs: list[tuple[int, int, str, int, int]] = []  # length, season, name, player, last index
    for (sid, pid, name), idx in won.items():
        length, prev = 0, None
        for i in sorted(idx):
            length = length + 1 if prev is not None and i == prev + 1 else 1
            prev = i
            runs.append((length, sid, name, pid, i))
    if not runs:
        return Record("STREAK", None, ())
    best = max(r[0] for r in runs)
    top = sorted((r for r in runs if r[0] == best), key=lambda r: (days[r[1]][r[4]], r[2]))
    holders = tuple(
        Holder(
            pid,
            name,
            names[sid],
            f"{days[sid][last - best + 1]:%d/%m/%Y} – {days[sid][last]:%d/%m/%Y}",
        )
        for _, sid, name, pid, last in top[:HOLDERS_SHOWN]
    )
    return Record("STREAK", best, holders, max(0, len(top) - HOLDERS_SHOWN))


def albo_doro(*, published_only: bool = False) -> AlboDoro:
    """Every season's champion (the provisional leader of a season still open), its Scudetti,
    Coppe dei Campioni and Intercontinentali, and the club's records, in a fixed number of
    queries. ``published_only``: the seasons the public may see (issue 17, publishing)."""
    visible = Season.objects.filter(published=True) if published_only else Season.objects.all()
    seasons = list(visible.order_by("-created_at", "-name"))
    names = {s.pk: s.name for s in seasons}
    by_pk = {s.pk: SeasonHonours(season=s) for s in seasons}
    for sid, pid, name, score, scudetti in (
        Standing.objects.filter(place=1, season_id__in=list(by_pk))
        .order_by("season_id", "-scudetti", "player__name")
        .values_list("season_id", "player_id", "player__name", "score", "scudetti")
    ):
        by_pk[sid].champions.append(Champion(pid, name, score, scudetti))
    for sid, n in (
        Turno.objects.filter(status=Turno.CHIUSO, season_id__in=list(by_pk))
        .order_by()
        .values_list("season_id")
        .annotate(n=Count("id"))
    ):
        by_pk[sid].turni = n
    per: dict[tuple[int, str], list[Winner]] = defaultdict(list)
    for sid, code, pid, name, n in (
        TitleAward.objects.filter(code__in=HONOURS, season_id__in=list(by_pk))
        .order_by()
        .values_list("season_id", "code", "player_id", "player__name")
        .annotate(n=Count("id"))
    ):
        per[(sid, code)].append(Winner(pid, name, n))
    for (sid, code), winners in per.items():
        winners.sort(key=lambda w: (-w.count, w.name))
        by_pk[sid].titles[code] = winners
        by_pk[sid].title_totals[code] = sum(w.count for w in winners)

    titled = _titled_ids(seasons)
    closed_seats = Seat.objects.filter(turno__season_id__in=titled, turno__status=Turno.CHIUSO)
    scudetti = list(
        TitleAward.objects.filter(season_id__in=titled, code="SCUDETTO")
        .order_by()
        .values_list("player_id", "player__name")
        .annotate(n=Count("id"))
    )
    cappotti = list(
        Smazzata.objects.filter(turno__season_id__in=titled, cappotto__isnull=False)
        .order_by()
        .values_list("cappotto_id", "cappotto__name")
        .annotate(n=Count("id"))
    )
    records = [
        _seat_record("BEST_TURNO", closed_seats, "league_points", names),
        _seat_record("BEST_RATIO", closed_seats.filter(place__gt=1), "ratio", names),
        _seat_record("BEST_TOTAL", closed_seats, "total", names),
        _count_record("MOST_SCUDETTI", scudetti),
        _longest_streak(titled, names),
        _count_record("MOST_CAPPOTTI", cappotti),
    ]
    cappotti_total = sum(n for _, _, n in cappotti)
    records.append(Record("CAPPOTTI_TOTAL", cappotti_total, ()))
    return AlboDoro(seasons=[by_pk[s.pk] for s in seasons], records=records)


# -- a member across seasons ----------------------------------------------------------------------
@dataclass
class MemberSeason:
    """A member's season: where they started and ended on the ladder, the way between, their
    final (or current) place, titles, turni and absences."""

    season: Season
    place: int | None = None
    of: int = 0
    score: Decimal | None = None
    turni: int = 0
    absences: int = 0
    titles: dict[str, int] = field(default_factory=dict)
    start_series: str = ""
    end_series: str = ""
    path: list[str] = field(default_factory=list)  # the series after each change

    @property
    def closed(self) -> bool:
        return self.season.closed_at is not None

    @property
    def champion(self) -> bool:
        return self.closed and self.place == 1

    @property
    def title_list(self) -> list[tuple[str, int]]:
        return [(c, self.titles[c]) for c in TITLE_ORDER if self.titles.get(c)]


@dataclass(frozen=True)
class MemberHistory:
    player: Player
    seasons: list[MemberSeason]
    titles: dict[str, int]

    @property
    def seasons_played(self) -> int:
        return sum(1 for s in self.seasons if s.turni)

    @property
    def championships(self) -> int:
        return sum(1 for s in self.seasons if s.champion)

    @property
    def title_list(self) -> list[tuple[str, int]]:
        return [(c, self.titles[c]) for c in TITLE_ORDER if self.titles.get(c)]


def member_history(player: Player, *, published_only: bool = False) -> MemberHistory:
    """A member's every season (newest first), in five queries whatever their number.
    ``published_only``: the seasons the public may see (issue 17, publishing)."""
    rows: dict[int, MemberSeason] = {}
    visible = Season.objects.filter(published=True) if published_only else Season.objects.all()
    seasons = {
        s.pk: s
        for s in visible.filter(
            Q(enrollments__player=player) | Q(standings__player=player)
        ).distinct()
    }
    for s in seasons.values():
        rows[s.pk] = MemberSeason(season=s)
    for sid, place, score, turni, absences, titles, series in Standing.objects.filter(
        player=player, season_id__in=list(rows)
    ).values_list("season_id", "place", "score", "turni", "absences", "titles", "series"):
        m = rows[sid]
        m.place, m.score, m.turni, m.absences = place, score, turni, absences
        m.titles, m.end_series = dict(titles or {}), series
    for sid, n in (
        Standing.objects.filter(season_id__in=list(rows))
        .order_by()
        .values_list("season_id")
        .annotate(n=Count("id"))
    ):
        rows[sid].of = n
    for sid, before, after in (
        Seat.objects.filter(
            player=player, turno__status=Turno.CHIUSO, turno__season_id__in=list(rows)
        )
        .exclude(series_after="")
        .order_by("turno__giornata__date", "turno__number")
        .values_list("turno__season_id", "series_before", "series_after")
    ):
        m = rows[sid]
        if not m.path:
            m.path.append(before)
        if after != m.path[-1]:
            m.path.append(after)
    total: dict[str, int] = defaultdict(int)
    for m in rows.values():
        s = m.season
        if s.system.series_ladder:
            carried = s.start_series.get(str(player.pk)) if s.series_origin == "carried" else None
            m.start_series = carried or s.ruleset.start_series
            if not m.path and m.end_series:
                m.path = [m.end_series]
        for code, n in m.titles.items():
            total[code] += n
    ordered = sorted(
        rows.values(), key=lambda m: (m.season.created_at, m.season.name), reverse=True
    )
    return MemberHistory(player=player, seasons=ordered, titles=dict(total))
