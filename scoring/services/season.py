"""Season-wide writes: create a season, enrol members, edit its rule set, and recompute
series, titles, league points, absences and the stored Classifica Generale with the engine."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Q, Sum

from scoring.models import (
    Absence,
    Enrollment,
    Giornata,
    Player,
    PlayerFigures,
    Result,
    Sanction,
    Season,
    Seat,
    Smazzata,
    Standing,
    TitleAward,
    Turno,
)
from scoring.rules.caf import Sanction as SanctionRecord
from scoring.rules.caf import Standing as StandingRecord
from scoring.rules.caf import TableResult, play_giornate, rank_classifica
from scoring.rules.caf.interchange import classifica_figures
from scoring.rules.caf.season import add_figures, league_line, season_figures
from scoring.rules.problems import Problem, RuleViolation, gettext_noop
from scoring.rules.systems import DEFAULT_SYSTEM, get_system
from scoring.rules.text import user_text
from scoring.selectors import season_start_state
from scoring.services.bulk import delete_ids, insert_rows, update_rows
from scoring.services.jsonstream import batched
from scoring.services.locks import season_lock, season_require_open


@transaction.atomic
def season_create(
    *,
    name: str,
    ruleset_code: str = DEFAULT_SYSTEM,
    rules: dict | None = None,
    current: bool = True,
) -> Season:
    """A new season with a copy of the rule set (the club may edit it before the first close)."""
    name = user_text(
        name or "",
        field="name",
        label=gettext_noop("nome della stagione"),
        max_length=40,
        code="SEASON_NAME",
        empty=gettext_noop("il nome della stagione è obbligatorio"),
    )
    if Season.objects.filter(name=name).exists():
        message = gettext_noop("la stagione %(name)s esiste già")
        raise RuleViolation([Problem.said("SEASON_EXISTS", message, {"name": name})])
    system = get_system(ruleset_code)  # RuleViolation RULESET for an unknown game
    rules = dict(system.default_rules()) if rules is None else rules
    system.rules(rules)  # the game's own checks (RuleViolation naming every key)
    if current:
        Season.objects.filter(is_current=True).update(is_current=False)
    return Season.objects.create(
        name=name, ruleset_code=ruleset_code, rules=rules, is_current=current
    )


@transaction.atomic
def enrollment_add(*, season: Season, player: Player) -> Enrollment:
    """Enrol a member: a late joiner takes the lowest score of every earlier giornata."""
    season_lock(season)
    season_require_open(season, fresh=True)
    enrollment, created = Enrollment.objects.get_or_create(season=season, player=player)
    if created and (season.giornate.exists() or season.standings.exists()):
        season_recompute(season=season)
    return enrollment


class _Unenrolled(Exception):
    """A closed turno seats a player who is not on the season's roster."""

    def __init__(self, player_id: int) -> None:
        self.player_id = player_id


@transaction.atomic
def enrollment_remove(*, season: Season, player: Player) -> None:
    """Take a member off the roster: only one who has not played in the season (their
    absences go with them, the season is recomputed)."""
    season_require_open(season, fresh=True)
    if Seat.objects.filter(turno__season=season, player=player).exists():
        raise RuleViolation(
            [
                Problem.said(
                    "ENROLLMENT_PLAYED",
                    gettext_noop(
                        "%(player)s ha già giocato nella stagione %(season)s: "
                        "non si può togliere dagli iscritti"
                    ),
                    {"player": player.name, "season": season.name},
                    player=player.name,
                )
            ]
        )
    deleted, _ = Enrollment.objects.filter(season=season, player=player).delete()
    if deleted and Giornata.objects.filter(season=season).exists():
        season_recompute(season=season)


@dataclass(frozen=True)
class _SeatRow:
    """A closed turno's seat as the recompute reads it: plain values, no model instance."""

    pk: int
    turno_id: int
    player_id: int
    name: str
    place: int
    ratio: Decimal
    series_before: str
    series_after: str
    titles: list
    league_points: Decimal | None


def _closed_tables(
    season: Season, first: dt.date, names: dict[int, str]
) -> tuple[list[TableResult], dict[int, list[_SeatRow]]]:
    """The closed turni from ``first`` on as the engine's tables, and their seats: three
    flat queries (thousands of turni, no model instances)."""
    turni = list(
        Turno.objects.filter(season=season, status=Turno.CHIUSO, giornata__date__gte=first)
        .order_by()
        .values_list("pk", "giornata__date", "number")
    )
    seats: dict[int, list[_SeatRow]] = defaultdict(list)
    for row in (
        Seat.objects.filter(
            turno__season=season, turno__status=Turno.CHIUSO, turno__giornata__date__gte=first
        )
        .order_by()
        .values_list(
            "pk",
            "turno_id",
            "player_id",
            "place",
            "ratio",
            "series_before",
            "series_after",
            "titles",
            "league_points",
        )
    ):
        pk, turno_id, player_id, *rest = row
        if player_id not in names:  # seated but not on the roster (an enrolment deleted by hand)
            raise _Unenrolled(player_id)
        seats[turno_id].append(_SeatRow(pk, turno_id, player_id, names[player_id], *rest))
    sanctions: dict[int, list[SanctionRecord]] = defaultdict(list)
    for turno_id, name, kind, reason in (
        Sanction.objects.filter(
            turno__season=season, turno__status=Turno.CHIUSO, turno__giornata__date__gte=first
        )
        .order_by("pk")
        .values_list("turno_id", "player__name", "kind", "reason")
    ):
        sanctions[turno_id].append(SanctionRecord(name, kind, reason))
    tables = []
    for pk, date, number in turni:
        by_place = sorted(seats[pk], key=lambda s: s.place)
        tables.append(
            TableResult(
                key=pk,
                date=date,
                number=number,
                order=tuple(s.name for s in by_place),
                ratios={s.name: s.ratio for s in by_place},
                sanctions=tuple(sanctions[pk]),
            )
        )
    return tables, seats


