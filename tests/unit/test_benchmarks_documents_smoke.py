"""``python -m benchmarks.documents`` at a trivial size, so it does not rot: every measure runs
and the numbers it reports are consistent with each other.

The measures run in the test's process on the test database (a season of 3 turni from the
benchmark's generator): the Verbale requests (``measure_verbale``, what the benchmark's child
process does after its migrations), ``export_verbali`` twice and the interchange commands, each
command called here by a stand-in for ``run_measured`` instead of in a process of its own (each
such process started Django, and the child migrated a database of its own: most of the old
smoke run's 42 s of CPU); after the Verbale's own measure, a PDF is laid out once per HTML
(``pdf_rendered_once``). ``run_measured`` itself, and the command-line entry point, are checked
once, cheaply: the benchmark's command line run with no size at all.
"""

from __future__ import annotations

import io
import json
import os
import resource
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test.utils import override_settings

from benchmarks import documents
from benchmarks.data import ensure_data, load_season

ROOT = Path(__file__).resolve().parents[2]


def in_process(cmd: list[str], env: dict[str, str]) -> dict:
    """``run_measured``'s stand-in: the same command (``manage.py <command> …`` or the old
    export's ``python -c`` script) run in this process, with the child's MEDIA_ROOT."""
    out = io.StringIO()
    t0 = time.perf_counter()
    with override_settings(MEDIA_ROOT=env.get("MEDIA_ROOT", "")):
        if cmd[1] == str(ROOT / "manage.py"):
            call_command(*cmd[2:], stdout=out, stderr=io.StringIO())
        else:
            assert cmd[1] == "-c" and cmd[-1] == documents.OLD_EXPORT, cmd
            argv = sys.argv
            sys.argv = ["-c", *cmd[3:]]  # sys.argv of `python -c <code> <args>`
            try:
                exec(documents.OLD_EXPORT, {})
            finally:
                sys.argv = argv
    return {
        "seconds": round(time.perf_counter() - t0, 2),
        "largest_process_mb": None,
        "tree_peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "stdout_tail": out.getvalue().strip().splitlines()[-1:],
    }


@pytest.mark.django_db
def test_the_documents_benchmark_measures_at_a_tiny_size(tmp_path, monkeypatch, request):
    from scoring.services.interchange import season_import

    data_dir = tmp_path / "data"
    ensure_data([3], data_dir, log=lambda _msg: None)
    data = load_season(0, 3, data_dir)
    # the benchmark's club has 300 members on the roster; its first 3 turni seat 16 of them. The
    # Classifica Generale lists the whole roster: at 300 rows WeasyPrint laid out pages of a
    # table twice (most of this test's CPU); the roster cut to the 16 who played runs the same
    # code at a size the smoke run needs
    played = {name for turno in data["turni"] for name in turno["players"]}
    data["roster"] = [name for name in data["roster"] if name in played]
    assert len(data["roster"]) == 16
    season = season_import(data=data)

    entry = documents.measure_verbale(season.pk, repeat=2, static_root=str(tmp_path / "static"))
    assert (entry["season"], entry["turni"]) == (season.name, 3)
    pdf = entry["verbale_pdf"]
    assert pdf["bytes"] > 10_000 and pdf["samples"] == 2
    assert pdf["first_ms"] > pdf["second_median_ms"] > 0
    assert pdf["static_median_ms"] > 0 and pdf["static_view_median_ms"] > 0
    # the benchmark's URL and settings are put back: no /bench-static/ left for later tests
    from django.urls import Resolver404, resolve

    with pytest.raises(Resolver404):
        resolve("/bench-static/floor.pdf")

    # export_verbali renders the Classifica Generale again on its second run (it is not stored):
    # laid out once here (pdf_rendered_once), the export's files and counts are the same
    request.getfixturevalue("pdf_rendered_once")
    monkeypatch.setattr(documents, "run_measured", in_process)
    env = {"MEDIA_ROOT": str(tmp_path / "media")}
    run = documents.measure_export_verbali(env, season.name, 1)
    assert (run["jobs"], run["files"]) == (1, 2 * 3 + 2)
    assert run["stdout_tail"] == [run["stdout_tail"][0]]
    assert run["stdout_tail"][0].startswith(f"3 verbali e la classifica di {season.name}: 8 file")
    io_ = documents.measure_interchange(env, season.name)
    assert io_["streamed_equals_whole"] is True
    assert io_["export_season_indent_2"]["file_mb"] > io_["export_season"]["file_mb"]
    assert "3 turni" in io_["backup"]["stdout_tail"][0]


def test_the_documents_benchmark_command_line_runs(tmp_path):
    """The entry point (argument parsing, the results written) and ``run_measured`` (a process
    measured, its last line of output kept), on no size at all: no database, a second of CPU."""
    out = tmp_path / "results.json"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    cmd = [
        sys.executable, "-m", "benchmarks.documents", "--backend", "sqlite",
        "--sqlite-path", str(tmp_path / "bench.sqlite3"), "--sizes", "", "--interchange-sizes", "",
        "--data-dir", str(tmp_path / "data"), "--out", str(out),
    ]  # fmt: skip
    result = documents.run_measured(cmd, env)
    assert result["seconds"] > 0 and result["tree_peak_mb"] > 0
    assert result["stdout_tail"] == ["}"]  # the results, printed as indented JSON
    results = json.loads(out.read_text())
    assert (results["backend"], results["database"]) == ("sqlite", str(tmp_path / "bench.sqlite3"))
    assert results["sizes"] == {}
