"""Migrations 0014-0021: a club's database written before the upgrade (the five games' records
and C.A.F.'s states after each giornata naming players by name, C.A.F.'s counts on its results)
moves to records by seat, states by player and C.A.F.'s counts in its records, with every
standing, Verbale number and closing time as it was, and ``check_ledger`` finds nothing;
backwards, they name the players again and C.A.F.'s results get their counts back."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.demo import simulated_season
from scoring.demo_games import game_season
from scoring.models import Giornata, Player, Seat, Smazzata, Standing, Turno
from scoring.records import record_names, seat_names
from scoring.services.interchange import season_import
from scoring.services.ledger import ledger_differences

BEFORE = [("scoring", "0013_player_figures")]
AFTER = [("scoring", "0015_state_by_player")]
GAMES = {
    "king-classico": 4,
    "king-internazionale": 4,
    "le-king": 3,
    "skat-isko": 3,
    "ramino-101": 4,
}
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
CAF = ["Anna", "Carla", "Dario", "Elena", "Franco"]


def migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def migrate_latest() -> None:
    """The schema the code reads (and the next test expects): every migration applied."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


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
    for name in {*PLAYERS, *CAF}:
        Player.objects.create(name=name)
    seasons = {
        code: game_season(
            code=code, name=code, players=PLAYERS[:size], giornate=2, seed=3, attendance=1.0,
            table_sizes=(size,),
        )
        for code, size in GAMES.items()
    }  # fmt: skip
    caf_data = simulated_season(name="caf", players=CAF, giornate=3, attendance=1.0)
    seasons["caf"] = season_import(data=caf_data)
    stored = dict(Smazzata.objects.values_list("pk", "record"))
    states = dict(Giornata.objects.values_list("pk", "state_after"))
    pks = {name: str(pk) for name, pk in Player.objects.values_list("name", "pk")}
    assert any(set(s.get("series", {})) & set(pks.values()) for s in states.values())
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
    # C.A.F.'s counts as the import file gives them, by (smazzata, player); the five games none
    deal = {
        (t.giornata.date.isoformat(), t.number, sm): pk
        for pk, t, sm in (
            (sm.pk, sm.turno, sm.number)
            for sm in Smazzata.objects.filter(turno__season=seasons["caf"]).select_related(
                "turno__giornata"
            )
        )
    }
    caf_counts = {
        (deal[(t["date"], t["number"], k)], int(pks[name])): count
        for t in caf_data["turni"]
        for k, sm in enumerate(t["smazzate"], start=1)
        for name, count in sm["result"].items()
    }
    try:
        migrate(BEFORE)
        # 0021 backwards: every result (and its one past version, as imported) has its count
        # again, C.A.F.'s from its record, the five games' none
        for table in ("scoring_result", "scoring_historicalresult"):
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT smazzata_id, player_id, count FROM {table}")
                found = cursor.fetchall()
            assert {(sm, p): c for sm, p, c in found if (sm, p) in caf_counts} == caf_counts
            assert len(found) > len(caf_counts)
            assert {c for sm, p, c in found if (sm, p) not in caf_counts} == {None}
            assert len({(sm, p) for sm, p, _ in found}) == len(found)  # one version each
        # as the main of then kept them: the records the services were given, by name; none
        # for C.A.F. (its counts were the Result rows until 0019)
        caf = set(
            Smazzata.objects.filter(turno__season=seasons["caf"]).values_list("pk", flat=True)
        )
        assert dict(Smazzata.objects.values_list("pk", "record")) == {
            pk: {} if pk in caf else r for pk, r in by_name.items()
        }
        name_of = {pk: name for name, pk in pks.items()}
        # C.A.F.'s states by name; the five games' checkpoints (``fold``), which the older code
        # does not know, dropped: derived, they are computed again at the next close
        assert dict(Giornata.objects.values_list("pk", "state_after")) == {
            pk: {part: {name_of[k]: v for k, v in s[part].items()} for part in s if part != "fold"}
            if s
            else s
            for pk, s in states.items()
        }
        # a name corrected before the upgrade (the replay of the five games' seasons broke):
        # the migration finds the player through the turno (the caller, the one unnamed seat)
        Player.objects.filter(name="Bruno").update(name="Bruno Rossi")
        migrate(AFTER)
    finally:
        migrate_latest()
    assert dict(Smazzata.objects.values_list("pk", "record")) == stored
    assert dict(Smazzata.history.values_list("history_id", "record")) == history
    assert dict(Giornata.objects.values_list("pk", "state_after")) == {
        pk: {part: v for part, v in s.items() if part != "fold"} if s else s
        for pk, s in states.items()
    }
    assert ledger() == before
    assert ledger_differences(seasons=list(seasons.values())) == []