@transaction.atomic
def season_recompute(*, season: Season, since: dt.date | None = None) -> None:
    """The season's standing computed again from the giornata of ``since`` (all when None), as
    the ledger that keeps it declares (:data:`STANDING_KEEPERS`, by ``system.ledger``): C.A.F.'s
    chain of giornate (:func:`giornate_recompute`) or the season fold
    (:func:`game_standing_refresh`)."""
    season_lock(season)  # taken first by every caller; here for direct calls
    standing_keep(season=season, since=since)


def standing_keep(*, season: Season, since: dt.date | None = None) -> None:
    """:func:`season_recompute` inside a write that holds the season's lock already (a close,
    a reopen): no second lock, no savepoint."""
    STANDING_KEEPERS[season.system.ledger](season=season, since=since)


def standing_keep_for_table(*, season: Season, giornata: Giornata) -> None:
    """After a turno started or deleted on ``giornata`` (the caller holds the season's lock):
    where the game's standing reads the tables in corso (its system declares
    ``open_tables_excuse``: C.A.F.'s absences excuse the players of a table in corso) and the
    giornata has a closed turno, the season is computed again from it, as a close does;
    otherwise nothing is read."""
    if not season.system.open_tables_excuse:
        return
    if giornata.turni.filter(status=Turno.CHIUSO).exists():
        standing_keep(season=season, since=giornata.date)


def giornate_recompute(*, season: Season, since: dt.date | None = None) -> None:
    """Replay the season's giornate from ``since`` (all when None) with the engine.

    Series and Scudetto streaks chain through the giornate, so everything from that giornata
    on is recomputed: seats' series, titles and league points, absences, giornate, standings.
    Only the rows whose values changed are written.
    """
    rules = season.ruleset
    # the states after each giornata are large (every member): load only the one needed
    giornate_qs = Giornata.objects.filter(season=season).order_by("date").defer("state_after")
    start = season_start_state(season)  # the series carried over from the season before
    base = None
    if since is not None:
        # start from the state after the last earlier giornata that has a closed turno: a
        # giornata holding only open turni has no state of its own (``state_after`` is empty
        # until a recompute passes it), so it is replayed too, never read; the giornate before
        # it are not read at all
        base = (
            Giornata.objects.filter(season=season, date__lt=since, lowest__isnull=False)
            .order_by("-date")
            .values_list("date", "state_after")
            .first()
        )
    if base is not None:
        giornate = list(giornate_qs.filter(date__gt=base[0]))
        start = Giornata.load_state(base[1])
    else:
        giornate = list(giornate_qs)
    if not giornate:
        standings_refresh(season=season)
        return
    first = giornate[0].date
    players = dict(
        Enrollment.objects.filter(season=season).values_list("player__name", "player_id")
    )
    names = {pk: name for name, pk in players.items()}
    try:
        tables, seats = _closed_tables(season, first, names)
    except _Unenrolled as missing:
        # every player who plays is on the roster (SPEC §8.1): enrol them again and replay
        # the whole season, their absences from every giornata included
        Enrollment.objects.get_or_create(season=season, player_id=missing.player_id)
        season_recompute(season=season)
        return
    pending: dict[dt.date, set[str]] = defaultdict(set)
    for date, name in Seat.objects.filter(
        turno__season=season, turno__status=Turno.IN_CORSO, turno__giornata__date__gte=first
    ).values_list("turno__giornata__date", "player__name"):
        pending[date].add(name)
    outcomes, days, _ = play_giornate(rules, sorted(players), tables, start, pending)

    # seats: write only those whose series, titles or league points changed
    changed: list[tuple] = []
    # the players whose league points of a giornata changed: their points per giornata on the
    # player page (PlayerFigures.played) are summed again, seated at the changed turno or not (a
    # series moved by a reopen changes the step "nobody in the top series" at a later table)
    moved: set[int] = set()
    awards: set[tuple[int, int, str, Decimal]] = set()  # (seat, player, code, value)
    for turno_id, rows in seats.items():
        o = outcomes[turno_id]
        for seat in rows:
            name = seat.name
            new = (
                o.series_before[name],
                o.series_after[name],
                list(o.titles[name]),
                o.league_points[name],
            )
            if new != (seat.series_before, seat.series_after, seat.titles, seat.league_points):
                changed.append((*new, seat.pk))
                if new[3] != seat.league_points:
                    moved.add(seat.player_id)
            awards.update(
                (seat.pk, seat.player_id, code, rules.title_value(code)) for code in o.titles[name]
            )
    update_rows(Seat, ["series_before", "series_after", "titles", "league_points"], changed)

    # title awards: delete the ones no longer won, add the new ones
    seat_pks = [seat.pk for rows in seats.values() for seat in rows]
    stored = (
        # a close on the last giornata replays a few seats: read only their awards
        TitleAward.objects.filter(seat_id__in=seat_pks)
        if len(seat_pks) <= 500
        else TitleAward.objects.filter(season=season, seat__turno__giornata__date__gte=first)
    ).values_list("pk", "seat_id", "player_id", "code", "value")
    keep: set[tuple[int, int, str, Decimal]] = set()
    stale: list[int] = []
    for pk, *key in stored:
        award = tuple(key)
        if award in awards and award not in keep:
            keep.add(award)
        else:
            stale.append(pk)
    delete_ids(TitleAward, stale)
    insert_rows(
        TitleAward,
        ["seat", "season", "player", "code", "value"],
        sorted(
            (seat, season.pk, player, code, value) for seat, player, code, value in awards - keep
        ),
    )

    # absences and the giornate (lowest score, state after)
    by_date = {d.date: d for d in days}
    wanted: dict[tuple[int, int], Decimal] = {}
    state = start
    ids = dict(players)  # the states name players: stored by primary key (scoring.records)
    carried = {n for d in days if d.state_after for n in d.state_after.series} - set(ids)
    carried |= set(start.series) - set(ids)
    if carried:  # series carried over for players not enrolled: one query for all of them
        ids.update(Player.objects.filter(name__in=carried).values_list("name", "pk"))
    for g in giornate:
        day = by_date.get(g.date)
        if day is None:  # no closed turno on this date yet
            g.lowest = None
        else:
            state = day.state_after or state
            g.lowest = day.lowest
            for name, lp in day.absences.items():
                wanted[(g.pk, players[name])] = lp
        g.state_after = Giornata.dump_state(state, ids)
    update_rows(
        Giornata, ["lowest", "state_after"], [(g.lowest, g.state_after, g.pk) for g in giornate]
    )
    stale = []
    for pk, giornata_id, player_id, lp in Absence.objects.filter(
        giornata__in=[g.pk for g in giornate]
    ).values_list("pk", "giornata_id", "player_id", "league_points"):
        if wanted.get((giornata_id, player_id)) == lp:
            del wanted[(giornata_id, player_id)]
        else:
            stale.append(pk)
    delete_ids(Absence, stale)
    insert_rows(
        Absence,
        ["giornata", "season", "player", "league_points"],
        sorted((g, season.pk, p, lp) for (g, p), lp in wanted.items()),
    )
    standings_refresh(season=season, since=first if since is not None else None, moved=moved)


