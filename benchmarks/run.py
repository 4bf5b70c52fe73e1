"""``make bench``: generate the data, run every backend × size, write docs/benchmarks.md.

    python -m benchmarks.run                        # 1k, 10k, 50k turni on SQLite and PostgreSQL
    python -m benchmarks.run --sizes 1000 --backends sqlite
    python -m benchmarks.run --quick                # a small run, written to benchmarks/data/
    python -m benchmarks.run --report-only          # rewrite the doc from the last results
    python -m benchmarks.run --season-sizes 40,10000 # the pages, cold and warm (benchmarks.pages)
    python -m benchmarks.run --games-only --game-sizes 40,2000  # every game, 40 and 2,000

Each backend × size runs in its own process (:mod:`benchmarks.worker`) on a fresh database.
Generated seasons are cached under ``benchmarks/data/`` (gitignored), so reruns skip the
simulator.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shlex
import sqlite3
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from benchmarks import report
from benchmarks.data import DEFAULT_DATA_DIR, ensure_data
from benchmarks.notes import NOTES
from benchmarks.worker import POSTGRES_URL, SQLITE_PATH

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "benchmarks.md"
DEFAULT_SIZES = (1000, 10000, 50000)
QUICK_SIZES = (200, 1000)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "n/a"


def machine() -> dict[str, Any]:
    info: dict[str, Any] = {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "django": _version("Django"),
        "sqlite": sqlite3.sqlite_version,
        "psycopg": _version("psycopg"),
        "weasyprint": _version("weasyprint"),
        "openpyxl": _version("openpyxl"),
        "os": f"{platform.system()} {platform.release()}",
    }
    with contextlib.suppress(OSError, ValueError):
        info["nproc"] = int(subprocess.run(["nproc"], capture_output=True, text=True).stdout)
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                info["mem_gb"] = int(line.split()[1]) / 2**20
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return info


def postgres_available(url: str) -> str | None:
    """None when the server answers, else why not."""
    try:
        import psycopg

        admin = url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
        return None
    except Exception as exc:  # any failure means: no PostgreSQL for this run
        return f"{type(exc).__name__}: {exc}".strip()


def run_one(backend: str, size: int, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    cmd = [
        sys.executable,
        "-m",
        "benchmarks.worker",
        "--backend",
        backend,
        "--size",
        str(size),
        "--out",
        str(out),
        "--data-dir",
        str(args.data_dir),
        "--repeat",
        str(args.repeat),
        "--doc-repeat",
        str(args.doc_repeat),
        "--sqlite-path",
        args.sqlite_path,
        "--postgres-url",
        args.postgres_url,
    ]
    out.unlink(missing_ok=True)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    secs = time.perf_counter() - t0
    try:
        result = json.loads(out.read_text())
    except (OSError, ValueError):
        result = {"backend": backend, "size": size}
    if proc.returncode != 0:
        result["failed"] = f"exit status {proc.returncode}"
    result["wall_seconds"] = round(secs, 1)
    return result


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.run", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--sizes", help="turni per data set, comma separated (default 1000,10000,50000)")
    p.add_argument("--backends", default="sqlite,postgres", help="sqlite,postgres")
    p.add_argument("--quick", action="store_true", help="a small run (200 and 1000 turni)")
    p.add_argument("--repeat", type=int, help="requests per page and runs per query (30)")
    p.add_argument("--doc-repeat", type=int, help="runs per PDF and XLSX (5)")
    p.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    p.add_argument("--output", type=Path, help=f"the Markdown report (default {DEFAULT_OUTPUT})")
    p.add_argument("--results", type=Path, help="the raw results, JSON")
    p.add_argument("--report-only", action="store_true", help="rewrite the report only")
    p.add_argument(
        "--merge",
        action="store_true",
        help="re-measure only these sizes × backends and replace them in the saved results",
    )
    p.add_argument(
        "--season-sizes",
        help="instead of the full run: the pages cold and warm on single seasons of these turni "
        "(benchmarks.pages), written into the report's pages section",
    )
    p.add_argument("--samples", type=int, default=7, help="samples per page (--season-sizes)")
    p.add_argument(
        "--game-sizes",
        default="40,2000",
        help="every game (benchmarks.games: import, recording, close, reopen, Classifica cold "
        "and warm, player page, Verbale) on one season per game of these turni, written into "
        "the report's games section after the full run, or alone with --games-only; empty to "
        "skip",
    )
    p.add_argument("--games-only", action="store_true", help="only the games (--game-sizes)")
    p.add_argument(
        "--pages-database-url",
        default=os.environ.get(
            "KINGBENCH_PAGES_URL", "postgres://postgres@127.0.0.1:5432/kingbench_pages"
        ),
        help="the pages benchmark's own PostgreSQL database (dropped and created again)",
    )
    p.add_argument("--sqlite-path", default=SQLITE_PATH)
    p.add_argument("--postgres-url", default=os.environ.get("KINGBENCH_POSTGRES_URL", POSTGRES_URL))
    args = p.parse_args(argv)
    quick = args.quick
    args.sizes = (
        [int(s) for s in args.sizes.split(",") if s.strip()]
        if args.sizes
        else list(QUICK_SIZES if quick else DEFAULT_SIZES)
    )
    args.backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    for b in args.backends:
        if b not in ("sqlite", "postgres"):
            p.error(f"unknown backend {b!r}")
    args.repeat = args.repeat or (10 if quick else 30)
    args.doc_repeat = args.doc_repeat or (2 if quick else 5)
    if args.output is None:
        args.output = args.data_dir / "benchmarks-quick.md" if quick else DEFAULT_OUTPUT
    if args.results is None:
        args.results = args.data_dir / ("results-quick.json" if quick else "results.json")
    return args


def write_report(results: dict[str, Any], output: Path) -> None:
    runs = {(r["size"], r["backend"]): r for r in results["runs"]}
    report.write_main(output, report.render(results["meta"], runs, NOTES))


def run_games(args: argparse.Namespace) -> int:
    """Every game (:mod:`benchmarks.games`), its section written into the report."""
    backend = "postgres" if "postgres" in args.backends else "sqlite"
    if backend == "postgres" and postgres_available(args.postgres_url):
        backend = "sqlite"
    cmd = [
        sys.executable,
        "-m",
        "benchmarks.games",
        "--sizes",
        args.game_sizes,
        "--backend",
        backend,
        "--out",
        str(args.data_dir / "results-games.json"),
        "--doc",
        str(args.output),
    ]
    log(f"== every game, {backend}, seasons of {args.game_sizes} turni")
    return subprocess.run(cmd, cwd=ROOT).returncode


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.season_sizes:
        backend = "postgres" if "postgres" in args.backends else "sqlite"
        cmd = [
            sys.executable,
            "-m",
            "benchmarks.pages",
            "--season-sizes",
            args.season_sizes,
            "--backend",
            backend,
            "--samples",
            str(args.samples),
            "--postgres-url",
            args.pages_database_url,
            "--data-dir",
            str(args.data_dir),
            "--out",
            str(args.data_dir / "results-pages.json"),
            "--doc",
            str(args.output),
        ]
        return subprocess.run(cmd, cwd=ROOT).returncode
    if args.games_only:
        return run_games(args)
    if args.report_only:
        write_report(json.loads(args.results.read_text()), args.output)
        log(f"wrote {args.output}")
        return 0
    started = time.perf_counter()
    command = "python -m benchmarks.run" + (
        " " + shlex.join(sys.argv[1:] if argv is None else argv)
        if (sys.argv[1:] if argv is None else argv)
        else ""
    )
    meta: dict[str, Any] = {"date": report.today(), "command": command, **machine()}
    log(f"kingclub benchmarks: sizes {args.sizes}, backends {args.backends}")
    meta["generation_seconds"] = ensure_data(args.sizes, args.data_dir, log=log)

    backends = list(args.backends)
    skipped: dict[str, str] = {}
    if "postgres" in backends:
        why = postgres_available(args.postgres_url)
        if why:
            log(f"PostgreSQL not available ({why}): its columns will read n/a")
            skipped["postgres"] = why
    runs = []
    for size in args.sizes:
        for backend in backends:
            if backend in skipped:
                runs.append(
                    {"backend": backend, "size": size, "failed": f"not run: {skipped[backend]}"}
                )
                continue
            log(f"== {backend}, {size} turni")
            out = args.data_dir / f"run-{backend}-{size}.json"
            result = run_one(backend, size, args, out)
            log(f"   done in {result['wall_seconds']:.0f} s")
            runs.append(result)
            if backend == "postgres" and result.get("dataset", {}).get("server_version"):
                meta["postgres"] = result["dataset"]["server_version"]
    elapsed = (time.perf_counter() - started) / 60
    if args.merge and args.results.exists():
        previous = json.loads(args.results.read_text())
        redone = {(r["size"], r["backend"]) for r in runs}
        runs = [r for r in previous["runs"] if (r["size"], r["backend"]) not in redone] + runs
        runs.sort(key=lambda r: (r["size"], ["sqlite", "postgres"].index(r["backend"])))
        labels = ", ".join(f"{report.size_label(s)}·{b}" for s, b in sorted(redone))
        meta = {
            **previous["meta"],
            "merged": [
                *previous["meta"].get("merged", []),
                f"{labels} re-measured on {meta['date']} with `{command}`",
            ],
        }
    else:
        meta["elapsed_min"] = elapsed
    meta["loadavg"] = ", ".join(
        f"{report.size_label(r['size'])}·{r['backend']} {r['loadavg_start']:.1f}"
        for r in runs
        if "loadavg_start" in r
    )
    results = {"meta": meta, "runs": runs}
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=1, default=str))
    write_report(results, args.output)
    log(f"wrote {args.output} ({elapsed:.1f} min)")
    if args.game_sizes and run_games(args):
        return 1
    return 1 if any(r.get("failed") and "not run" not in r["failed"] for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
