"""``manage.py kingscore`` on skat-isko documents: SPEC-skat §12 output, errors on stderr."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from tests.unit.test_kingscore import run  # the command in a subprocess, without a database

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "fixtures" / "skat-sample.json"


def test_the_sample_is_scored_in_the_spec_shape(tmp_path):
    proc = run(SAMPLE, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = json.loads(proc.stdout)
    assert list(out) == ["format", "ruleset", "turni", "classifica"]
    assert (out["format"], out["ruleset"]) == ("kingclub/v1", "skat-isko")
    first = out["turni"][0]
    assert list(first) == [
        "date", "number", "smazzate", "penalties", "game_points", "won", "lost",
        "opponents_lost", "totals", "places",
    ]  # fmt: skip
    assert first["smazzate"][0] == {
        "number": 1, "dealer": "Anna", "sitting_out": None, "declarer": "Bruno",
        "game": "GRAND", "passed": False, "multiplier": 6, "value": 144, "overbid": False,
        "won": True, "score": 144, "points": {"Anna": 0, "Bruno": 194, "Carla": 0},
    }  # fmt: skip
    assert first["smazzate"][35] == {
        "number": 36, "dealer": "Carla", "sitting_out": None, "declarer": None, "game": None,
        "passed": True, "multiplier": None, "value": 0, "overbid": False, "won": None,
        "score": 0, "points": {"Anna": 0, "Bruno": 0, "Carla": 0},
    }  # fmt: skip
    assert out["classifica"] == [
        {"place": 1, "player": "Carla", "list_points": 1247, "turni": 2, "won": 12, "lost": 3},
        {"place": 2, "player": "Dario", "list_points": 978, "turni": 1, "won": 6, "lost": 0},
        {"place": 3, "player": "Bruno", "list_points": 647, "turni": 2, "won": 10, "lost": 4},
        {"place": 4, "player": "Anna", "list_points": 394, "turni": 2, "won": 4, "lost": 2},
    ]


def test_the_spec_section_12_example_lines(tmp_path):
    """The five games of SPEC-skat §12 (padded with passed games) give its output numbers."""
    games = [
        {"declarer": "Bruno", "game": "GRAND", "bid": 48, "matadors": 4, "with": True,
         "declarer_points": 95, "declarer_tricks": 8},
        {"declarer": "Anna", "game": "DIAMONDS", "bid": 22, "matadors": 1, "with": False,
         "declarer_points": 89, "declarer_tricks": 7},
        {"declarer": "Carla", "game": "NULL", "bid": 46, "ouvert": True, "declarer_tricks": 0},
        {"declarer": "Bruno", "game": "CLUBS", "bid": 60, "matadors": 2, "with": True,
         "hand": True, "ouvert": True, "schneider_announced": True, "schwarz_announced": True,
         "declarer_points": 120, "declarer_tricks": 10},
        {"passed": True},
    ] + [{"passed": True}] * 31  # fmt: skip
    doc = {
        "format": "kingclub/v1",
        "ruleset": "skat-isko",
        "season": "2026-27",
        "roster": ["Anna", "Bruno", "Carla", "Dario"],
        "turni": [
            {
                "date": "2026-11-20",
                "number": 1,
                "players": ["Anna", "Bruno", "Carla"],
                "first_dealer": "Anna",
                "smazzate": games,
                "penalties": [{"player": "Carla", "points": -25, "reason": "carte scoperte"}],
                "tiebreak": [],
            }
        ],
    }
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(doc))
    proc = run(path, tmp_path)
    assert proc.returncode == 0, proc.stderr
    t = json.loads(proc.stdout)["turni"][0]
    assert t["smazzate"][1] == {
        "number": 2, "dealer": "Bruno", "sitting_out": None, "declarer": "Anna",
        "game": "DIAMONDS", "passed": False, "multiplier": 3, "value": 27, "overbid": True,
        "won": False, "score": -54, "points": {"Anna": -104, "Bruno": 40, "Carla": 40},
    }  # fmt: skip
    assert t["smazzate"][4]["dealer"] == "Bruno"
    assert t["penalties"] == {"Anna": 0, "Bruno": 0, "Carla": -25}
    assert t["game_points"] == {"Anna": -54, "Bruno": 252, "Carla": 46}
    assert (t["won"], t["lost"], t["opponents_lost"]) == (
        {"Anna": 0, "Bruno": 2, "Carla": 1},
        {"Anna": 1, "Bruno": 0, "Carla": 0},
        {"Anna": 0, "Bruno": 1, "Carla": 1},
    )
    assert t["totals"] == {"Anna": -104, "Bruno": 392, "Carla": 111}
    assert t["places"] == {"Anna": 3, "Bruno": 1, "Carla": 2}


def test_an_invalid_document_lists_every_problem_on_stderr(tmp_path):
    doc = json.loads(SAMPLE.read_text())
    bad = copy.deepcopy(doc)
    bad["turni"][0]["smazzate"][3]["bid"] = 19
    bad["turni"][1]["smazzate"][4]["declarer"] = "Bruno"  # Bruno deals game 5: he sits out
    bad["turni"][1]["smazzate"][9]["declarer_tricks"] = 11
    bad["turni"][1]["tiebreak"] = []
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    proc = run(path, tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 3, lines  # the tie is judged only once the games are valid
    assert lines[0].startswith("turno 2026-11-20 #1, smazzata 4, giocatore Bruno: [BID_INVALID]")
    assert lines[1].startswith(
        "turno 2026-11-27 #1, smazzata 5, giocatore Bruno: [DECLARER_SITS_OUT]"
    )
    assert "turno 2026-11-27 #1, smazzata 10, giocatore " in lines[2]
    assert "[TRICKS_RANGE]" in lines[2]


def test_an_unsettled_tie_is_refused(tmp_path):
    doc = json.loads(SAMPLE.read_text())
    doc["turni"][1]["tiebreak"] = []
    path = tmp_path / "tie.json"
    path.write_text(json.dumps(doc))
    proc = run(path, tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith("turno 2026-11-27 #1, giocatore Anna: [TIE_UNSETTLED]")