def season_version_bump(*, season: Season) -> None:
    """A new version of the season's stored Classifica: called inside the transaction of every
    write that changes it, so the pages cached under the old version are never served again by
    any worker (the cache is shared: ``CACHES`` in the settings)."""
    Season.objects.filter(pk=season.pk).update(version=F("version") + 1)
    season.version = Season.objects.filter(pk=season.pk).values_list("version", flat=True).get()


def seasons_of_player_bump(*, player_id: int) -> None:
    """A member's name is on the Classifiche and Verbali of the seasons they are enrolled in."""
    Season.objects.filter(enrollments__player_id=player_id).update(version=F("version") + 1)


def seat_figures_fill(*, season: Season, since: dt.date | None = None) -> set[int]:
    """Store on every closed seat that lacks them the player's figures of that turno: calls,
    forced calls, scazzate, cappotti and, per game, points and smazzate (``Seat.extra``), so the
    player page reads them instead of scanning the season's smazzate. A close, a reopen (which
    clears them) and a rescore leave only their own turno's seats to fill; an import, all.
    Three grouped queries over the stored smazzate (the engine's output, replayed by
    ``check_ledger``) of those turni only, :data:`FILL_BATCH` turni at a time. Returns the
    players whose seats were filled. ``since``: only the turni of the giornate from that date
    on (a close or reopen replays those; the seats before it were filled when they closed)."""
    return fill_seat_figures(season.pk, Seat, Smazzata, Result, Turno.CHIUSO, since=since)


def fill_seat_figures(
    season_id: int, seat_model, smazzata_model, result_model, closed, since: dt.date | None = None
) -> set[int]:
    """:func:`seat_figures_fill` on the given models (the migration passes its historical ones)."""
    empty = seat_model.objects.filter(turno__season_id=season_id, turno__status=closed, extra={})
    if since is not None:
        empty = empty.filter(turno__giornata__date__gte=since)
    seats: dict[int, dict[tuple[int, int], int]] = {}  # turno -> (turno, player) -> seat
    for pk, t, p in empty.order_by().values_list("pk", "turno_id", "player_id"):
        seats.setdefault(t, {})[(t, p)] = pk
    for turni in batched(sorted(seats), FILL_BATCH):
        _fill_turni(
            {key: pk for t in turni for key, pk in seats[t].items()},
            turni,
            seat_model,
            smazzata_model,
            result_model,
        )
    return {p for by_turno in seats.values() for _t, p in by_turno}


