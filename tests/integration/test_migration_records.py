"""Migration 0014: a club's database written before the upgrade (records naming players by name)
moves to records by seat with every standing, Verbale number and closing time as it was, and
``check_ledger`` finds nothing; backwards, the records name the players again."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.demo_games import game_season
from scoring.models import Player, Seat, Smazzata, Standing, Turno
from scoring.records import record_names, seat_names
from scoring.services.ledger import ledger_differences

BEFORE = [("scoring", "0013_player_figures")]
AFTER = [("scoring", "0014_records_by_seat")]
GAMES = {
    "king-classico": 4,
    "king-internazionale": 4,
    "le-king": 3,
    "skat-isko": 3,
    "ramino-101": 4,
}
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]


def migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def ledger() -> tuple:
    """Everything a replay or a page reads, by row and player id (names may change)."""
    return (
        list(
            Turno.objects.order_by("pk").values_list(
                "pk", "status", "verbale_number", "closed_at", "winner_id"
            )
        ),
        list(
            Seat.objects.order_by("pk").values_list(
                "pk", "player_id", "position", "total", "place", "league_points", "extra"
            )
        ),
        list(
            Standing.objects.order_by("pk").values_list(
                "season_id", "player_id", "place", "previous_place", "score", "turni", "extra"
            )
        ),
        list(Smazzata.objects.order_by("pk").values_list("pk", "game", "caller_id", "dealer_id")),
    )


@pytest.mark.django_db(transaction=True)
def test_records_by_name_become_records_by_seat_with_the_same_ledger():
    for name in PLAYERS:
        Player.objects.create(name=name)
    seasons = {
        code: game_season(
            code=code, name=code, players=PLAYERS[:size], giornate=2, seed=3, attendance=1.0,
            table_sizes=(size,),
        )
        for code, size in GAMES.items()
    }  # fmt: skip
    stored = dict(Smazzata.objects.values_list("pk", "record"))
    by_name = {}
    for sm in Smazzata.objects.select_related("turno__season").prefetch_related(
        "turno__seats__player"
    ):
        by_name[sm.pk] = record_names(
            sm.turno.season.system, sm.record, seat_names(sm.turno.seats.all())
        )
    assert any(r != stored[pk] for pk, r in by_name.items())
    history = dict(Smazzata.history.values_list("history_id", "record"))
    before = ledger()
    try:
        migrate(BEFORE)
        # as today's main keeps them: the records the services were given, by name
        assert dict(Smazzata.objects.values_list("pk", "record")) == by_name
        # a name corrected before the upgrade (the replay of its Skat seasons broke): the
        # migration finds the player through the declarer stored beside the record
        Player.objects.filter(name="Bruno").update(name="Bruno Rossi")
        migrate(AFTER)
    finally:
        migrate(AFTER)
    assert dict(Smazzata.objects.values_list("pk", "record")) == stored
    assert dict(Smazzata.history.values_list("history_id", "record")) == history
    assert ledger() == before
    assert ledger_differences(seasons=list(seasons.values())) == []
