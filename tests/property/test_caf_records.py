"""King C.A.F. as a records system (issue "One ledger", step 5), checked against the counts
ledger that keeps it today: random short seasons are recorded on today's path (the import in
bulk, then through ``scoring.api`` a late joiner's turno deal by deal and a turno left open on
the same giornata); each stored turno is written back as its interchange record by the
interchange's own writer (``turno_to_input(turno_record(...))``), and the system's records side
applied to those records must give exactly what the counts ledger stored:

- per deal: game, caller, trump, forced, scazzata, cappotto (:meth:`smazzata_keys`);
- per seat: total, place, ratio (Decimal), series before and after, titles, league points
  (:meth:`seat_results` of :meth:`score_turno` with the season's chain before the giornata, and
  the fold's own outcomes);
- per giornata: its lowest league points; per member: the Classifica row (place, league points,
  series, turni, absences, Scudetti, every title), by the fold and by :meth:`standing` (a full
  replay, and from a checkpoint).
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from itertools import count

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from scoring import api
from scoring.demo import simulated_season
from scoring.models import Absence, Giornata, Seat, Smazzata, Standing, Turno
from scoring.rules.caf import caf
from scoring.rules.caf.interchange import turno_to_input
from scoring.rules.caf.simulator import simulate_turno
from scoring.rules.systems import get_system
from scoring.selectors import turno_record, turno_with_everything
from scoring.services.interchange import season_import

pytestmark = pytest.mark.django_db

IMPORTED = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
LATE = "Gino"  # enrolled after the imported giornate: absent from each of them (SPEC §8.1)
NEVER = "Zeno"  # on the roster, never seated
ROSTER = [*IMPORTED, NEVER, LATE]
SEASONS = count(1)

seasons = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 10**6),
        "giornate": st.integers(1, 4),
        "pending": st.booleans(),
        "reopen": st.booleans(),
        "sizes": st.sampled_from([(4,), (5,), (6,), (3, 3)]),
        "sanctions": st.sampled_from([0.0, 0.5]),
        "penalties": st.sampled_from([0.0, 0.3]),
    }
)


def _record(rules, season, draw) -> tuple[Turno, Turno | None]:
    """The season on today's path: the document imported, the late joiner enrolled, a giornata
    after it with the late joiner's turno recorded deal by deal and closed, and (``pending``) a
    turno of that giornata started before the close and left open: its players are
    not absent from the giornata (SPEC §8.1, the counts ledger's ``pending``); then
    (``reopen``) the season's first turno reopened, given a sanction and closed again."""
    doc = simulated_season(
        name=season,
        players=IMPORTED,
        giornate=draw["giornate"],
        seed=draw["seed"],
        start=dt.date(2026, 9, 4),
        table_sizes=draw["sizes"],
        attendance=0.9,
        penalty_chance=draw["penalties"],
        sanction_chance=draw["sanctions"],
    )
    doc["roster"] = [*IMPORTED, NEVER]
    stored = season_import(data=doc, current=False)
    api.member_enroll(season=stored, player=LATE)
    rng = random.Random(draw["seed"])
    seated = [LATE, *rng.sample(IMPORTED, 3)]
    date = dt.date(2026, 9, 4) + dt.timedelta(days=7 * draw["giornate"])
    game = simulate_turno(rules, seated, rng, date=date, number=1, penalty_chance=0.5)
    turno = api.turno_start(season=stored, date=date, players=seated, first_dealer=seated[0])
    deal = turno_to_input(game)
    for sm in deal["smazzate"]:
        api.smazzata_record(turno=turno, record=sm)
    for pen in deal["penalties"]:
        api.penalita_add(turno=turno, **{k: pen[k] for k in ("player", "points", "article")})
    left = [p for p in IMPORTED if p not in seated]
    pending = None
    if draw["pending"]:  # started before the close: the close's recompute excuses them
        pending = api.turno_start(season=stored, date=date, players=left, first_dealer=left[0])
    api.turno_close(turno=turno, tiebreak=list(game.tiebreak))
    first = Turno.objects.filter(season=stored).order_by("giornata__date", "number").first()
    if draw["reopen"] and first != turno:
        # the first giornata changed after the later ones closed: a Retrocessione per contatore
        # added on reopen moves the chain (series, streaks, titles) of every giornata after it
        api.turno_reopen(turno=first, reason="verifica del contatore")
        taken = first.sanctions.values_list("player_id", flat=True)
        free = first.seats.exclude(player_id__in=list(taken)).order_by("position").first()
        if free is not None:
            api.sanction_add(turno=first, player=free.player.name, reason="contatore")
        api.turno_close(turno=first)
    return turno, pending


def _stored_deals(turno: Turno) -> list[dict]:
    return [
        {
            "game": sm.game,
            "caller": sm.caller.name,
            "trump": sm.trump or None,
            "forced": sm.forced,
            "scazzata": sm.scazzata,
            "cappotto": sm.cappotto.name if sm.cappotto else None,
        }
        for sm in Smazzata.objects.filter(turno=turno)
        .select_related("caller", "cappotto")
        .order_by("number")
    ]


def _stored_seat(seat: Seat) -> dict:
    return {
        "total": seat.total,
        "place": seat.place,
        "ratio": seat.ratio,
        "series_before": seat.series_before,
        "series_after": seat.series_after,
        "titles": list(seat.titles),
        "league_points": seat.league_points,
    }


@settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],  # a season through the database: no shrinking
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(draw=seasons)
def test_the_records_side_of_caf_gives_what_the_counts_ledger_stored(draw):
    system = get_system("caf")
    rules = caf()
    name = f"P{next(SEASONS)}"
    _late, pending = _record(rules, name, draw)
    closed = list(
        turno_with_everything(
            Turno.objects.filter(season__name=name, status=Turno.CHIUSO).order_by(
                "giornata__date", "number"
            )
        )
    )
    records = {t.pk: turno_to_input(turno_record(t)) for t in closed}
    state = system.standing_start(rules)
    states = []
    for giornata in Giornata.objects.filter(season__name=name).order_by("date"):
        day = [t for t in closed if t.giornata_id == giornata.pk]
        chain = system.standing_chain(state)
        seats = []
        for turno in day:
            record = records[turno.pk]
            running = system.score_running(rules, record)
            assert [system.smazzata_keys(sm) for sm in running["smazzate"]] == _stored_deals(turno)
            results = system.seat_results(system.score_turno(rules, record, before=chain))
            stored = {s.player.name: _stored_seat(s) for s in turno.seats.all()}
            assert {
                p: {
                    "total": r["total"],
                    "place": r["place"],
                    "ratio": r["ratio"],
                    "series_before": r["extra"]["series_before"],
                    "series_after": r["extra"]["series_after"],
                    "titles": r["extra"]["titles"],
                    "league_points": r["score"],
                }
                for p, r in results.items()
            } == stored
            assert all(type(r["ratio"]) is type(r["score"]) is Decimal for r in results.values())
            seats.append(results)
        if pending is not None and pending.giornata_id == giornata.pk:
            seats.append({s.player.name: {"place": None} for s in pending.seats.all()})
        outcomes = system.giornata_outcomes(rules, state, seats)
        assert [
            {p: (o["series_after"], o["titles"], o["league_points"]) for p, o in out.items()}
            for out in outcomes
        ] == [
            {
                p: (r["extra"]["series_after"], r["extra"]["titles"], r["score"])
                for p, r in results.items()
            }
            for results in seats
            if all(r.get("place") for r in results.values())
        ]
        after = system.standing_fold(state, seats, rules=rules)
        lowest = Decimal(after["lowest"]) - Decimal(state["lowest"])
        assert giornata.lowest == (lowest if day else None)
        present = {p for results in seats for p in results}
        absent = Absence.objects.filter(giornata=giornata).select_related("player")
        assert {a.player.name: a.league_points for a in absent} == (
            {p: lowest for p in ROSTER if p not in present} if day else {}
        )
        state = after
        states.append((giornata.date, state))
    roster = ROSTER
    rows = system.standing_rank(rules, roster, state)
    kept = Standing.objects.filter(season__name=name).select_related("player")
    assert [
        {
            "place": r["place"],
            "player": r["player"],
            "score": Decimal(r["league_points"]),
            "series": r["series"],
            "turni": r["turni"],
            "absences": r["absences"],
            "scudetti": r["scudetti"],
            "titles": r["titles"],
        }
        for r in rows
    ] == [
        {
            "place": s.place,
            "player": s.player.name,
            "score": s.score,
            "series": s.series,
            "turni": s.turni,
            "absences": s.absences,
            "scudetti": s.scudetti,
            "titles": s.titles,
        }
        for s in kept.order_by("place", "-scudetti", "player__name")
    ]
    assert [{k: v for k, v in r.items() if k != "titles"} for r in rows] == api.season_standing(
        season=Turno.objects.filter(season__name=name).first().season_id
    )
    if pending is None:  # the full replay reads closed turni only: nobody is excused
        turni = [records[t.pk] for t in closed]  # in date order
        assert system.standing(rules, roster, turni) == rows
        assert system.standing(rules, roster, turni, checkpoint=states[0]) == rows