FILL_BATCH = 500  # turni filled per round: an import's figures never all in memory at once


def _fill_turni(
    seats: dict[tuple[int, int], int], turni: list[int], seat_model, smazzata_model, result_model
) -> None:
    figures: dict[tuple[int, int], dict[str, Any]] = {
        key: {"calls": 0, "forced": 0, "scazzate": 0, "cappotti": 0, "games": {}} for key in seats
    }
    for t, caller, calls, forced, scazzate in (
        smazzata_model.objects.filter(turno_id__in=turni)
        .values_list("turno_id", "caller_id")
        .annotate(
            calls=Count("pk"),
            forced=Count("pk", filter=Q(forced=True)),
            scazzate=Count("pk", filter=Q(scazzata=True)),
        )
        .order_by()
    ):
        figures[(t, caller)].update(calls=calls, forced=forced, scazzate=scazzate)
    for t, who, n in (
        smazzata_model.objects.filter(turno_id__in=turni, cappotto__isnull=False)
        .values_list("turno_id", "cappotto_id")
        .annotate(n=Count("pk"))
        .order_by()
    ):
        figures[(t, who)]["cappotti"] = n
    for t, player, game, points, n in (
        result_model.objects.filter(smazzata__turno_id__in=turni)
        .values_list("smazzata__turno_id", "player_id", "smazzata__game")
        .annotate(points=Sum("points"), n=Count("pk"))
        .order_by()
    ):
        figures[(t, player)]["games"][game] = [points, n]
    update_rows(seat_model, ["extra"], [(figures[key], pk) for key, pk in seats.items()])


CHART_LEADERS = 3  # the leaders the player page's chart draws beside the member


FEW_PLAYERS = 500  # more ids than this are not sent to the database in one IN (...)


def player_figures_sum(
    season_id: int,
    player_ids: Iterable[int],
    seat_model,
    closed,
    *,
    since: dt.date | None = None,
    kept: dict[int, tuple[dict[str, str], dt.date | None, dict | None]] | None = None,
) -> dict[int, list]:
    """Each player's :func:`season_figures`, summed over their closed seats' stored figures (a
    close's :func:`seat_figures_fill`), the league points of each giornata they played
    (``{"2026-10-02": "3.50"}``) and their new checkpoint (:class:`PlayerFigures`'s
    ``base_date`` and ``base``): ``[figures, played, base_date, base]``.

    ``since`` is the first giornata a close or reopen replayed, ``kept`` (player -> (played,
    base_date, base)) their stored rows: a player whose checkpoint lies at or before ``since``
    is summed from it, over their closed seats from its date on (a close on the last giornata:
    its own turno's seats), the giornate before ``since`` played as kept; the others over every
    closed seat, read in chunks (an import's whole season is never in memory at once). The new
    checkpoint is ``since`` (without it, the player's last giornata played)."""
    kept = kept or {}
    out: dict[int, list] = {}
    start: dict[int, dt.date] = {}  # players summed from their checkpoint
    whole: list[int] = []  # players summed over every closed seat
    before = None if since is None else since.isoformat()
    for pid in player_ids:
        played, base_date, base = kept.get(pid, ({}, None, None))
        if since is not None and base is not None and base_date is not None and base_date <= since:
            start[pid] = base_date
            kept_days = {d: lp for d, lp in played.items() if d < before}
            out[pid] = [_figures_copy(base), kept_days, since, _figures_copy(base)]
        else:
            whole.append(pid)
            out[pid] = [season_figures(), {}, since, season_figures()]
    if not out:
        return out
    seats = seat_model.objects.filter(turno__season_id=season_id, turno__status=closed)
    if len(whole) <= FEW_PLAYERS:  # a close: those players' seats only, from the checkpoints
        mine = Q(player_id__in=whole)
        for pid, date in start.items():
            mine |= Q(player_id=pid, turno__giornata__date__gte=date)
        seats = seats.filter(mine)
    # else an import or a rescore: every closed seat of the season, the others skipped here (a
    # roster of a million names would pass SQLite's limit of variables in one query)
    last: dict[int, tuple[dt.date, list]] = {}  # without since: each player's last giornata
    for pid, place, figures, date, lp in (
        seats.order_by()
        .values_list("player_id", "place", "extra", "turno__giornata__date", "league_points")
        .iterator(chunk_size=2000)
    ):
        if pid not in out:
            continue
        row = out[pid]
        add_figures(row[0], place, figures)
        if since is None:  # the checkpoint: everything before the player's last giornata
            day, seen = last.get(pid, (date, []))
            if date > day:
                for earlier in seen:
                    add_figures(row[3], *earlier)
                day, seen = date, []
            if date == day:
                seen.append((place, figures))
            else:
                add_figures(row[3], place, figures)
            last[pid] = (day, seen)
        elif date < since:  # between the old checkpoint and the new one
            add_figures(row[3], place, figures)
            if pid in start:  # its league points are kept
                continue
        day = date.isoformat()
        row[1][day] = str(Decimal(row[1].get(day, 0)) + (lp or 0))
    for pid, row in out.items():
        if since is None:
            row[2] = last[pid][0] if pid in last else None
            row[3] = row[3] if pid in last else None
    return out


