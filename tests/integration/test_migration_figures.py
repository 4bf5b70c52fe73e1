"""Migration 0017: each C.A.F. member's checkpoint of the player page's figures
(``PlayerFigures.base_date`` and ``base``), filled from the stored seats of a club's database
written before the upgrade: the same checkpoint a refresh keeps, every other stored value as it
was, and ``check_ledger`` finds nothing, before and after a close and a reopen."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.demo import simulated_season
from scoring.models import PlayerFigures, Turno
from scoring.services.interchange import season_import
from scoring.services.ledger import ledger_differences
from scoring.services.turni import turno_close, turno_reopen

BEFORE = [("scoring", "0016_news_language")]
AFTER = [("scoring", "0017_player_figures_checkpoint")]
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]


def migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def figures() -> dict:
    return {
        pid: rest
        for pid, *rest in PlayerFigures.objects.values_list(
            "player_id", "figures", "played", "line", "base_date", "base"
        )
    }


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
    try:
        migrate(BEFORE)
        with connection.cursor() as cursor:  # a club's rows as the older code wrote them
            cursor.execute("SELECT player_id, figures, played FROM scoring_playerfigures")
            assert len(cursor.fetchall()) == len(PLAYERS)
    finally:
        migrate(AFTER)
    assert figures() == kept
    assert ledger_differences(seasons=[season]) == []
    last = Turno.objects.filter(season=season).order_by("-giornata__date", "-number").first()
    turno_reopen(turno=last, reason="prova")
    assert ledger_differences(seasons=[season]) == []
    turno_close(turno=last)
    assert figures() == kept
    assert ledger_differences(seasons=[season]) == []
