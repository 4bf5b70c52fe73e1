"""Migrations 0017-0018: each C.A.F. member's checkpoint of the player page's figures
(``PlayerFigures.base_date`` and ``base``) and each giornata's running totals of the Classifica
(``Giornata.totals``), filled from the stored seats, absences and titles of a club's database
written before the upgrade: the same values a refresh keeps, every other stored value as it
was, and ``check_ledger`` finds nothing, before and after a reopen and a close."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.demo import simulated_season
from scoring.models import Giornata, PlayerFigures, Standing, Turno
from scoring.services.interchange import season_import
from scoring.services.ledger import ledger_differences
from scoring.services.turni import turno_close, turno_reopen

BEFORE = [("scoring", "0016_news_language")]
AFTER = [("scoring", "0018_giornata_totals")]  # and every later one: the schema the code reads
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]


def migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    if target is AFTER:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


def figures() -> dict:
    return {
        pid: rest
        for pid, *rest in PlayerFigures.objects.values_list(
            "player_id", "figures", "played", "line", "base_date", "base"
        )
    }


def totals() -> dict:
    return dict(Giornata.objects.values_list("date", "totals"))


def standing() -> list:
    return list(
        Standing.objects.order_by("player_id").values_list(
            "player_id", "place", "previous_place", "score", "turni", "absences", "titles"
        )
    )


@pytest.mark.django_db(transaction=True)
def test_the_checkpoints_are_filled_from_the_stored_seats():
    season = season_import(
        data=simulated_season(name="caf", players=PLAYERS, giornate=4, attendance=0.7, seed=2)
    )
    kept = figures()  # as an import keeps them: the figures before each one's last giornata
    assert len(kept) == len(PLAYERS)
    # a checkpoint for every member who played, none for who never sat at a table
    assert (
        sorted(
            (bool(played), isinstance(base_date, dt.date), base is not None)
            for _f, played, _line, base_date, base in kept.values()
        )
        == [(False, False, False)] * 2 + [(True, True, True)] * 4
    )
    running = totals()  # as an import keeps them: every giornata's
    assert len(running) == 2 and all(t is not None for t in running.values())
    table = standing()
    try:
        migrate(BEFORE)
        with connection.cursor() as cursor:  # a club's rows as the older code wrote them
            cursor.execute("SELECT player_id, figures, played FROM scoring_playerfigures")
            assert len(cursor.fetchall()) == len(PLAYERS)
            cursor.execute("SELECT date, lowest, state_after FROM scoring_giornata")
            assert len(cursor.fetchall()) == 2
    finally:
        migrate(AFTER)
    assert figures() == kept
    assert totals() == running
    assert standing() == table
    assert ledger_differences(seasons=[season]) == []
    last = Turno.objects.filter(season=season).order_by("-giornata__date", "-number").first()
    turno_reopen(turno=last, reason="prova")
    assert ledger_differences(seasons=[season]) == []
    turno_close(turno=last)
    assert (figures(), totals(), standing()) == (kept, running, table)
    assert ledger_differences(seasons=[season]) == []