def _figures_copy(figures: dict) -> dict:
    """A :func:`season_figures` to add to, apart from the one it copies."""
    return {**figures, "games": {code: list(n) for code, n in figures["games"].items()}}


def league_lines(
    season_id: int, played: dict[int, dict[str, str]], absence_model, giornata_model
) -> dict[int, dict[str, Any]]:
    """Each player's cumulative league points over the season's closed giornate
    (:func:`league_line`), from the league points of the giornate they played (as kept,
    ``{"2026-10-02": "3.50"}``) and of their absences: ``{"start": index of the first giornata
    they count in, "points": the running totals from there}``."""
    dates = list(
        giornata_model.objects.filter(season_id=season_id, lowest__isnull=False)
        .order_by("date")
        .values_list("date", flat=True)
    )
    absent: dict[int, dict[dt.date, Decimal]] = {pid: {} for pid in played}
    for pid, date, lp in (
        absence_model.objects.filter(season_id=season_id, player_id__in=list(played))
        .order_by()
        .values_list("player_id", "giornata__date", "league_points")
    ):
        absent[pid][date] = lp
    out = {}
    for pid, days in played.items():
        mine = {dt.date.fromisoformat(d): Decimal(lp) for d, lp in days.items()}
        start, points = league_line(dates, mine, absent[pid])
        out[pid] = {"start": start, "points": [str(p) for p in points]}
    return out


def _figures_create(
    model, season_id: int, player_ids: Iterable[int], figures: dict, lines: dict
) -> None:
    """New :class:`PlayerFigures` rows: each player's figures, points per giornata and
    checkpoint (:func:`player_figures_sum`) and line (:func:`league_lines`, leaders only)."""
    columns = ["season", "player", "figures", "played", "base_date", "base", "line"]
    if not any(f.name == "base" for f in model._meta.fields):
        # migration 0013's model, from before the checkpoints (0017 adds them, empty)
        rows = ((season_id, pid, *figures[pid][:2], lines.get(pid)) for pid in player_ids)
        columns = ["season", "player", "figures", "played", "line"]
    else:
        rows = ((season_id, pid, *figures[pid], lines.get(pid)) for pid in player_ids)
    insert_rows(model, columns, rows)  # plain rows: no model instance each (100,000 members)


def player_figures_fill(
    season_id: int, standing_model, figures_model, seat_model, absence_model, giornata_model, closed
) -> None:
    """:class:`PlayerFigures` for the players of the stored Classifica who have none: after the
    migration that made the table (it passes its historical models) and after a restore (a
    backup does not hold them)."""
    rows = list(
        standing_model.objects.filter(season_id=season_id).values_list("player_id", "place")
    )
    have = set(
        figures_model.objects.filter(season_id=season_id).values_list("player_id", flat=True)
    )
    missing = [pid for pid, _place in rows if pid not in have]
    figures = player_figures_sum(season_id, missing, seat_model, closed)
    leaders = [pid for pid, place in rows if place <= CHART_LEADERS and pid not in have]
    lines = league_lines(
        season_id, {pid: figures[pid][1] for pid in leaders}, absence_model, giornata_model
    )
    _figures_create(figures_model, season_id, missing, figures, lines)


def player_figures_checkpoints_fill(season_id: int, figures_model, seat_model, closed) -> None:
    """The checkpoint (``base_date``, ``base``) of every :class:`PlayerFigures` row of a season
    that has none, from the stored seats (what :func:`player_figures_sum` keeps after an
    import): migration 0017 passes its historical models. The figures, points and lines are
    left as they are."""
    rows = dict(
        figures_model.objects.filter(season_id=season_id, base_date__isnull=True).values_list(
            "player_id", "pk"
        )
    )
    for ids in batched(sorted(rows), FEW_PLAYERS):
        summed = player_figures_sum(season_id, ids, seat_model, closed)
        update_rows(
            figures_model,
            ["base_date", "base"],
            [(*summed[pid][2:], rows[pid]) for pid in ids if summed[pid][2] is not None],
        )


