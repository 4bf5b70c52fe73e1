"""Migration 0022: King C.A.F.'s Classifica rows keep the figures ``kingscore`` prints in
``Standing.extra``, as every game's, copied from their columns. Backwards empties what it
filled; forwards fills the rows a club's older code wrote, every other value as it was; a row
whose ``extra`` is anything else is left as it is both ways (and ``check_ledger`` says so)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring import api
from scoring.demo import simulated_season
from scoring.models import Standing
from scoring.services.interchange import season_import
from scoring.services.ledger import ledger_differences

BEFORE = [("scoring", "0021_drop_result_count")]
AFTER = [("scoring", "0022_caf_standing_figures")]  # and every later one
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
SKAT = Path(__file__).resolve().parents[2] / "fixtures" / "skat-sample.json"
EDITED = {"league_points": "1.00", "series": "A", "turni": 0, "absences": 0, "scudetti": 0}


def migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    if target is AFTER:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


def table() -> list[tuple]:
    """Every stored value of every Classifica row."""
    fields = [f.attname for f in Standing._meta.concrete_fields]
    return list(Standing.objects.order_by("pk").values_list(*fields))


def extras(season) -> list[dict]:
    return list(
        Standing.objects.filter(season=season).order_by("pk").values_list("extra", flat=True)
    )


@pytest.mark.django_db(transaction=True)
def test_the_caf_rows_get_their_figures_from_their_columns_and_lose_them_backwards():
    caf = season_import(
        data=simulated_season(name="caf", players=PLAYERS, giornate=4, attendance=0.7, seed=2)
    )
    skat = season_import(data=json.loads(SKAT.read_text(encoding="utf-8")))
    standing = {s.pk: api.season_standing(season=s) for s in (caf, skat)}
    assert [(r["place"], r["player"], r["scudetti"]) for r in standing[caf.pk]] == [
        (1, "Dario", 1),
        (2, "Carla", 1),
        (3, "Anna", 0),
        (4, "Bruno", 0),
        (5, "Elena", 0),
        (5, "Franco", 0),
    ]
    assert [len(r) for r in standing[caf.pk]] == [7] * 6
    rows, skat_extra = table(), extras(skat)
    # as the refresh writes them: kingscore's figures after place and player, in its order
    assert extras(caf) == [
        {k: v for k, v in r.items() if k not in ("place", "player")} for r in standing[caf.pk]
    ]
    edited = Standing.objects.filter(season=caf).order_by("pk").last()
    try:
        migrate(BEFORE)
        # backwards: the C.A.F. rows as the older code kept them, nothing else changed
        assert extras(caf) == [{}] * 6
        assert extras(skat) == skat_extra
        assert [r[:-1] for r in table()] == [r[:-1] for r in rows]
        # a row whose extra is no copy of its columns (edited by hand) is left as it is
        Standing.objects.filter(pk=edited.pk).update(extra=EDITED)
        migrate(AFTER)
        assert Standing.objects.get(pk=edited.pk).extra == EDITED
        differences = ledger_differences(seasons=[caf])
        assert [(str(d.where), str(d.field), d.stored, d.expected) for d in differences] == [
            (f"classifica, {edited.player.name}", "colonne", EDITED, edited.extra)
        ]
        migrate(BEFORE)
        assert Standing.objects.get(pk=edited.pk).extra == EDITED
        Standing.objects.filter(pk=edited.pk).update(extra={})
    finally:
        migrate(AFTER)
    assert table() == rows
    assert {s.pk: api.season_standing(season=s) for s in (caf, skat)} == standing
    assert ledger_differences() == []
