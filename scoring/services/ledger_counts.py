"""King C.A.F.'s side of the trial balance (``check_ledger``): the season replayed from its
counts with the engine, every stored number that differs (:mod:`scoring.services.ledger`).

The facts are what the segretario recorded: seats, smazzate with their counts, penalità,
sanctions, the spareggio order, which turni are closed, the roster. Everything else the services
store beside them (smazzata points, totals, places, ratios, winners, series, titles and their
award rows, league points, absences, giornate, the Classifica) must equal the engine's replay.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

from scoring.models import (
    Absence,
    Enrollment,
    Giornata,
    Player,
    PlayerFigures,
    Season,
    SeasonEvent,
    Standing,
    TitleAward,
    Turno,
)
from scoring.records import state_player_ids
from scoring.rules.caf import (
    RuleSet,
    TableResult,
    TurnoScore,
    play_giornate,
    rank_classifica,
    score_turno,
)
from scoring.rules.caf import Sanction as SanctionRecord
from scoring.rules.caf import Standing as StandingRecord
from scoring.rules.caf.interchange import classifica_figures
from scoring.rules.caf.records import GiornataOutcome
from scoring.rules.caf.season import add_figures, league_line, season_figures
from scoring.rules.problems import AT_TURNO, gettext_noop, said
from scoring.selectors import CARRIED, season_start_state, turno_record, turno_with_everything
from scoring.services.differences import (
    AT_CLASSIFICA,
    AT_GIORNATA,
    AT_SMAZZATA_PLAYER,
    AT_TURNO_PLAYER,
    AT_TURNO_SMAZZATA,
    REPLAY_ERRORS,
    Difference,
    problem_said,
    unreplayable,
)
from scoring.services.season import CHART_LEADERS
from scoring.services.seasons_close import final_series


class _Collector:
    def __init__(self, season: Season) -> None:
        self.season = season.name
        self.found: list[Difference] = []

    def compare(self, where: str, field: str, stored: object, expected: object) -> None:
        if stored != expected:
            self.found.append(Difference(self.season, where, field, stored, expected))


def _dec(value: Decimal | None) -> Decimal | None:
    return None if value is None else Decimal(value).quantize(Decimal("0.01"))


def _check_player_figures(
    out: _Collector,
    season: Season,
    turni: list[Turno],
    scores: dict[int, TurnoScore],
    days: Sequence[GiornataOutcome],
    per_day: Mapping[dt.date, Mapping[str, tuple[Decimal, int, Counter]]],
    absences: Mapping[tuple[dt.date, str], Decimal],
    ranked: Iterable[tuple[int, StandingRecord]],
) -> None:
    """What the player page reads (:class:`PlayerFigures`), one row per player of the
    Classifica: their season figures (their closed turni's places and figures, replayed) and,
    for the leaders, their line of the league chart (league points, giornata by giornata)."""
    expected = set()
    figures: dict[str, dict] = defaultdict(season_figures)
    # each player's closed turni: (date, place, figures), for the checkpoints
    closed: dict[str, list[tuple[dt.date, int, Mapping]]] = defaultdict(list)
    for turno in turni:
        score = scores.get(turno.pk)
        if score is None:
            continue
        assert score.places is not None
        for name, mine in score.player_figures().items():
            add_figures(figures[name], score.places[name], mine)
            closed[name].append((turno.giornata.date, score.places[name], mine))
    dates = [d.date for d in days]
    played: dict[str, dict[dt.date, Decimal]] = defaultdict(dict)  # league points per giornata
    for d, day in per_day.items():
        for name, (lp, _n, _titles) in day.items():
            played[name][d] = lp
    lines = {}
    bases: dict[tuple[str, dt.date], dict] = {}  # (player, date) -> figures before that date

    def base(name: str, before: dt.date) -> dict:
        if (name, before) not in bases:
            bases[(name, before)] = season_figures(
                (place, mine) for date, place, mine in closed[name] if date < before
            )
        return bases[(name, before)]

    for place, row in ranked:
        expected.add(row.player)
        if place <= CHART_LEADERS:
            absent = {d: lp for (d, who), lp in absences.items() if who == row.player}
            start, points = league_line(dates, played[row.player], absent)
            lines[row.player] = {"start": start, "points": points}
    stored = {
        name: (mine, kept, line, base_date, stored_base)
        for name, mine, kept, line, base_date, stored_base in PlayerFigures.objects.filter(
            season=season
        ).values_list("player__name", "figures", "played", "line", "base_date", "base")
    }
    for name in sorted(set(stored) | set(expected)):
        where = said(gettext_noop("cifre del giocatore, %(player)s"), player=name)
        if name not in stored or name not in expected:
            out.compare(where, "riga", name in stored, name in expected)
            continue
        mine, kept, line, base_date, stored_base = stored[name]
        out.compare(where, "cifre della stagione", mine, figures[name])
        if base_date is not None:  # the checkpoint a close sums from (None: none yet)
            out.compare(
                where,
                "cifre prima della data",
                (base_date, stored_base),
                (base_date, base(name, base_date)),
            )
        out.compare(
            where,
            "punti per giornata giocata",
            {dt.date.fromisoformat(d): Decimal(lp) for d, lp in kept.items()},
            played[name],
        )
        if line is not None:
            line = {"start": line["start"], "points": [Decimal(p) for p in line["points"]]}
        out.compare(where, "andamento in classifica", line, lines.get(name))


def _check_turno(out: _Collector, rules: RuleSet, turno: Turno) -> TurnoScore | None:
    """A turno's own stored numbers against the engine; the score when it is closed and valid."""
    label = said(AT_TURNO, turno=turno.label)
    closed = not turno.is_open
    record = turno_record(turno)
    score = score_turno(rules, record, require_complete=closed)
    if closed and score.problems:
        out.compare(label, "turno chiuso valido", [problem_said(p) for p in score.problems], [])
        return None
    seats = sorted(turno.seats.all(), key=lambda s: s.position)
    by_number = {s.number: s for s in score.smazzate}
    for sm in turno.smazzate.all():
        where = said(AT_TURNO_SMAZZATA, turno=turno.label, number=sm.number)
        scored = by_number.get(sm.number)
        if scored is None:
            out.compare(where, "smazzata", sm.game, None)
            continue
        out.compare(where, "mazziere", sm.dealer.name, scored.dealer)
        out.compare(where, "obbligata", sm.forced, scored.forced)
        out.compare(where, "scazzata", sm.scazzata, scored.scazzata)
        out.compare(where, "cappotto", sm.cappotto.name if sm.cappotto else None, scored.cappotto)
        for r in sm.results.all():
            out.compare(
                said(AT_SMAZZATA_PLAYER, turno=turno.label, number=sm.number, player=r.player.name),
                "punti",
                r.points,
                scored.points[r.player.name],
            )
    figures = score.player_figures()
    ranks = sorted(s.tiebreak_rank for s in seats if s.tiebreak_rank is not None)
    out.compare(label, "spareggio (posizioni)", ranks, list(range(1, len(ranks) + 1)))
    for seat in seats:
        name = seat.player.name
        where = said(AT_TURNO_PLAYER, turno=turno.label, player=name)
        out.compare(where, "totale", seat.total, score.totals[name])
        out.compare(where, "penalità", seat.penalty_total, score.penalties[name])
        if closed:
            assert score.places is not None and score.ratios is not None
            out.compare(where, "posto", seat.place, score.places[name])
            out.compare(where, "rapporto", _dec(seat.ratio), score.ratios[name])
            # the figures the player page reads (calls, scazzate, points per game)
            out.compare(where, "cifre del giocatore", seat.extra, figures[name])
        else:
            blank = (None, None, "", "", [], None, {})
            stored = (
                seat.place,
                seat.ratio,
                seat.series_before,
                seat.series_after,
                seat.titles,
                seat.league_points,
                seat.extra,
            )
            out.compare(where, "esito di un turno aperto", stored, blank)
    if closed:
        assert score.places is not None
        winner = next(n for n, p in score.places.items() if p == 1)
        out.compare(label, "vincitore", turno.winner.name if turno.winner else None, winner)
        out.compare(label, "verbale assegnato", turno.verbale_number is not None, True)
        return score
    out.compare(label, "vincitore di un turno aperto", turno.winner_id, None)
    return None


def counts_differences(*, season: Season) -> list[Difference]:
    """One season kept as counts replayed from its closed turni: every stored value that
    differs."""
    out = _Collector(season)
    rules = season.ruleset
    turni = list(
        turno_with_everything(Turno.objects.filter(season=season)).order_by(
            "giornata__date", "number"
        )
    )
    scores: dict[int, TurnoScore] = {}
    for turno in turni:
        try:
            score = _check_turno(out, rules, turno)
        except REPLAY_ERRORS as exc:  # a record the engine refuses: reported, never raised
            out.found.append(unreplayable(season.name, said(AT_TURNO, turno=turno.label), exc))
            score = None
        if score is not None:
            scores[turno.pk] = score

    # Verbali: numbered 1..n in the season, one per turno ever closed, never reused
    numbers = sorted(t.verbale_number for t in turni if t.verbale_number is not None)
    out.compare("verbali", "numerazione", numbers, list(range(1, len(numbers) + 1)))

    # the season: tables from the replayed places and ratios, the roster as enrolled
    enrolled = dict(
        Enrollment.objects.filter(season=season).values_list("player__name", "player_id")
    )
    seated = {s.player.name: s.player_id for t in turni for s in t.seats.all()}
    missing = sorted(set(seated) - set(enrolled))
    out.compare("iscrizioni", "giocatori seduti non iscritti", missing, [])
    roster = {**enrolled, **seated}
    tables = []
    pending: dict[dt.date, set[str]] = defaultdict(set)
    for turno in turni:
        names = [s.player.name for s in turno.seats.all()]
        if turno.pk not in scores:
            if turno.is_open:
                pending[turno.giornata.date].update(names)
            continue
        score = scores[turno.pk]
        assert score.ratios is not None
        tables.append(
            TableResult(
                key=turno.pk,
                date=turno.giornata.date,
                number=turno.number,
                order=score.order(),
                ratios=dict(score.ratios),
                sanctions=tuple(
                    SanctionRecord(s.player.name, s.kind, s.reason) for s in turno.sanctions.all()
                ),
            )
        )
    start = season_start_state(season)  # the series carried over from the season before
    outcomes, days, state = play_giornate(rules, sorted(roster), tables, start, pending)

    expected_awards: Counter = Counter()
    per_day: dict[dt.date, dict[str, tuple[Decimal, int, Counter]]] = defaultdict(dict)
    for turno in turni:
        outcome = outcomes.get(turno.pk)
        if outcome is None:
            continue
        for seat in turno.seats.all():
            name = seat.player.name
            where = said(AT_TURNO_PLAYER, turno=turno.label, player=name)
            titles = list(outcome.titles[name])
            out.compare(where, "serie prima", seat.series_before, outcome.series_before[name])
            out.compare(where, "serie dopo", seat.series_after, outcome.series_after[name])
            out.compare(where, "titoli", seat.titles, titles)
            out.compare(
                where, "punti di lega", _dec(seat.league_points), outcome.league_points[name]
            )
            for code in titles:
                expected_awards[(seat.pk, seat.player_id, code, rules.title_value(code))] += 1
            per_day[turno.giornata.date][name] = (
                outcome.league_points[name],
                1,
                Counter(titles),
            )
    stored_awards = Counter(
        (seat, player, code, _dec(value))
        for seat, player, code, value in TitleAward.objects.filter(season=season).values_list(
            "seat_id", "player_id", "code", "value"
        )
    )
    foreign = TitleAward.objects.filter(seat__turno__season=season).exclude(season=season).count()
    out.compare("titoli", "titoli assegnati a un'altra stagione", foreign, 0)
    for key in sorted(set(stored_awards) | set(expected_awards), key=str):
        if stored_awards[key] != expected_awards[key]:
            out.compare(
                said(gettext_noop("titolo %(code)s (posto %(seat)s)"), code=key[2], seat=key[0]),
                "assegnazioni",
                stored_awards[key],
                expected_awards[key],
            )

    # giornate and absences
    by_date = {d.date: d for d in days}
    giornate = list(Giornata.objects.filter(season=season).order_by("date"))
    names = {pk: name for name, pk in roster.items()}
    # the stored states name players by primary key (carried series may name non-members)
    everyone = set().union(*(state_player_ids(g.state_after) for g in giornate)) - set(names)
    state_names = {
        **names,
        **dict(Player.objects.filter(pk__in=everyone).values_list("pk", "name")),
    }
    expected_absences: dict[tuple[dt.date, str], Decimal] = {}
    for g in giornate:
        day = by_date.get(g.date)
        where = said(AT_GIORNATA, date=g.date.isoformat())
        out.compare(where, "punteggio più basso", _dec(g.lowest), day.lowest if day else None)
        if day is not None:
            assert day.state_after is not None
            stored_state = Giornata.load_state(g.state_after, state_names).to_dict()
            out.compare(where, "stato dopo", stored_state, day.state_after.to_dict())
            for name, lp in day.absences.items():
                expected_absences[(g.date, name)] = lp
    # the Classifica's running totals kept after each giornata (None: not written yet)
    absent_on: dict[dt.date, list[tuple[str, Decimal]]] = defaultdict(list)
    for (date, name), lp in expected_absences.items():
        absent_on[date].append((name, lp))
    running: dict[str, tuple[Decimal, int, int, Counter]] = {}
    for g in giornate:
        for name, (lp, n, won) in per_day.get(g.date, {}).items():
            score, turni_n, absences_n, titles = running.get(name, (Decimal(0), 0, 0, Counter()))
            running[name] = (score + lp, turni_n + n, absences_n, titles + won)
        for name, lp in absent_on.get(g.date, ()):
            score, turni_n, absences_n, titles = running.get(name, (Decimal(0), 0, 0, Counter()))
            running[name] = (score + lp, turni_n, absences_n + 1, titles)
        if g.totals is not None:
            try:
                stored = {
                    state_names.get(int(pid), pid): (_dec(Decimal(s)), t, a, dict(w))
                    for pid, (s, t, a, w) in g.totals.items()
                }
            except (AttributeError, TypeError, ValueError, ArithmeticError):
                stored = g.totals  # not the shape the ledger writes (a hostile backup): as it is
            out.compare(
                said(AT_GIORNATA, date=g.date.isoformat()),
                "totali dopo",
                stored,
                {name: (_dec(s), t, a, dict(w)) for name, (s, t, a, w) in running.items()},
            )
    stored_absences: dict[tuple[dt.date, str], Decimal | None] = {}
    for date, player_id, lp in Absence.objects.filter(season=season).values_list(
        "giornata__date", "player_id", "league_points"
    ):
        stored_absences[(date, names.get(player_id, str(player_id)))] = _dec(lp)
    for key in sorted(set(stored_absences) | set(expected_absences)):
        out.compare(
            said(
                gettext_noop("giornata %(date)s, %(player)s"),
                date=key[0].isoformat(),
                player=key[1],
            ),
            "assenza",
            stored_absences.get(key),
            expected_absences.get(key),
        )

    # the Classifica Generale
    last = days[-1].date if days else None
    prev_state = days[-2].state_after if len(days) >= 2 else None

    def standings(before: dt.date | None) -> list[StandingRecord]:
        rows = []
        for name in sorted(roster):
            score, turni_n, titles = Decimal(0), 0, Counter()
            for date, results in per_day.items():
                if before is not None and date >= before:
                    continue
                if name in results:
                    lp, n, t = results[name]
                    score, turni_n, titles = score + lp, turni_n + n, titles + t
            absences_n = 0
            for (date, who), lp in expected_absences.items():
                if who == name and (before is None or date < before):
                    score, absences_n = score + lp, absences_n + 1
            rows.append(
                StandingRecord(
                    player=name,
                    score=score,
                    series="",
                    turni=turni_n,
                    absences=absences_n,
                    titles=dict(titles),
                )
            )
        return rows

    now = rank_classifica(standings(None))
    before = (
        {row.player: place for place, row in rank_classifica(standings(last))}
        if prev_state is not None
        else {}
    )
    final = state if days else start
    previous = prev_state or start
    expected_rows = {
        row.player: (
            place,
            before.get(row.player),
            row.score,
            final.series.get(row.player, rules.start_series),
            previous.series.get(row.player, rules.start_series),
            row.turni,
            row.absences,
            row.scudetti,
            dict(row.titles),
            final.streak.get(row.player, 0),
            classifica_figures(
                row.score,
                final.series.get(row.player, rules.start_series),
                row.turni,
                row.absences,
                row.scudetti,
            ),
        )
        for place, row in now
    }
    stored_rows = {
        s.player.name: (
            s.place,
            s.previous_place,
            _dec(s.score),
            s.series,
            s.previous_series,
            s.turni,
            s.absences,
            s.scudetti,
            s.titles,
            s.streak,
            s.extra,
        )
        for s in Standing.objects.filter(season=season).select_related("player")
    }
    fields = (
        "posto",
        "posto precedente",
        "punteggio",
        "serie",
        "serie precedente",
        "turni",
        "assenze",
        "scudetti",
        "titoli",
        "serie di scudetti",
        "colonne",  # the figures kingscore prints, kept beside the columns
    )
    if not days and not stored_rows:
        expected_rows = {}  # no turno closed yet: the Classifica has not been written
    for name in sorted(set(stored_rows) | set(expected_rows)):
        stored, expected = stored_rows.get(name), expected_rows.get(name)
        if stored is None or expected is None:
            out.compare(said(AT_CLASSIFICA, player=name), "riga", stored, expected)
            continue
        for field, a, b in zip(fields, stored, expected, strict=True):
            out.compare(said(AT_CLASSIFICA, player=name), field, a, b)
    ranked = now if expected_rows else ()  # written with the Classifica
    _check_player_figures(out, season, turni, scores, days, per_day, expected_absences, ranked)

    # a season that carries the series of the season before starts from its final Classifica
    if season.series_origin == CARRIED:
        source = season.series_source
        out.compare("serie di partenza", "stagione di provenienza", source is not None, True)
        if source is not None:
            out.compare(
                "serie di partenza",
                "stagione di provenienza chiusa",
                source.closed_at is not None,
                True,
            )
            out.compare(
                "serie di partenza",
                "serie finali riportate",
                season.start_series,
                final_series(source),
            )

    # the audit trail: an explicit recompute always says why
    for at, reason in SeasonEvent.objects.filter(season=season, kind="recompute").values_list(
        "at", "reason"
    ):
        out.compare(
            said(gettext_noop("ricalcolo del %(at)s"), at=f"{at:%d/%m/%Y %H:%M}"),
            "motivazione presente",
            bool(reason.strip()),
            True,
        )
    return out.found