def player_figures_refresh(
    season: Season,
    roster: set[int],
    filled: set[int],
    leaders: list[int],
    since: dt.date | None = None,
) -> None:
    """Keep the roster's :class:`PlayerFigures` in step with a refresh of the Classifica:
    the figures summed again only for the players whose closed seats may have changed (seats
    just filled or whose league points a replay changed: ``filled``; seats at an open turno,
    which a reopen leaves) or who have none yet (an
    import, a new enrollment), from their checkpoint when it lies before ``since``, the first
    giornata replayed (:func:`player_figures_sum`); a line for each of the ``leaders``, none
    for the others. A close writes a handful of rows, not the roster's, and reads the seats
    of its own giornata on, not the season's."""
    kept = {
        pid: (pk, line is not None)
        for pk, pid, line in PlayerFigures.objects.filter(season=season)
        .order_by()
        .values_list("pk", "player_id", "line")
    }
    delete_ids(PlayerFigures, [pk for pid, (pk, _line) in kept.items() if pid not in roster])
    at_open = set(
        Seat.objects.filter(turno__season=season, turno__status=Turno.IN_CORSO).values_list(
            "player_id", flat=True
        )
    )
    stale = {pid for pid in roster if pid in filled or pid in at_open or pid not in kept}
    # the stored rows read: the stale players' checkpoints (a close: its turno's players) and
    # the leaders' points per giornata, for their lines
    resumed = stale & set(kept) if since is not None and len(stale) <= FEW_PLAYERS else set()
    stored = dict(
        (pid, (played, base_date, base))
        for pid, played, base_date, base in PlayerFigures.objects.filter(
            season=season, player_id__in=sorted(resumed | (set(leaders) - stale))
        ).values_list("player_id", "played", "base_date", "base")
    )
    figures = player_figures_sum(
        season.pk,
        stale,
        Seat,
        Turno.CHIUSO,
        since=since,
        kept={pid: stored[pid] for pid in resumed if pid in stored},
    )
    # the leaders' lines from the league points of the giornate they played, as kept
    played = {
        pid: figures[pid][1] if pid in figures else stored[pid][0]
        for pid in leaders
        if pid in figures or pid in stored
    }
    lines = league_lines(season.pk, played, Absence, Giornata)
    _figures_create(PlayerFigures, season.pk, sorted(stale - set(kept)), figures, lines)
    update_rows(
        PlayerFigures,
        ["figures", "played", "base_date", "base", "line"],
        [(*figures[pid], lines.get(pid), kept[pid][0]) for pid in sorted(stale & set(kept))],
    )
    # the others: a new line for a leader, none any more for who was one
    relined = sorted(
        pid
        for pid, (_pk, lined) in kept.items()
        if pid in roster and pid not in stale and (lined or pid in lines)
    )
    update_rows(PlayerFigures, ["line"], [(lines.get(pid), kept[pid][0]) for pid in relined])


# every column of a Classifica row, in the order the refreshes write them
GAME_STANDING_COLUMNS = (
    *("season", "player", "place", "previous_place", "score", "series", "previous_series"),
    *("turni", "absences", "scudetti", "titles", "streak", "extra"),
)


CENT = Decimal("0.01")


def giornata_totals_fill(
    season_id: int,
    since: dt.date | None = None,
    *,
    giornata_model: Any = Giornata,
    seat_model: Any = Seat,
    absence_model: Any = Absence,
    award_model: Any = TitleAward,
    closed: str = Turno.CHIUSO,
) -> None:
    """Keep after each giornata from ``since`` on (all when None) the Classifica's running
    totals (``Giornata.totals``): the totals kept after the giornata before, plus each
    giornata's league points, turni, absences and titles (three grouped queries over those
    giornate's stored seats, absences and titles). A close on the last giornata reads and
    writes that giornata only; a giornata before ``since`` without totals (created since the
    last refresh) makes it start from the season's first. Migration 0018 passes its historical
    models."""
    giornate = giornata_model.objects.filter(season_id=season_id)
    totals: dict[str, list] = {}
    if since is not None:
        kept = giornate.filter(date__lt=since).order_by("-date").values_list("totals").first()
        if kept is not None and kept[0] is None:
            since = None  # no totals before ``since``: from the start
        elif kept is not None:
            totals = {
                pid: [Decimal(score), turni, absences, dict(titles)]
                for pid, (score, turni, absences, titles) in kept[0].items()
            }
    todo = list(
        (giornate if since is None else giornate.filter(date__gte=since))
        .order_by("date")
        .values_list("pk", flat=True)
    )
    seats = seat_model.objects.filter(turno__season_id=season_id, turno__status=closed)
    absences = absence_model.objects.filter(season_id=season_id)
    awards = award_model.objects.filter(season_id=season_id)
    if since is not None and len(todo) <= FEW_PLAYERS:  # by giornata ids: indexes, no scan
        seats = seats.filter(turno__giornata_id__in=todo)
        absences = absences.filter(giornata_id__in=todo)
        awards = awards.filter(seat__turno__giornata_id__in=todo)
    elif since is not None:
        seats = seats.filter(turno__giornata__date__gte=since)
        absences = absences.filter(giornata__date__gte=since)
        awards = awards.filter(seat__turno__giornata__date__gte=since)
    day: dict[int, dict[str, list]] = defaultdict(dict)  # giornata -> member -> its part

    def part(giornata: int, player: int) -> list:
        return day[giornata].setdefault(str(player), [Decimal(0), 0, 0, {}])

    def points(value: Decimal | None) -> Decimal:  # two places, as stored (SQLite sums floats)
        return Decimal(value or 0).quantize(CENT)

    # .order_by(): no model ordering in a GROUP BY (a seat's would join every giornata)
    # a seat counts a turno (index 1), an absence an absence (index 2); both league points
    for rows, giornata_of, counted in (
        (seats, "turno__giornata_id", 1),
        (absences, "giornata_id", 2),
    ):
        for giornata, player, s, n in (
            rows.order_by()
            .values_list(giornata_of, "player_id")
            .annotate(s=Sum("league_points"), n=Count("id"))
        ):
            mine = part(giornata, player)
            mine[0] += points(s)
            mine[counted] += n
    for giornata, player, code, n in (
        awards.order_by()
        .values_list("seat__turno__giornata_id", "player_id", "code")
        .annotate(n=Count("id"))
    ):
        titles = part(giornata, player)[3]
        titles[code] = titles.get(code, 0) + n
    written = []
    for pk in todo:
        for pid, (score, turni, absent, titles) in day.get(pk, {}).items():
            mine = totals.setdefault(pid, [Decimal(0), 0, 0, {}])
            mine[0] += score
            mine[1] += turni
            mine[2] += absent
            for code, n in titles.items():
                mine[3][code] = mine[3].get(code, 0) + n
        stored = {pid: [str(s), t, a, dict(w)] for pid, (s, t, a, w) in totals.items()}
        written.append((stored, pk))
    update_rows(giornata_model, ["totals"], written)


