"""The season (SPEC §8): giornate, series ladder, titles, absences, the Classifica Generale."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from decimal import Decimal
from itertools import groupby

from ..problems import Problem, RuleViolation, gettext_noop
from .records import (
    SANCTION_CONTATORE,
    GiornataOutcome,
    SeasonResult,
    SeasonState,
    Standing,
    TableOutcome,
    TableResult,
)
from .ruleset import TITLE_ORDER, RuleSet


def check_giornate(tables: Iterable[TableResult]) -> list[Problem]:
    """A player plays at most one turno per giornata; (date, number) is unique."""
    problems: list[Problem] = []
    seen_number: set[tuple[dt.date, int]] = set()
    seen_player: dict[tuple[dt.date, str], int] = {}
    for t in tables:
        label = f"{t.date.isoformat()} #{t.number}"
        if (t.date, t.number) in seen_number:
            problems.append(
                Problem.said(
                    "TURNO_DUPLICATE",
                    gettext_noop("due turni con la stessa data e numero"),
                    turno=label,
                )
            )
        seen_number.add((t.date, t.number))
        for p in t.order:
            other = seen_player.get((t.date, p))
            if other is not None:
                problems.append(
                    Problem.said(
                        "PLAYER_TWICE_IN_GIORNATA",
                        gettext_noop(
                            "%(player)s gioca già il turno #%(other)s dello stesso giorno"
                        ),
                        {"player": p, "other": other},
                        player=p,
                        turno=label,
                    )
                )
            else:
                seen_player[(t.date, p)] = t.number
    return problems


def _move(rules: RuleSet, series: str, steps: int) -> str:
    """Move ``steps`` up the ladder (negative: down), stopping at either end."""
    codes = rules.series_codes()
    i = codes.index(series) - steps
    return codes[max(0, min(len(codes) - 1, i))]


def play_table(
    rules: RuleSet, table: TableResult, series: Mapping[str, str], streak: Mapping[str, int]
) -> tuple[TableOutcome, set[str]]:
    """Series moves and titles of one closed turno (SPEC §8.2-§8.3).

    ``series`` and ``streak`` are the state before the giornata. Returns the outcome and the
    players who won a Scudetto (their streak grows).
    """
    order = list(table.order)
    n = len(order)
    before = {p: series.get(p, rules.start_series) for p in order}
    top = rules.series_codes()[0]
    now = dict(before)
    titles: dict[str, list[str]] = {p: [] for p in order}
    # 1. nobody in the top series: everybody moves up one first
    if rules.auto_promotion_when_no_top and all(s != top for s in now.values()):
        now = {p: _move(rules, s, 1) for p, s in now.items()}
    reached = dict(now)  # the series the turno is played in, after step 1
    winner, last = order[0], order[-1]
    scudetto: set[str] = set()
    # 2. the winner: Scudetto in the top series, otherwise promoted
    if reached[winner] in rules.scudetto_series:
        scudetto.add(winner)
        run = streak.get(winner, 0) + 1
        titles[winner].append("SCUDETTO")
        if run >= rules.coppa_campioni_streak:
            titles[winner].append("COPPA_CAMPIONI")
        if run >= rules.intercontinentale_streak:
            titles[winner].append("INTERCONTINENTALE")
    else:
        now[winner] = _move(rules, reached[winner], 1)
        if reached[winner] == rules.mitropa_from and now[winner] != reached[winner]:
            titles[winner].append("MITROPA")
    # second and third places in the top series
    if n >= 2 and order[1] != last and reached[order[1]] in rules.uefa_series:
        titles[order[1]].append("UEFA")
    if n >= 3 and order[2] != last and reached[order[2]] in rules.coppa_italia_series:
        titles[order[2]].append("COPPA_ITALIA")
    # 3. at a large table, second place is promoted from an amateur series
    second = order[1]
    if (
        n >= rules.second_promoted_min_players
        and second != last
        and rules.is_amateur(reached[second])
    ):
        now[second] = _move(rules, reached[second], 1)
    # 4. the last place goes down one series and takes the Retrocessione malus
    now[last] = _move(rules, now[last], -1)
    titles[last].append("RETROCESSIONE")
    # disciplinary relegation recorded by the segretario
    for s in table.sanctions:
        if s.kind == SANCTION_CONTATORE and s.player in now:
            now[s.player] = _move(rules, now[s.player], -1)
            titles[s.player].append(SANCTION_CONTATORE)
    ordered = {p: tuple(sorted(t, key=TITLE_ORDER.index)) for p, t in titles.items()}
    league = {
        p: table.ratios[p] + sum((rules.title_value(t) for t in ordered[p]), Decimal(0))
        for p in order
    }
    return (
        TableOutcome(
            key=table.key,
            series_before=before,
            series_after=now,
            titles=ordered,
            league_points=league,
        ),
        scudetto,
    )


def starting_state(rules: RuleSet, series: Mapping[str, str] | None = None) -> SeasonState:
    """The state a season starts from: every player at ``rules.start_series`` (the Statuto's
    "tutti partono dalla serie A"), except those given a series carried over from the season
    before (the ladder goes on across seasons). No Scudetto streak carries over. A series the
    ladder does not have is a :class:`Problem` (``RuleViolation``)."""
    series = dict(series or {})
    codes = rules.series_codes()
    wrong = sorted(p for p, code in series.items() if code not in codes)
    if wrong:
        raise RuleViolation(
            [
                Problem.said(
                    "START_SERIES_UNKNOWN",
                    gettext_noop(
                        "%(player)s: la serie %(series)s non esiste nel regolamento della stagione"
                    ),
                    {"player": p, "series": repr(series[p])},
                    player=p,
                )
                for p in wrong
            ]
        )
    return SeasonState(series=series)


def play_giornate(
    rules: RuleSet,
    roster: Iterable[str],
    tables: Sequence[TableResult],
    state: SeasonState | None = None,
    pending: Mapping[dt.date, Iterable[str]] | None = None,
) -> tuple[dict[Hashable, TableOutcome], list[GiornataOutcome], SeasonState]:
    """Play the giornate of ``tables`` in date order, from ``state`` (the season's start if None).

    Every roster member absent from a giornata receives the lowest league points of that
    giornata (SPEC §8.1). A giornata's tables must all be given together. ``pending`` names,
    per date, players seated at a turno not closed yet: they are not absent.
    """
    pending = pending or {}
    state = state.copy() if state is not None else SeasonState()
    roster = list(dict.fromkeys(roster))
    outcomes: dict[Hashable, TableOutcome] = {}
    giornate: list[GiornataOutcome] = []
    by_date = sorted(tables, key=lambda t: (t.date, t.number))
    for date, group in groupby(by_date, key=lambda t: t.date):
        day = list(group)
        winners: set[str] = set()
        series_after: dict[str, str] = {}
        points: list[Decimal] = []
        present: set[str] = set()
        for table in day:
            outcome, scudetto = play_table(rules, table, state.series, state.streak)
            outcomes[table.key] = outcome
            winners |= scudetto
            series_after.update(outcome.series_after)
            points.extend(outcome.league_points.values())
            present.update(table.order)
        lowest = min(points)
        excused = present | set(pending.get(date, ()))
        absent = {p: lowest for p in roster if p not in excused}
        state.series.update(series_after)
        for p in set(state.streak) | winners:
            state.streak[p] = state.streak.get(p, 0) + 1 if p in winners else 0
        state.streak = {p: s for p, s in state.streak.items() if s}
        giornate.append(
            GiornataOutcome(date=date, lowest=lowest, absences=absent, state_after=state.copy())
        )
    return outcomes, giornate, state


def rank_classifica(standings: Iterable[Standing]) -> tuple[tuple[int, Standing], ...]:
    """Display order (score, then more Scudetti, then name) with shared places (1, 2, 2, 4)."""
    rows = sorted(standings, key=lambda s: (-s.score, -s.scudetti, s.player))
    out: list[tuple[int, Standing]] = []
    for i, row in enumerate(rows):
        place = out[-1][0] if out and out[-1][1].score == row.score else i + 1
        out.append((place, row))
    return tuple(out)


FIGURE_COUNTS = ("calls", "forced", "scazzate", "cappotti")


def season_figures(turni: Iterable[tuple[int | None, Mapping]] = ()) -> dict:
    """A player's figures over their closed turni, from each turno's place and figures
    (:meth:`TurnoScore.player_figures`): calls, forced calls, scazzate, cappotti made, per game
    ``[points, smazzate]``, wins and podiums. What the player page shows, kept per season."""
    out: dict = {**dict.fromkeys(FIGURE_COUNTS, 0), "games": {}, "wins": 0, "podiums": 0}
    for place, figures in turni:
        add_figures(out, place, figures)
    return out


def add_figures(total: dict, place: int | None, figures: Mapping) -> None:
    """Add one closed turno (its place and figures) to a player's :func:`season_figures`."""
    for key in FIGURE_COUNTS:
        total[key] += figures.get(key, 0)
    for code, (points, n) in figures.get("games", {}).items():
        game = total["games"].setdefault(code, [0, 0])
        game[0] += points
        game[1] += n
    total["wins"] += place == 1
    total["podiums"] += place is not None and place <= 3


def league_line(
    dates: Sequence[dt.date],
    played: Mapping[dt.date, Decimal],
    absent: Mapping[dt.date, Decimal],
) -> tuple[int, list[Decimal]]:
    """A player's cumulative league points over the season's closed giornate (``dates``, in
    order), from the league points of the giornate they played (``played``) or were absent
    from (``absent``): the index of the first giornata they count in, and the running total at
    each giornata from there (a late joiner's line does not run flat at 0 before joining)."""
    start = next((i for i, d in enumerate(dates) if d in played or d in absent), len(dates))
    total, values = Decimal(0), []
    for d in dates[start:]:
        total += played.get(d, Decimal(0)) + absent.get(d, Decimal(0))
        values.append(total)
    return start, values


def tally(
    outcomes: Iterable[TableOutcome],
    giornate: Iterable[GiornataOutcome],
    score: dict[str, Decimal],
    played: dict[str, int],
    absences: dict[str, int],
    won: dict[str, dict[str, int]],
) -> None:
    """Add played giornate to running totals (defaultdicts): league points, turni, absences
    and titles won, per player."""
    for outcome in outcomes:
        for p, lp in outcome.league_points.items():
            score[p] += lp
            played[p] += 1
            for t in outcome.titles[p]:
                won[p][t] += 1
    for g in giornate:
        for p, lp in g.absences.items():
            score[p] += lp
            absences[p] += 1


def play_season(
    rules: RuleSet,
    roster: Iterable[str],
    tables: Sequence[TableResult],
    start: SeasonState | None = None,
) -> SeasonResult:
    """A whole season from its closed turni: every outcome, absences and the classifica.
    ``start`` is the series each player starts from (:func:`starting_state`; all at the top
    of the ladder when None)."""
    tables = list(tables)
    members = list(dict.fromkeys([*roster, *(p for t in tables for p in t.order)]))
    start = start or SeasonState()
    outcomes, giornate, state = play_giornate(rules, members, tables, start)
    score: dict[str, Decimal] = defaultdict(Decimal)
    played: dict[str, int] = defaultdict(int)
    absences: dict[str, int] = defaultdict(int)
    won: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    tally(outcomes.values(), giornate, score, played, absences, won)
    standings = [
        Standing(
            player=p,
            score=score[p],
            series=state.series.get(p, rules.start_series),
            turni=played[p],
            absences=absences[p],
            titles=dict(won[p]),
        )
        for p in members
    ]
    return SeasonResult(
        tables=outcomes,
        giornate=tuple(giornate),
        state=state,
        classifica=rank_classifica(standings),
    )
