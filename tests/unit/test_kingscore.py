"""The stateless scoring command: SPEC §10 output, errors on stderr with exit status 2."""

from __future__ import annotations

import io
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


def _broken(tmp_path: Path) -> Path:
    """A season whose second turno has a smazzata that does not add up, and a stranger calling."""
    doc = simulated_season(
        name="x", players=["Anna", "Bruno", "Carla", "Dario"], giornate=2, seed=1, attendance=1.0
    )
    t = doc["turni"][1]
    t["smazzate"][3]["result"][t["players"][0]] += 1  # 14 hands of 13
    t["smazzate"][5]["caller"] = "Zorro"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    return path


def test_the_environments_language_says_the_problems_in_english(tmp_path):
    """LANG=en_US.UTF-8 (and no --lingua): every line of the refusal in English."""
    env = {k: v for k, v in os.environ.items() if k not in ("KINGCLUB_LANGUAGE", "LANGUAGE")}
    env |= {"LANG": "en_US.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path}/missing/dir/db.sqlite3"
    proc = subprocess.run(
        [sys.executable, "manage.py", "kingscore", str(_broken(tmp_path))],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert lines[:2] == [
        "turno 2026-09-11 #1, smazzata 4: [COUNT_SUM] Non fare mani: the results add up to 14, "
        "but they must be 13 (tricks in a deck of 52 cards)",
        "turno 2026-09-11 #1, smazzata 6, player Zorro: [CALLER_UNKNOWN] the caller 'Zorro' "
        "does not sit at this table",
    ]
    assert not any("giocatore" in line for line in lines)


def test_the_option_wins_over_the_environment(tmp_path, monkeypatch):
    """--lingua it with an English environment: Italian; --language en: English."""
    from django.core.management import call_command

    monkeypatch.setenv("KINGCLUB_LANGUAGE", "en")
    path = _broken(tmp_path)
    said = {}
    for language in ("it", "en"):
        err = io.StringIO()
        with pytest.raises(SystemExit) as exc:
            call_command("kingscore", str(path), language=language, stderr=err)
        assert exc.value.code == 2
        said[language] = err.getvalue().splitlines()[1]
    assert said == {
        "it": "turno 2026-09-11 #1, smazzata 6, giocatore Zorro: [CALLER_UNKNOWN] "
        "il chiamante 'Zorro' non siede a questo tavolo",
        "en": "turno 2026-09-11 #1, smazzata 6, player Zorro: [CALLER_UNKNOWN] "
        "the caller 'Zorro' does not sit at this table",
    }


@pytest.mark.parametrize(
    ("environment", "language"),
    [
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANGUAGE": "fr:en_US", "LANG": "it_IT.UTF-8"}, "en"),  # the first one known
        ({"LC_ALL": "C", "LANG": "en_US.UTF-8"}, "en"),  # "C" names no language
        ({"LC_ALL": "C.UTF-8"}, "it"),  # none named: the club's own
        ({"KINGCLUB_LANGUAGE": "en", "LANG": "it_IT.UTF-8"}, "en"),
        ({"LC_MESSAGES": "de_DE", "LANG": "en"}, "en"),
    ],
)
def test_the_language_of_the_environment(monkeypatch, environment, language):
    from scoring.management.commands._language import ENVIRONMENT, environment_language

    for name in ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert environment_language() == language


@pytest.mark.parametrize(
    ("document", "english"),
    [
        (
            {"format": "x", "ruleset": "caf", "turni": [1]},
            [
                "[FORMAT] format 'x' not recognised (expected kingclub/v1)",
                "[FORMAT] turni[1]: must be an object",
            ],
        ),
        (
            {"format": "x", "ruleset": "king-classico", "turni": []},
            ["[FORMAT] format 'x' not recognised (expected kingclub/v1)"],
        ),
        (
            {
                "format": "kingclub/v1",
                "ruleset": "skat-isko",
                "turni": [{"date": "x", "number": 0}],
            },
            [
                "turno x #0: [FORMAT] date: not a valid date (YYYY-MM-DD)",
                "turno x #0: [FORMAT] number: must be a whole number ≥ 1",
            ],
        ),
        (
            {"format": "x", "ruleset": "ramino-101", "turni": [1]},
            [
                "[FORMAT] format 'x' not recognised (expected kingclub/v1)",
                "[FORMAT] every turno must be an object",
            ],
        ),
    ],
)
def test_a_malformed_document_of_every_game_is_told_in_english(tmp_path, document, english):
    from django.core.management import call_command

    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    err = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("kingscore", str(path), language="en", stderr=err)
    assert err.getvalue().splitlines() == english
