"""Ramino 101: every invalid input of SPEC-ramino §10 rejected, with the smazzata and player."""

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.rules.problems import RuleViolation
from scoring.rules.ramino.document import score_season

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "fixtures" / "ramino-sample.json"
N = "NORMALE"


def doc(smazzate=None, **turno) -> dict:
    base = {
        "date": "2026-11-20",
        "number": 1,
        "players": ["Anna", "Bruno", "Carla"],
        "first_dealer": "Anna",
        "smazzate": smazzate
        if smazzate is not None
        else [
            {"closer": "Anna", "close": N, "penalties": {"Bruno": 101, "Carla": 5}},
            {"closer": "Anna", "close": "SCALA_REALE"},
        ],
    }
    base.update(turno)
    return {"format": "kingclub/v1", "ruleset": "ramino-101", "roster": [], "turni": [base]}


def problems(data) -> list[tuple]:
    with pytest.raises(RuleViolation) as exc:
        score_season(data)
    return [(p.code, p.smazzata, p.player) for p in exc.value.problems]


def test_the_helper_document_is_valid():
    out = score_season(doc())
    assert out["turni"][0]["places"] == {"Anna": 1, "Bruno": 3, "Carla": 2}


@pytest.mark.parametrize(
    ("smazzate", "expected"),
    [
        ([{"close": N, "penalties": {"Bruno": 1, "Carla": 1}}], [("CLOSER_INVALID", 1, None)]),
        (
            [{"closer": ["Anna", "Bruno"], "close": N, "penalties": {"Carla": 1}}],
            [("CLOSER_INVALID", 1, None)],
        ),
        (
            [{"closer": "Zoe", "close": N, "penalties": {"Bruno": 1, "Carla": 1}}],
            [("UNKNOWN_PLAYER", 1, "Zoe")],
        ),
        (
            [{"closer": "Anna", "close": "RAMINO", "penalties": {"Bruno": 1, "Carla": 1}}],
            [("CLOSE_UNKNOWN", 1, None)],
        ),
        (
            [{"closer": "Anna", "close": N, "penalties": {"Anna": 0, "Bruno": 1, "Carla": 1}}],
            [("CLOSER_HAS_PENALTY", 1, "Anna")],
        ),
        ([{"closer": "Anna", "close": N, "penalties": {"Bruno": 1}}],
         [("PENALTIES_PLAYERS", 1, "Carla")]),
        (
            [{"closer": "Anna", "close": N, "penalties": {"Bruno": 105, "Carla": -1}}],
            [("PENALTY_RANGE", 1, "Bruno"), ("PENALTY_RANGE", 1, "Carla")],
        ),
        (
            [{"closer": "Anna", "close": N, "penalties": {"Bruno": "7", "Carla": 2.5}}],
            [("FIELD_TYPE", 1, "Bruno"), ("FIELD_TYPE", 1, "Carla")],
        ),
        (
            [{"closer": "Anna", "close": "DUE_CARTE", "penalties": {"Bruno": 1, "Carla": 1}}],
            [("TWO_CARD_RANGE", 1, "Anna")],
        ),
        (
            [{"closer": "Anna", "close": "DUE_CARTE", "closer_points": 6,
              "penalties": {"Bruno": 1, "Carla": 1}}],
            [("TWO_CARD_RANGE", 1, "Anna")],
        ),
        (
            [{"closer": "Anna", "close": N, "closer_points": 3,
              "penalties": {"Bruno": 1, "Carla": 1}}],
            [("CLOSER_POINTS_FIELD", 1, "Anna")],
        ),
        (
            [{"closer": "Anna", "close": "POKERISSIMO", "penalties": {"Bruno": 1, "Carla": 1}}],
            [("PENALTIES_ON_INSTANT_WIN", 1, None)],
        ),
        (
            [{"closer": "Anna", "close": N, "penalties": {"Bruno": 1, "Carla": 1},
              "reentries": ["Bruno"]}],
            [("REENTRY_NOT_ELIGIBLE", 1, "Bruno")],
        ),
        (
            [{"closer": "Anna", "close": "SCALA_REALE", "reentries": ["Bruno"]}],
            [("REENTRY_NOT_ELIGIBLE", 1, "Bruno")],
        ),
        (
            # everybody still in crosses 101 at once: nobody's total to copy
            [
                {"closer": "Anna", "close": "DUE_CARTE", "closer_points": 5,
                 "penalties": {"Bruno": 90, "Carla": 90}},  # 5, 90, 90
                {"closer": "Bruno", "close": "DUE_CARTE", "closer_points": 5,
                 "penalties": {"Anna": 94, "Carla": 5}},  # 99, 95, 95
                {"closer": "Anna", "close": "DUE_CARTE", "closer_points": 2,
                 "penalties": {"Bruno": 6, "Carla": 6}, "reentries": ["Bruno"]},  # 101 each
            ],
            [("REENTRY_NOT_ELIGIBLE", 3, "Bruno")],
        ),
        (
            [
                {"closer": "Anna", "close": N, "penalties": {"Bruno": 101, "Carla": 1},
                 "reentries": ["Bruno"]},
                {"closer": "Anna", "close": N, "penalties": {"Bruno": 60, "Carla": 1},
                 "reentries": ["Bruno"]},
            ],
            [("REENTRY_LIMIT", 2, "Bruno")],
        ),
        (
            [
                {"closer": "Anna", "close": N, "penalties": {"Bruno": 101, "Carla": 1}},
                {"closer": "Bruno", "close": N, "penalties": {"Anna": 1, "Carla": 1}},
            ],
            [("PLAYER_OUT", 2, "Bruno")],
        ),
        (
            [
                {"closer": "Anna", "close": N, "penalties": {"Bruno": 101, "Carla": 1}},
                {"closer": "Anna", "close": N, "penalties": {"Bruno": 1, "Carla": 1}},
            ],
            [("PLAYER_OUT", 2, "Bruno")],
        ),
        (
            [
                {"closer": "Anna", "close": "SCALA_REALE"},
                {"closer": "Anna", "close": N, "penalties": {"Bruno": 1, "Carla": 1}},
            ],
            [("HAND_AFTER_END", 2, None)],
        ),
        ([], [("MATCH_UNFINISHED", None, None)]),
        (
            [{"closer": "Anna", "close": N, "penalties": {"Bruno": 1, "Carla": 1}}],
            [("MATCH_UNFINISHED", 1, None)],
        ),
        (
            [{"closer": "Anna", "close": N, "penalties": {"Bruno": 101, "Carla": 101}}],
            [("TIE_UNSETTLED", None, None)],
        ),
    ],
)  # fmt: skip
def test_invalid_smazzate(smazzate, expected):
    assert problems(doc(smazzate)) == expected


