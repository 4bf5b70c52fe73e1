"""Every generic game's sample document: import_season, export_season, backup and restore."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.models import Season, Seat, Turno
from scoring.rules.systems import get_system
from scoring.services.backup import backup_document, backup_restore
from scoring.services.games import game_check
from scoring.services.interchange import season_export, season_import

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SAMPLES = [
    "ramino-sample.json",
    "skat-sample.json",
    "king-classico-sample.json",
    "king-internazionale-sample.json",
    "le-king-sample.json",
]


@pytest.mark.parametrize("sample", SAMPLES)
def test_import_stores_what_kingscore_computes_and_exports_it_back(sample):
    doc = json.loads((FIXTURES / sample).read_text(encoding="utf-8"))
    expected = get_system(doc["ruleset"]).score_document(doc)
    season = season_import(data=doc)
    assert season.ruleset_code == doc["ruleset"] and season.system.ledger == "records"
    for out in expected["turni"]:
        turno = Turno.objects.get(
            season=season, giornata__date=out["date"], number=out.get("number", 1)
        )
        assert turno.status == Turno.CHIUSO
        places = {s.player.name: s.place for s in Seat.objects.filter(turno=turno)}
        assert places == out["places"]
    assert game_check(season) == []
    exported = season_export(season=season)
    assert get_system(doc["ruleset"]).score_document(exported) == expected


def test_backup_restore_keeps_every_generic_season():
    for sample in SAMPLES:
        doc = json.loads((FIXTURES / sample).read_text(encoding="utf-8"))
        season_import(data={**doc, "season": f"{doc['ruleset']} {doc.get('season', '')}"})
    first = backup_document()
    backup_restore(data=json.loads(json.dumps(first)), force=True)
    assert backup_document() == first
    for season in Season.objects.all():
        assert game_check(season) == []


def test_the_zero_sum_check_is_on_the_verbale(client):
    from django.urls import reverse

    doc = json.loads((FIXTURES / "le-king-sample.json").read_text(encoding="utf-8"))
    season = season_import(data=doc)
    turno = Turno.objects.get(season=season)
    page = client.get(reverse("scoring:turno", args=[turno.pk])).content.decode()
    assert 'data-balance="0"' in page  # 4-player Le King with default values: zero-sum (§C.8)
    standing = client.get(reverse("scoring:home") + f"?stagione={season.pk}").content.decode()
    assert "Matchpoints" in standing
