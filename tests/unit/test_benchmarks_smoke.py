"""``make bench`` at a trivial size, so the benchmark scripts do not rot.

``benchmarks.run`` on 5 turni, SQLite only, with its own data folder and report in a temporary
directory (docs/benchmarks.md is not touched); ``benchmarks.pages`` on a season of 4 turni. The
measures run in the test's process on the test database: the worker's (``worker.measure_all``,
what ``benchmarks.worker`` does after migrating a database of its own) in place of
``run.run_one``'s child process, and ``pages.measure``; each child migrated its own database and
started Django, most of the old smoke runs' 16 s of CPU. The command lines are run once each,
cheaply: ``benchmarks.run --report-only`` and ``benchmarks.pages --from-json`` on the results
measured here (no database).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks import pages, run, worker
from benchmarks.report import INTRO

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def cli(*argv: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run(
        [sys.executable, "-m", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_one_here(backend: str, size: int, args, out: Path) -> dict:
    """``run.run_one`` without its child: the worker's measures on the test database, the
    results read back as the child's JSON would be."""
    t0 = time.perf_counter()
    results, code = worker.measure_all(
        backend, size, Path(args.data_dir), args.repeat, args.doc_repeat, migrate=False
    )
    out.write_text(json.dumps(results, indent=1, default=str))
    result = json.loads(out.read_text())
    if code:
        result["failed"] = f"exit status {code}"
    result["wall_seconds"] = round(time.perf_counter() - t0, 1)
    return result


def test_bench_runs_at_a_tiny_size(tmp_path, monkeypatch):
    report = tmp_path / "benchmarks.md"
    results = tmp_path / "results.json"
    # another benchmark's section above the full run's part: the run rewrites its part only
    kept = "<!-- pages:start -->\nthe pages\n<!-- pages:end -->\n\na note on them\n\n"
    report.write_text(f"# Benchmarks\n\n{kept}{INTRO}: an older run\n")
    monkeypatch.setattr(run, "run_one", run_one_here)
    argv = [
        "--sizes", "5", "--backends", "sqlite", "--repeat", "2", "--doc-repeat", "1",
        "--data-dir", str(tmp_path / "data"), "--output", str(report),
        "--results", str(results), "--sqlite-path", str(tmp_path / "kingbench.sqlite3"),
        "--game-sizes", "",  # not the six games here: each seeds a season of its own
    ]  # fmt: skip
    assert run.main(argv) == 0
    (run_,) = json.loads(results.read_text())["runs"]
    assert "failed" not in run_  # and no measure failed (worker.guarded keeps its error)
    assert [k for k, v in run_.items() if isinstance(v, dict) and "error" in v] == []
    assert run_["import"]["turni"] == 5
    assert run_["dataset"]["turni"] == 5
    recording = run_["recording"]
    assert recording["smazzata"]["n"] == 19
    assert recording["smazzata_queries_max"] <= 20
    # reopen + close replays the season: it must store exactly what the import stored
    assert run_["reopen"]["same_result"] is True
    assert run_["classifica"]["agree"] is True
    # pages and documents: measured, or n/a while a view is missing, never a crash of the run
    for key in ("page_home", "page_turno", "doc_pdf", "doc_xlsx"):
        assert key in run_

    def check(text: str) -> None:
        assert text.startswith(f"# Benchmarks\n\n{kept}{INTRO}: generated")
        assert "an older run" not in text
        assert "| | 5 · SQLite |" in text
        assert "### Recording a smazzata" in text
        assert "turni per second" in text

    check(report.read_text())
    # the command line: the same report written again from the results, in a process
    report.write_text(f"# Benchmarks\n\n{kept}{INTRO}: an older run\n")
    proc = cli(
        "benchmarks.run", "--report-only", "--results", str(results), "--output", str(report)
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    check(report.read_text())


def test_pages_bench_runs_at_a_tiny_size(tmp_path, settings):
    """``benchmarks.pages`` (make bench --season-sizes): the views cold and warm, the floors."""
    settings.ROOT_URLCONF = "benchmarks.urls"  # as pages.main: the project's URLs + a constant
    load = round(os.getloadavg()[0], 2)
    run_ = {**pages.measure(4, 5, tmp_path / "data"), "loadavg_start": load, "loadavg_end": load}
    assert run_["data"]["turni"] == 4 and run_["data"]["members"] == 300
    for key in ("floor_groupby", "floor_view", "classifica_cold", "classifica_warm", "player"):
        assert run_[key]["n"] == 5
    # anonymous: warm is the kept page (one query: the seasons' versions); a member's page is
    # rendered around the cached table (tests/integration/test_pages_speed.py lists them)
    assert (run_["classifica_queries_cold"], run_["classifica_queries_warm"]) == (12, 1)
    assert run_["classifica_queries_member"] == 9
    # the command line writes the doc's section from these results (--from-json: no database)
    saved, doc = tmp_path / "pages.json", tmp_path / "benchmarks.md"
    saved.write_text(
        json.dumps(
            {
                "command": "python -m benchmarks.pages --season-sizes 4",
                "backend": "sqlite",
                "database": "(the test database)",
                "cache": settings.CACHES["default"]["BACKEND"],
                "samples": 5,
                "runs": [run_],
            }
        )
    )
    doc.write_text("# Benchmarks\n\nthe full run\n")
    proc = cli("benchmarks.pages", "--from-json", str(saved), "--doc", str(doc))
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = doc.read_text()
    assert text.index("<!-- pages:start -->") < text.index("the full run")
    assert "| **Classifica, cold** (first reader after a close) |" in text