def _standing_rows(totals: dict | None, players: dict[str, int]) -> list[StandingRecord]:
    """Every roster member's row of the Classifica from a giornata's kept totals."""
    totals = totals or {}
    rows = []
    for name, pid in players.items():
        score, turni, absences, titles = totals.get(str(pid), ("0", 0, 0, {}))
        rows.append(
            StandingRecord(
                player=name,
                score=Decimal(score),
                series="",
                turni=turni,
                absences=absences,
                titles=titles,
            )
        )
    return rows


@transaction.atomic
def standings_refresh(
    *, season: Season, since: dt.date | None = None, moved: Iterable[int] = ()
) -> None:
    """Rewrite the stored Classifica Generale (and the places before the last giornata), the
    per-turno figures of the seats closed since the last refresh, and what the player page
    reads of the season (:func:`player_figures_refresh`). ``since``: the first giornata that
    a close or reopen replayed (None: any may have changed); ``moved``: the players whose
    seats' league points the replay changed (:func:`giornate_recompute`)."""
    filled = seat_figures_fill(season=season, since=since)
    giornata_totals_fill(season.pk, since)
    rules = season.ruleset
    last = Giornata.objects.filter(season=season, lowest__isnull=False).order_by("-date").first()
    players = dict(
        Enrollment.objects.filter(season=season).values_list("player__name", "player_id")
    )
    names = {pk: name for name, pk in players.items()}  # the state is read for these only
    initial = season_start_state(season)
    state = Giornata.load_state(last.state_after, names) if last else initial
    previous_state = initial
    prev = None
    if last is not None:
        prev = (
            Giornata.objects.filter(season=season, lowest__isnull=False, date__lt=last.date)
            .order_by("-date")
            .first()
        )
        previous_state = Giornata.load_state(prev.state_after, names) if prev else initial
    # the table now: the totals kept after the last giornata with a closed turno
    now = rank_classifica(_standing_rows(last.totals if last else None, players))
    # places as they stood before the last giornata (the movement arrows of the table): the
    # totals kept after the giornata before it
    before = {}
    if prev is not None:
        before = {
            row.player: place
            for place, row in rank_classifica(_standing_rows(prev.totals, players))
        }
    leaders = [players[row.player] for place, row in now if place <= CHART_LEADERS]
    player_figures_refresh(season, set(players.values()), filled | set(moved), leaders, since)
    Standing.objects.filter(season=season).delete()
    series = {row.player: state.series.get(row.player, rules.start_series) for _, row in now}
    insert_rows(  # plain rows: a model instance each cost ~0.1 ms (100,000 members)
        Standing,
        GAME_STANDING_COLUMNS,
        (
            (
                *(season.pk, players[row.player], place, before.get(row.player), row.score),
                series[row.player],
                previous_state.series.get(row.player, rules.start_series),
                *(row.turni, row.absences, row.scudetti, dict(row.titles)),
                state.streak.get(row.player, 0),
                # the row's figures as kingscore prints them, kept as every game's
                classifica_figures(
                    row.score, series[row.player], row.turni, row.absences, row.scudetti
                ),
            )
            for place, row in now
        ),
    )
    season_version_bump(season=season)


def standing_figures_fill(*, season: Season) -> None:
    """Each stored Classifica row of a chain of giornate without its figures (``extra`` empty:
    a backup taken before they were kept) gets them from its own columns, as
    :func:`standings_refresh` writes them; a row that has them keeps them as they are."""
    rows = Standing.objects.filter(season=season).values_list(
        "pk", "score", "series", "turni", "absences", "scudetti", "extra"
    )
    update_rows(
        Standing,
        ["extra"],
        [(classifica_figures(*columns), pk) for pk, *columns, extra in rows if not extra],
    )


# The key of a generic giornata's ``state_after``: the season fold's state after the giornata
# (member id -> accumulated figures, :mod:`scoring.rules.seasonfold`).
FOLD = "fold"