def test_header_problems():
    assert problems(doc(players=["Anna"], first_dealer="Anna")) == [("PLAYERS_COUNT", None, None)]
    six = ["A", "B", "C", "D", "E", "F"]
    assert problems(doc([], players=six, first_dealer="A"))[0] == ("PLAYERS_COUNT", None, None)
    assert problems(doc(players=["Anna", "Anna", "Bruno"]))[0] == ("PLAYERS_COUNT", None, "Anna")
    assert problems(doc(first_dealer="Zoe")) == [("FIRST_DEALER", None, None)]
    assert problems(doc(tiebreak=["Zoe"])) == [("UNKNOWN_PLAYER", None, "Zoe")]
    assert problems(doc(date="20/11/2026")) == [("FORMAT", None, None)]
    assert problems(doc(number=10**30)) == [("FORMAT", None, None)]


def test_document_problems():
    d = doc()
    d["turni"].append(copy.deepcopy(d["turni"][0]))
    assert problems(d) == [("DUPLICATE_TURNO", None, None)]
    assert problems({**doc(), "format": "kingclub/v2"}) == [("FORMAT", None, None)]
    assert problems({**doc(), "rules": {"ace": 11}}) == [("RULES", None, None)]


def test_every_problem_names_the_turno():
    with pytest.raises(RuleViolation) as exc:
        score_season(doc([{"closer": "Zoe", "close": N, "penalties": {}}]))
    assert {p.turno for p in exc.value.problems} == {"2026-11-20 #1"}
    assert exc.value.problems[0].describe().startswith("turno 2026-11-20 #1, smazzata 1, ")


def run(path: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/missing/dir/db.sqlite3"}
    return subprocess.run(
        [sys.executable, "manage.py", "kingscore", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_kingscore_prints_the_ramino_output(tmp_path):
    proc = run(SAMPLE, tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["ruleset"] == "ramino-101"
    assert out["turni"][0]["places"] == {"Anna": 3, "Bruno": 4, "Carla": 1, "Dario": 2}


def test_kingscore_rejects_with_one_line_per_problem(tmp_path):
    bad = doc([{"closer": "Anna", "close": N, "penalties": {"Bruno": 200, "Zoe": 1}}])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    proc = run(path, tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "turno 2026-11-20 #1, smazzata 1, giocatore Bruno: [PENALTY_RANGE] Punti rimasti in "
        "mano: 200 per Bruno, ma dieci carte valgono da 0 a 104.",
        "turno 2026-11-20 #1, smazzata 1, giocatore Zoe: [UNKNOWN_PLAYER] Punti rimasti in mano: "
        "Zoe non è al tavolo.",
        "turno 2026-11-20 #1, smazzata 1, giocatore Carla: [PENALTIES_PLAYERS] Punti rimasti in "
        "mano: scrivere i punti di Carla.",
    ]
