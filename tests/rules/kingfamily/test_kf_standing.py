"""The season standing (SPEC-king-family §0.6): matchpoints by default or points, shared
places, display order by place, then more wins, then name; every roster member has a row."""

from __future__ import annotations

import json
import re

from scoring.rules.systems import get_system

from .conftest import sample


def renamed(turno: dict, names: dict[str, str], date: str) -> dict:
    """The same turno with the players renamed (scoring does not depend on names)."""
    text = re.sub(r'"(Anna|Bruno|Carla|Dario)"', lambda m: f'"{names[m[1]]}"', json.dumps(turno))
    return {**json.loads(text), "date": date}


def season(standing: str | None = None) -> dict:
    doc = sample(
        "king-internazionale"
    )  # 1st Bruno 255, 2nd Dario −15, 3rd Anna −85, 4th Carla −155
    (t,) = doc["turni"]
    first = {"Bruno": "Dario", "Dario": "Bruno", "Anna": "Anna", "Carla": "Carla"}
    second = {"Bruno": "Anna", "Dario": "Carla", "Anna": "Bruno", "Carla": "Dario"}
    doc["turni"] = [renamed(t, first, "2026-11-25"), renamed(t, second, "2026-12-02")]
    doc["roster"] = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
    if standing:
        doc["rules"] = {"standing": standing}
    return doc


def test_matchpoints_standing_ties_by_wins_then_name():
    out = get_system("king-internazionale").score_document(season())
    assert [t["matchpoints"] for t in out["turni"]] == [
        {"Anna": 2, "Bruno": 4, "Carla": 0, "Dario": 6},
        {"Anna": 6, "Bruno": 2, "Carla": 4, "Dario": 0},
    ]
    assert out["classifica"] == [
        {"place": 1, "player": "Anna", "matchpoints": 8, "points": 170, "turni": 2, "wins": 1},
        {"place": 2, "player": "Dario", "matchpoints": 6, "points": 100, "turni": 2, "wins": 1},
        {"place": 2, "player": "Bruno", "matchpoints": 6, "points": -100, "turni": 2, "wins": 0},
        {"place": 4, "player": "Carla", "matchpoints": 4, "points": -170, "turni": 2, "wins": 0},
        {"place": 5, "player": "Elena", "matchpoints": 0, "points": 0, "turni": 0, "wins": 0},
    ]


def test_points_standing():
    out = get_system("king-internazionale").score_document(season("POINTS"))
    assert [(r["place"], r["player"], r["points"]) for r in out["classifica"]] == [
        (1, "Anna", 170),
        (2, "Dario", 100),
        (3, "Elena", 0),
        (4, "Bruno", -100),
        (5, "Carla", -170),
    ]


def test_shared_first_place_counts_as_a_win_for_both():
    out = get_system("le-king").score_document(sample("le-king"))  # Anna and Dario both 3
    rows = {r["player"]: r for r in out["classifica"]}
    assert (rows["Anna"]["place"], rows["Dario"]["place"]) == (1, 1)
    assert rows["Anna"]["wins"] == rows["Dario"]["wins"] == 1
    assert [r["player"] for r in out["classifica"]] == ["Anna", "Dario", "Carla", "Bruno"]


def test_standing_through_the_boundary_matches_the_document():
    system = get_system("king-internazionale")
    doc = season()
    rows = system.standing(system.rules(), doc["roster"], doc["turni"])
    assert rows == system.score_document(doc)["classifica"]
