"""An import's queries do not grow with its roster (issue 26 item 5): members are looked up and
created in batches, not one ``get_or_create`` each, for C.A.F. and the other games alike."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Enrollment, Player
from scoring.services.bulk import ids_by_name
from scoring.services.interchange import season_import

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _longest_in_list(queries: list[dict]) -> int:
    """The most values any ``IN (...)`` of these queries sends; there must be one such query
    (the members are looked up by name in batches), else the check below would prove nothing."""
    sizes = [m.group(1).count(",") + 1 for q in queries for m in IN_LIST.finditer(q["sql"])]
    assert sizes, "no query with an IN (...) list: the batched lookup is not where it was"
    return max(sizes)


IN_LIST = re.compile(r" IN \(([^()]*)\)")


def _queries(sample: str, extra: int, prefix: str) -> tuple[int, int]:
    doc = json.loads((FIXTURES / sample).read_text(encoding="utf-8"))
    doc["season"] = f"{sample} +{extra}"
    doc["roster"] = list(doc.get("roster") or []) + [f"{prefix} {i:05d}" for i in range(extra)]
    with CaptureQueriesContext(connection) as ctx:
        season = season_import(data=doc, current=False)
    assert Enrollment.objects.filter(season=season).count() >= extra
    # no query sends the whole roster in one IN (...): a million names would pass SQLite's
    # limit of variables (250,000) and the import died with 'too many SQL variables'
    longest = _longest_in_list(ctx.captured_queries)
    assert longest <= 1000
    return len(ctx.captured_queries), longest


@pytest.mark.parametrize("sample", ["skat-sample.json", "season-hand.json"])
def test_a_long_roster_adds_batches_of_queries_not_queries_per_name(sample):
    small, _ = _queries(sample, 10, "Ospite")
    large, longest = _queries(sample, 2000, "Socio")
    # the 2,000 new names are looked up in full batches of ids_by_name's 900
    assert longest == 900
    # bulk writes of the roster rows, a batch per ~100 rows; before: two queries or more a name
    assert large - small <= 100, (small, large)


def test_ids_by_name_creates_the_missing_and_keeps_the_existing():
    kept = Player.objects.create(name="Anna")
    names = ["Anna", *(f"Socio {i:05d}" for i in range(2000))]
    ids = ids_by_name(Player, names, batch=900)
    assert ids["Anna"] == kept.pk and len(ids) == 2001
    assert dict(Player.objects.values_list("name", "pk")) == ids
    assert ids_by_name(Player, names) == ids  # nothing created twice
