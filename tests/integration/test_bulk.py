"""The row writers of the import and the recompute (``scoring/services/bulk.py``): what they
write is read back exactly, they say how many rows they touched, and nothing is sent for none."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.models import Giornata, Player
from scoring.services.bulk import delete_ids, insert_rows, update_rows
from scoring.services.season import season_create

pytestmark = pytest.mark.django_db

WHEN = timezone.make_aware(dt.datetime(2026, 11, 20, 21, 30))


def _players(names) -> list[int]:
    assert insert_rows(Player, ["name", "active", "created_at"], [(n, True, WHEN) for n in names])
    return list(Player.objects.filter(name__in=names).order_by("name").values_list("pk", flat=True))


def test_insert_rows_writes_every_value_and_counts_the_rows():
    rows = [("Anna", True, WHEN), ("Bruno", False, WHEN)]
    assert insert_rows(Player, ["name", "active", "created_at"], rows) == 2
    got = list(Player.objects.order_by("name").values_list("name", "active", "created_at"))
    assert got == [("Anna", True, WHEN), ("Bruno", False, WHEN)]


def test_nothing_to_write_sends_no_query_and_says_zero():
    with CaptureQueriesContext(connection) as ctx:
        assert insert_rows(Player, ["name", "active", "created_at"], []) == 0
        assert update_rows(Player, ["active"], []) == 0
        assert delete_ids(Player, []) == 0
    assert len(ctx.captured_queries) == 0


def test_decimals_json_and_dates_are_prepared_per_row():
    season = season_create(name="2026-27")
    state = {"series": {"Anna": "A"}}  # the same object on two rows: prepared once, written twice
    rows = [
        (season.pk, dt.date(2026, 11, 20), Decimal("-12.50"), state),
        (season.pk, dt.date(2026, 11, 27), Decimal("3.00"), state),
    ]
    assert insert_rows(Giornata, ["season", "date", "lowest", "state_after"], rows) == 2
    stored = Giornata.objects.order_by("date").values_list("date", "lowest", "state_after")
    assert list(stored) == [
        (dt.date(2026, 11, 20), Decimal("-12.50"), {"series": {"Anna": "A"}}),
        (dt.date(2026, 11, 27), Decimal("3.00"), {"series": {"Anna": "A"}}),
    ]
    Giornata.objects.all().delete()  # raw rows, not a season's replay: check_ledger runs after


@pytest.mark.parametrize("count", [3, 250])  # below and above the COPY threshold of PostgreSQL
def test_update_rows_changes_exactly_the_rows_it_names(count):
    ids = _players([f"P{i:03d}" for i in range(count)])
    changed = ids[::2]
    assert update_rows(
        Player, ["active", "name"], [(False, f"X{pk}", pk) for pk in changed]
    ) == len(changed)
    got = dict(Player.objects.values_list("pk", "active"))
    assert sorted(pk for pk, active in got.items() if not active) == sorted(changed)
    assert Player.objects.get(pk=changed[0]).name == f"X{changed[0]}"
    assert Player.objects.get(pk=ids[1]).name == "P001"


def test_delete_ids_deletes_in_batches_and_counts():
    ids = _players(["A", "B", "C", "D", "E"])
    assert delete_ids(Player, ids[:4], batch=3) == 4
    assert list(Player.objects.values_list("pk", flat=True)) == ids[4:]