def closed_seats_by_giornata(
    season_id: int, since: dt.date | None = None, *, seat_model: Any = Seat
) -> dict[int, list[dict[str, dict[str, Any]]]]:
    """What the season fold reads of the closed turni (of the giornate from ``since`` on): per
    giornata id, each turno as ``{member id: {"total", "place", "extra"}}``, in turno order."""
    qs = seat_model.objects.filter(turno__season_id=season_id, turno__status=Turno.CHIUSO)
    if since is not None:
        qs = qs.filter(turno__giornata__date__gte=since)
    out: dict[int, list[dict[str, dict[str, Any]]]] = {}
    turni: dict[int, dict[str, dict[str, Any]]] = {}
    for giornata_id, turno_id, player_id, total, place, extra in qs.order_by(
        "turno__giornata__date", "turno__number", "turno_id", "position"
    ).values_list("turno__giornata_id", "turno_id", "player_id", "total", "place", "extra"):
        if turno_id not in turni:
            turni[turno_id] = {}
            out.setdefault(giornata_id, []).append(turni[turno_id])
        turni[turno_id][str(player_id)] = {"total": total, "place": place, "extra": extra}
    return out


def game_states_fill(
    season_id: int,
    system: Any,
    since: dt.date | None = None,
    *,
    giornata_model: Any = Giornata,
    seat_model: Any = Seat,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Fold the closed turni of the giornate from ``since`` on (all when None) into the state
    kept after the giornata before it, and keep each giornata's new state (``state_after``).

    Returns the season's state now and the state before the last giornata with a closed turno
    (None when no turno is closed): the Classifica and its arrows. Its queries do not grow with
    the giornate before ``since``. A state missing before ``since`` (a database from before the
    checkpoints) folds the whole season.
    """
    giornate = giornata_model.objects.filter(season_id=season_id)
    state: dict[str, Any] = {}
    if since is not None:
        # the newest checkpoint before ``since`` (a giornata created since the last refresh, or
        # a database from before the checkpoints, has none: the fold starts further back)
        kept = (
            giornate.filter(date__lt=since, state_after__has_key=FOLD)
            .order_by("-date")
            .values_list("date", "state_after")
            .first()
        )
        if kept is None:
            since = None
        else:
            since, state = kept[0] + dt.timedelta(days=1), kept[1][FOLD]
    start = state
    todo = list(
        (giornate if since is None else giornate.filter(date__gte=since))
        .order_by("date")
        .values_list("pk", "date")
    )
    seats = closed_seats_by_giornata(season_id, since, seat_model=seat_model)
    before_last: dict[str, Any] | None = None
    changed = []
    for pk, _date in todo:
        played = seats.get(pk)
        if played:
            before_last = state
            state = system.standing_fold(state, played)
        changed.append(giornata_model(pk=pk, state_after={FOLD: state}))
    giornata_model.objects.bulk_update(changed, ["state_after"], batch_size=500)
    if before_last is None and start:  # the last closed giornata lies before ``since``
        last = (
            giornate.filter(date__lt=since, turni__status=Turno.CHIUSO)
            .order_by("-date")
            .values_list("date", flat=True)
            .first()
        )
        prev = (
            giornate.filter(date__lt=last, state_after__has_key=FOLD)
            .order_by("-date")
            .values_list("state_after", flat=True)
        ).first()
        before_last = (prev or {}).get(FOLD, {}) if last is not None else None
    return state, before_last


@transaction.atomic
def game_standing_refresh(*, season: Season, since: dt.date | None = None) -> None:
    """Store the season's standing (and the places before its last giornata, for the arrows)
    from the season fold kept by giornata: only the giornate from ``since`` on (all when None)
    are folded again, from the closed seats' stored figures (no turno is replayed)."""
    system, rules = season.system, season.game_rules
    state, before_last = game_states_fill(season.pk, system, since)
    roster = dict(Enrollment.objects.filter(season=season).values_list("player_id", "player__name"))
    missing = {int(k) for k in state} - set(roster)
    names = {
        **roster,
        **dict(Player.objects.filter(pk__in=missing).values_list("pk", "name")),
    }
    ids = {name: pk for pk, name in names.items()}

    def rows(fold: dict[str, Any]) -> list[dict[str, Any]]:
        by_name = {names[int(k)]: v for k, v in fold.items()}
        return system.standing_rank(rules, sorted(roster.values()), by_name)

    now = rows(state)
    # places as they stood before the last giornata (the movement arrows); none after the
    # season's first giornata: there was no table to move from (as in C.A.F.)
    before = {r["player"]: r["place"] for r in rows(before_last)} if before_last else {}
    columns = system.standing_columns()
    score_key = columns[0][0]
    Standing.objects.filter(season=season).delete()
    insert_rows(  # a row per member: no model instance each (100,000 members: seconds)
        Standing,
        GAME_STANDING_COLUMNS,
        (
            (
                *(season.pk, ids[r["player"]], r["place"], before.get(r["player"])),
                *(Decimal(str(r[score_key])), "", "", r.get("turni", 0), 0, 0, {}, 0),
                {k: r[k] for k, _ in columns if k in r},
            )
            for r in now
        ),
    )
    season_version_bump(season=season)


# How each ledger (``system.ledger``) keeps its season's standing: the one place that reads it
# below the Ledger (:mod:`scoring.services.recording`), for the writes every game shares (an
# enrolment, a late joiner's turno).
STANDING_KEEPERS: dict[str, Callable[..., None]] = {
    "counts": giornate_recompute,
    "records": game_standing_refresh,
}
