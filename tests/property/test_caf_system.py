"""King C.A.F. as a full game system, checked against what the one recording path
(services/deals.py, through scoring.api) stores on random turni: what the system's ledger side
says (running totals, each deal's points, forced calls, scazzate, cappotti, places, ratios, ties)
is exactly what is stored. The guard rail of C.A.F.'s move onto the one ledger (issue 24)."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest

from scoring import api
from scoring.models import Seat, Smazzata
from scoring.rules.systems import get_system

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]


def _stored_deals(turno) -> list[dict]:
    rows = Smazzata.objects.filter(turno=turno).select_related("caller", "dealer", "cappotto")
    return [
        {
            "number": sm.number,
            "dealer": sm.dealer.name,
            "caller": sm.caller.name,
            "game": sm.game,
            "forced": sm.forced,
            "trump": sm.trump or None,
            "points": {r.player.name: r.points for r in sm.results.select_related("player")},
            "scazzata": sm.scazzata,
            "cappotto": sm.cappotto.name if sm.cappotto else None,
        }
        for sm in rows.order_by("number")
    ]


def test_the_caf_system_says_what_caf_s_ledger_stores_on_random_turni():
    caf = get_system("caf")
    rules = caf.rules(None)
    season = api.season_create(name="2026-27", ruleset="caf", current=False)
    for name in NAMES:
        api.member_enroll(season=season, player=name)
    rng = random.Random(11)
    for day, n in enumerate([4, 5, 6, 4], start=1):
        players = rng.sample(NAMES, n)
        record = caf.random_turno(rng, players, rules)
        record = {**record, "date": f"2026-10-{day:02d}", "sanctions": []}
        turno = api.turno_start(
            season=season,
            date=dt.date(2026, 10, day),
            players=record["players"],
            first_dealer=record["first_dealer"],
        )
        for deal in record["smazzate"]:
            api.smazzata_record(turno=turno, record=deal)
        for penalty in record["penalties"]:
            api.penalita_add(turno=turno, **penalty)
        running = caf.score_running(rules, {**record, "tiebreak": []})
        deals = [{k: v for k, v in sm.items() if k != "result"} for sm in running["smazzate"]]
        assert _stored_deals(turno) == deals
        seats = {
            s.player.name: s for s in Seat.objects.filter(turno=turno).select_related("player")
        }
        assert {p: s.total for p, s in seats.items()} == running["totals"]
        assert {p: s.penalty_total for p, s in seats.items()} == running["penalties"]
        tied = caf.ties(rules, {**record, "tiebreak": []})
        if tied:  # the spareggio the generator drew settles exactly those groups
            assert caf.ties(rules, record) == []
            assert {p for group in tied for p in group} <= set(record["tiebreak"])
        api.turno_close(turno=turno, tiebreak=record["tiebreak"] or None)
        results = caf.seat_results(caf.score_turno(rules, record))
        stored = Seat.objects.filter(turno=turno).select_related("player")
        assert {s.player.name: (s.total, s.place, s.ratio) for s in stored} == {
            p: (r["total"], r["place"], r["ratio"]) for p, r in results.items()
        }
        assert all(isinstance(r["ratio"], Decimal) for r in results.values())


def test_ties_of_a_finished_turno_name_the_tied_players_in_seat_order():
    caf = get_system("caf")
    rules = caf.rules(None)
    rng = random.Random(5)
    for _ in range(40):  # the first generated turno with a spareggio
        record = caf.random_turno(rng, ["Anna", "Bruno", "Carla", "Dario"], rules)
        if record["tiebreak"]:
            break
    else:
        pytest.skip("no tie in 40 random turni")
    open_tie = caf.ties(rules, {**record, "date": "2026-10-01", "tiebreak": []})
    totals = caf.score_running(rules, {**record, "date": "2026-10-01", "tiebreak": []})["totals"]
    assert open_tie and all(len({totals[p] for p in group}) == 1 for group in open_tie)
    seat = {p: i for i, p in enumerate(record["players"])}
    assert all(group == sorted(group, key=seat.__getitem__) for group in open_tie)
    assert caf.ties(rules, {**record, "date": "2026-10-01"}) == []


def test_describe_names_the_caller_the_game_and_what_happened():
    caf = get_system("caf")
    deal = {
        "caller": "Anna",
        "game": "BRISCOLA",
        "trump": "H",
        "forced": True,
        "scazzata": False,
        "cappotto": "Anna",
    }
    assert caf.describe(deal) == "Anna chiama Briscola, briscola cuori, obbligato, cappotto di Anna"
