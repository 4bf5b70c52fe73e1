"""The stateless scoring command: SPEC §10 output, errors on stderr with exit status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.demo import simulated_season
from scoring.rules.caf.interchange import parse_document, score_document

ROOT = Path(__file__).resolve().parents[2]


def run(path: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    # a database URL that cannot work: the command must not need one
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/missing/dir/db.sqlite3"}
    return subprocess.run(
        [sys.executable, "manage.py", "kingscore", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_valid_document_prints_the_output_format(tmp_path):
    doc = simulated_season(
        name="2026-27", players=["Anna", "Bruno", "Carla", "Dario", "Elena"], giornate=3, seed=5
    )
    path = tmp_path / "in.json"
    path.write_text(json.dumps(doc))
    proc = run(path, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = json.loads(proc.stdout)
    assert list(out) == ["format", "turni", "absences", "classifica"]
    assert out["format"] == "kingclub/v1"
    first = out["turni"][0]
    assert list(first) == [
        "date", "number", "smazzate", "penalties", "totals", "places", "ratios",
        "series_before", "series_after", "titles", "league_points",
    ]  # fmt: skip
    assert list(first["smazzate"][0]) == [
        "number", "game", "dealer", "caller", "forced", "scazzata", "cappotto", "points",
    ]  # fmt: skip
    # decimals as strings with exactly two decimals
    for t in out["turni"]:
        for v in [*t["ratios"].values(), *t["league_points"].values()]:
            assert isinstance(v, str) and len(v.split(".")[1]) == 2
    scored = score_document(parse_document(doc))
    assert [r["player"] for r in out["classifica"]] == [
        s.player for _, s in scored.season.classifica
    ]
    assert len(out["turni"]) == len(doc["turni"])


def test_invalid_document_lists_every_problem_on_stderr(tmp_path):
    doc = simulated_season(
        name="x", players=["Anna", "Bruno", "Carla", "Dario"], giornate=2, seed=1, attendance=1.0
    )
    t = doc["turni"][1]
    t["smazzate"][3]["result"][t["players"][0]] += 1  # sum broken
    t["smazzate"][5]["caller"] = "Zorro"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    proc = run(path, tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    label = f"turno {t['date']} #1"
    assert any(label in ln and "smazzata 4" in ln and "COUNT_SUM" in ln for ln in lines)
    assert any(label in ln and "smazzata 6" in ln and "CALLER_UNKNOWN" in ln for ln in lines)


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"{not json", "JSON_SYNTAX"),
        (b"\xff\xfe\x00", "JSON_ENCODING"),
        (b"[" * 5000 + b"]" * 5000, "JSON_DEPTH"),
        (b'{"format": "other/v9", "turni": []}', "FORMAT"),
    ],
)
def test_garbage_is_refused_with_a_clear_line(tmp_path, content, code):
    path = tmp_path / "g.json"
    path.write_bytes(content)
    proc = run(path, tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert f"[{code}]" in proc.stderr
