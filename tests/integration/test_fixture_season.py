"""fixtures/season-hand.json: a season checked by hand, shared by the tests and the demo.

Two giornate of the same hand-scored turno (tests/rules/test_full_turno.py: totals Anna 14,
Bruno -1, Carla 48, Dario 23) and Elena on the roster who never plays.

Giornata 1: ratios 14/48 -> 0.29, -1/48 -> -0.03 (per difetto), 23/48 -> 0.47.
  Carla 1 + Scudetto 1 = 2.00; Dario 0.47 + UEFA 0.3 = 0.77; Anna 0.29 + Coppa Italia 0.1 =
  0.39; Bruno -0.03 - Retrocessione 0.1 = -0.13 and goes to B; Elena absent: -0.13.
Giornata 2: Carla wins again: 1 + 1 + Coppa dei Campioni 1.5 = 3.50; Bruno B -> C1.
Season: Carla 5.50, Dario 1.54, Anna 0.78, Bruno -0.26, Elena -0.26 (shared 4th; by name).
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from scoring.models import Absence, Standing
from scoring.rules.caf.interchange import score_json
from scoring.services.interchange import season_import

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "season-hand.json"

EXPECTED = [
    (1, "Carla", "5.50", "A", 2, 0, 2),
    (2, "Dario", "1.54", "A", 2, 0, 0),
    (3, "Anna", "0.78", "A", 2, 0, 0),
    (4, "Bruno", "-0.26", "C1", 2, 0, 0),
    (4, "Elena", "-0.26", "A", 0, 2, 0),
]


def test_engine_output_matches_the_hand_computation():
    out = score_json(json.loads(FIXTURE.read_text()))
    g1, g2 = out["turni"]
    assert g1["totals"] == {"Anna": 14, "Bruno": -1, "Carla": 48, "Dario": 23}
    assert g1["ratios"] == {"Anna": "0.29", "Bruno": "-0.03", "Carla": "1.00", "Dario": "0.47"}
    assert g1["league_points"] == {
        "Anna": "0.39",
        "Bruno": "-0.13",
        "Carla": "2.00",
        "Dario": "0.77",
    }
    assert g2["titles"]["Carla"] == ["SCUDETTO", "COPPA_CAMPIONI"]
    assert g2["league_points"]["Carla"] == "3.50"
    assert g2["series_before"]["Bruno"] == "B" and g2["series_after"]["Bruno"] == "C1"
    assert out["absences"] == [
        {"date": "2025-10-03", "players": {"Elena": "-0.13"}},
        {"date": "2025-10-10", "players": {"Elena": "-0.13"}},
    ]
    got = [
        (r["place"], r["player"], r["league_points"], r["series"], r["turni"], r["absences"],
         r["scudetti"])
        for r in out["classifica"]
    ]  # fmt: skip
    assert got == EXPECTED


@pytest.mark.django_db
def test_imported_fixture_stores_the_same_numbers():
    season = season_import(data=json.loads(FIXTURE.read_text()))
    rows = [
        (s.place, s.player.name, f"{s.score:.2f}", s.series, s.turni, s.absences, s.scudetti)
        for s in Standing.objects.filter(season=season).select_related("player")
    ]
    assert rows == EXPECTED
    assert list(Absence.objects.values_list("league_points", flat=True)) == [
        Decimal("-0.13"),
        Decimal("-0.13"),
    ]
