"""``make bench`` at a trivial size, so the benchmark script does not rot.

Runs ``python -m benchmarks.run`` on 5 turni, SQLite only, with its own data folder and
report in a temporary directory (docs/benchmarks.md is not touched), in a subprocess: the
benchmark sets up Django with its own database, like ``make bench`` does.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks.report import INTRO

ROOT = Path(__file__).resolve().parents[2]


def test_bench_runs_at_a_tiny_size(tmp_path):
    report = tmp_path / "benchmarks.md"
    results = tmp_path / "results.json"
    # another benchmark's section above the full run's part: the run rewrites its part only
    kept = "<!-- pages:start -->\nthe pages\n<!-- pages:end -->\n\na note on them\n\n"
    report.write_text(f"# Benchmarks\n\n{kept}{INTRO}: an older run\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.run",
            "--sizes",
            "5",
            "--backends",
            "sqlite",
            "--repeat",
            "2",
            "--doc-repeat",
            "1",
            "--data-dir",
            str(tmp_path / "data"),
            "--output",
            str(report),
            "--results",
            str(results),
            "--sqlite-path",
            str(tmp_path / "kingbench.sqlite3"),
            "--game-sizes",
            "",  # not the six games here: each seeds a season of its own, too slow for a smoke
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    (run,) = json.loads(results.read_text())["runs"]
    assert run["import"]["turni"] == 5
    assert run["dataset"]["turni"] == 5
    recording = run["recording"]
    assert recording["smazzata"]["n"] == 19
    assert recording["smazzata_queries_max"] <= 20
    # reopen + close replays the season: it must store exactly what the import stored
    assert run["reopen"]["same_result"] is True
    assert run["classifica"]["agree"] is True
    # pages and documents: measured, or n/a while a view is missing, never a crash of the run
    for key in ("page_home", "page_turno", "doc_pdf", "doc_xlsx"):
        assert key in run
    text = report.read_text()
    assert text.startswith(f"# Benchmarks\n\n{kept}{INTRO}: generated")
    assert "an older run" not in text
    assert "| | 5 · SQLite |" in text
    assert "### Recording a smazzata" in text
    assert "turni per second" in text


def test_pages_bench_runs_at_a_tiny_size(tmp_path):
    """``benchmarks.pages`` (make bench --season-sizes): the views cold and warm, the floors."""
    out, doc = tmp_path / "pages.json", tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nthe full run\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.pages",
            "--season-sizes",
            "4",
            "--backend",
            "sqlite",
            "--samples",
            "5",
            "--sqlite-path",
            str(tmp_path / "kingbench_pages.sqlite3"),
            "--data-dir",
            str(tmp_path / "data"),
            "--out",
            str(out),
            "--doc",
            str(doc),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    (run,) = json.loads(out.read_text())["runs"]
    assert run["data"]["turni"] == 4 and run["data"]["members"] == 300
    for key in ("floor_groupby", "floor_view", "classifica_cold", "classifica_warm", "player"):
        assert run[key]["n"] == 5
    # anonymous: warm is the kept page (one query: the seasons' versions); a member's page is
    # rendered around the cached table (tests/integration/test_pages_speed.py lists them)
    assert (run["classifica_queries_cold"], run["classifica_queries_warm"]) == (12, 1)
    assert run["classifica_queries_member"] == 9
    text = doc.read_text()
    assert text.index("<!-- pages:start -->") < text.index("the full run")
    assert "| **Classifica, cold** (first reader after a close) |" in text
