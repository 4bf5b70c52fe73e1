"""Two segretari submit smazzata number k of the same turno at the same moment."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection, connections

from scoring.models import Player, Seat, Smazzata
from scoring.rules.problems import RuleViolation
from scoring.services.season import season_create
from scoring.services.turni import turno_start
from tests.helpers import deal_record

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("k", [1, 2])
def test_two_segretari_record_the_same_smazzata(k):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (run with DATABASE_URL=postgres://...)")
    for n in PLAYERS:
        Player.objects.create(name=n)
    season = season_create(name="2026-27")
    turno = turno_start(
        season=season, date=dt.date(2026, 11, 20), players=PLAYERS, first_dealer="Anna"
    )
    if k == 2:
        deal_record(
            turno=turno,
            game="NJ",
            caller="Bruno",
            counts={"Anna": 1, "Bruno": 3, "Carla": 0, "Dario": 0},
            number=1,
        )
    entries = [
        ("NK", "Carla", {"Anna": 0, "Bruno": 1, "Carla": 2, "Dario": 1}),
        ("NQS", "Dario", {"Anna": 0, "Bruno": 0, "Carla": 0, "Dario": 1}),
    ]
    barrier = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def submit(i: int) -> None:
        game, caller, counts = entries[i]
        try:
            barrier.wait(timeout=10)
            outcomes[i] = deal_record(
                turno=turno.pk, game=game, caller=caller, counts=counts, number=k
            )
        except RuleViolation as exc:
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    stored = [o for o in outcomes if isinstance(o, Smazzata)]
    refused = [o for o in outcomes if isinstance(o, RuleViolation)]
    assert len(stored) == 1 and len(refused) == 1
    assert refused[0].problems[0].code == "SMAZZATA_ALREADY_RECORDED"
    assert "già stata registrata" in refused[0].problems[0].message
    assert Smazzata.objects.filter(turno=turno).count() == k
    winner = Smazzata.objects.get(turno=turno, number=k)
    assert winner.results.count() == 4
    # the running totals hold exactly the stored smazzate, nothing doubled
    totals = sum(Seat.objects.filter(turno=turno).values_list("total", flat=True))
    points = sum(r.points for s in Smazzata.objects.filter(turno=turno) for r in s.results.all())
    assert totals == points


CLOSERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_closes_and_reopens_never_fail_and_number_verbali_in_sequence():
    """Four segretari close and reopen four turni of one season at once, over and over: no
    deadlock, no duplicate Verbale, every answer a success or a clear Italian refusal."""
    from scoring.models import Turno
    from scoring.services.turni import turno_close, turno_reopen
    from tests.helpers import play_turno

    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (run with DATABASE_URL=postgres://...)")
    for n in CLOSERS:
        Player.objects.create(name=n)
    season = season_create(name="2026-27")
    work = []  # (turno pk, spareggio order)
    for i in range(4):  # two giornate of two tables each
        players = CLOSERS[:4] if i % 2 == 0 else CLOSERS[4:]
        date = dt.date(2026, 11, 6) + dt.timedelta(days=7 * (i // 2))
        turno, record = play_turno(season, date, players, seed=i, close=False)
        work.append((turno.pk, list(record.tiebreak)))
    errors: list[BaseException] = []
    refusals: list[str] = []
    barrier = threading.Barrier(len(work))

    def segretario(pk: int, tiebreak: list[str]) -> None:
        try:
            barrier.wait(timeout=10)
            for round_ in range(5):
                try:
                    turno_close(turno=pk, tiebreak=tiebreak)
                    turno_reopen(turno=pk, reason=f"controllo {round_}")
                except RuleViolation as exc:
                    refusals.extend(p.message for p in exc.problems)
            turno_close(turno=pk, tiebreak=tiebreak)
        except BaseException as exc:  # anything but a RuleViolation would be a 500
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=segretario, args=w) for w in work]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    assert refusals == []
    numbers = sorted(Turno.objects.filter(season=season).values_list("verbale_number", flat=True))
    assert numbers == [1, 2, 3, 4]
    assert Turno.objects.filter(season=season, status=Turno.CHIUSO).count() == 4
