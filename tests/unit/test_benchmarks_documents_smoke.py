"""``python -m benchmarks.documents`` at a trivial size (SQLite, its own files), so it does not
rot: every measure runs and the numbers it reports are consistent with each other."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_documents_benchmark_runs_at_a_tiny_size(tmp_path):
    out = tmp_path / "results.json"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    cmd = [
        sys.executable, "-m", "benchmarks.documents",
        "--backend", "sqlite", "--sqlite-path", str(tmp_path / "bench.sqlite3"),
        "--sizes", "3", "--interchange-sizes", "3", "--jobs", "1", "--repeat", "2",
        "--data-dir", str(tmp_path / "data"), "--out", str(out),
    ]  # fmt: skip
    proc = subprocess.run(
        cmd,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(out.read_text())
    entry = results["sizes"]["3"]
    assert entry["turni"] == 3
    pdf = entry["verbale_pdf"]
    assert pdf["bytes"] > 10_000 and pdf["samples"] == 2
    assert pdf["first_ms"] > pdf["second_median_ms"] > 0
    (run,) = entry["export_verbali"]
    assert (run["jobs"], run["files"]) == (1, 2 * 3 + 2)
    assert run["tree_peak_mb"] > 0
    io = entry["interchange"]
    assert io["streamed_equals_whole"] is True
    assert io["export_season_indent_2"]["file_mb"] > io["export_season"]["file_mb"]
    assert "3 turni" in io["backup"]["stdout_tail"][0]
