"""Hostile files and long rosters (issue 26 items 1 and 5), each case in its own process.

    python -m benchmarks.trust                          # brackets + rosters 1k, 10k, 100k
    python -m benchmarks.trust --rosters 1000,10000     # fewer names
    python -m benchmarks.trust --skip-rosters           # the brackets only
    python -m benchmarks.trust --doc docs/benchmarks.md  # and its section of that file (make bench)
    python -m benchmarks.trust --from-json benchmarks/data/trust.json --doc docs/benchmarks.md

Brackets: a file of ``"[" * n + "]" * n`` (40 KB, 100 KB, 400 KB) given to what the club
accepts: the import's file reader (``season_import_file``), the whole-document reader of
``restore`` and standard input (``read_document``) and ``kingscore``'s (``read_json``); the time
of the call and the process's peak RSS (``ru_maxrss``), the problem's code.

Rosters: a season of every game system (the fixtures' samples, 1-3 turni) with N extra members
in its roster, imported (``season_import``) on a fresh SQLite database and scored without a
database (``score_document``, what ``kingscore`` does): seconds (wall and CPU).
Prints a Markdown table and writes ``--out`` (JSON).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.report import write_section

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
GAMES = {
    "caf": "season-hand.json",
    "skat-isko": "skat-sample.json",
    "ramino-101": "ramino-sample.json",
    "le-king": "le-king-sample.json",
}
BRACKETS_KB = (40, 100, 400)


def _setup(database: str | None = None) -> None:
    if database:
        os.environ["DATABASE_URL"] = database
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingclub.settings")
    import django

    django.setup()


def brackets_case(reader: str, kb: int) -> dict:
    """One reader given one file of nested brackets (run in its own process)."""
    _setup()
    from scoring.rules.problems import RuleViolation
    from scoring.services.interchange import read_document, season_import_file
    from scoring.services.jsonread import Limits, read_json

    n = kb * 1024 // 2
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "brackets.json"
        path.write_bytes(b"[" * n + b"]" * n)
        call = {
            "import_season (file)": lambda: season_import_file(path),
            "restore / stdin (whole)": lambda: read_document(
                path.read_bytes(), limit=None, max_values=None
            ),
            "kingscore": lambda: read_json(path.read_bytes(), Limits.of()),
        }[reader]
        start = time.perf_counter()
        try:
            call()
            code = "accepted"
        except RuleViolation as exc:
            code = exc.problems[0].code
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "reader": reader,
        "kb": kb,
        "seconds": round(seconds, 3),
        "peak_mb": round(peak),
        "code": code,
    }


def roster_case(game: str, names: int, database: str) -> dict:
    """One game's sample imported and scored with ``names`` extra members (own process)."""
    _setup(database)
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    from scoring.rules.systems import system_of_document
    from scoring.services.interchange import season_import

    doc = json.loads((FIXTURES / GAMES[game]).read_text(encoding="utf-8"))
    doc["season"] = f"{game} +{names}"
    doc["roster"] = list(doc.get("roster") or []) + [f"Socio {i:06d}" for i in range(names)]
    cpu, wall = time.process_time(), time.perf_counter()
    system_of_document(doc).score_document(doc)
    score = (time.perf_counter() - wall, time.process_time() - cpu)
    cpu, wall = time.process_time(), time.perf_counter()
    season_import(data=doc, current=False)
    imported = (time.perf_counter() - wall, time.process_time() - cpu)
    return {
        "game": game,
        "names": names,
        "score_s": round(score[0], 2),
        "score_cpu_s": round(score[1], 2),
        "import_s": round(imported[0], 2),
        "import_cpu_s": round(imported[1], 2),
        "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def _child(args: list[str]) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.trust", "--child", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1:] or ["?"], "args": args}
    return json.loads(out.stdout.strip().splitlines()[-1])


START, END = "<!-- trust:start -->", "<!-- trust:end -->"


def render(results: dict) -> str:
    """The section of docs/benchmarks.md this benchmark writes (between its two markers)."""
    meta = results.get("meta", {})
    lines = [
        START,
        "## Long rosters and hostile files (issue 26, items 1 and 5)",
        "",
        f"Command: `{meta.get('command', 'python -m benchmarks.trust')}`"
        + (f", {meta['date']}" if meta.get("date") else "")
        + (f", load average at the start {meta['loadavg']}" if meta.get("loadavg") else "")
        + ". Each game's sample season (1-3 turni) with N extra members in its roster, "
        "imported through `season_import` on a fresh SQLite database and scored without a "
        "database (`score_document`, what `kingscore` does), each case in its own process: "
        "seconds, CPU seconds in brackets (the figure to read on a shared machine), peak RSS "
        "of the process. *CPU ×* is the import's CPU time over the one of ten times fewer "
        "names: 10 is linear.",
        "",
        "| game | extra members | score s (CPU) | import s (CPU) | CPU × | peak RSS MB |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    previous: dict[str, dict] = {}
    for r in results.get("rosters", []):
        if "error" in r:
            lines.append(f"| {r['args'][1]} | {r['args'][2]} | {r['error']} | | | |")
            continue
        before = previous.get(r["game"])
        ratio = (
            f"{r['import_cpu_s'] / before['import_cpu_s']:.1f}"
            if before and before["import_cpu_s"] and r["names"] == 10 * before["names"]
            else ""
        )
        lines.append(
            f"| {r['game']} | {r['names']:,} | {r['score_s']} ({r['score_cpu_s']}) | "
            f"{r['import_s']} ({r['import_cpu_s']}) | {ratio} | {r['peak_mb']} |"
        )
        previous[r["game"]] = r
    if results.get("brackets"):
        lines += [
            "",
            'Files of nested brackets (`"[" * n + "]" * n`) given to each reader of a file, '
            "in its own process: seconds of the call, peak RSS of the process, the answer.",
            "",
            "| reader | file | seconds | peak RSS MB | answer |",
            "|---|---:|---:|---:|---|",
        ]
        for r in results["brackets"]:
            lines.append(
                f"| {r.get('reader')} | {r.get('kb')} KB | {r.get('seconds')} | "
                f"{r.get('peak_mb')} | {r.get('code', r.get('error'))} |"
            )
    lines.append(END)
    return "\n".join(lines) + "\n"


def write_doc(doc: Path, section: str) -> None:
    """Put ``section`` between this benchmark's markers of ``doc``."""
    write_section(doc, section, START, END)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rosters", default="1000,10000,100000")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--skip-rosters", action="store_true")
    parser.add_argument("--skip-brackets", action="store_true")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "data" / "trust.json"))
    parser.add_argument("--doc", type=Path, help="write the section of this Markdown file")
    parser.add_argument("--from-json", type=Path, help="only write --doc from saved results")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.from_json:
        write_doc(args.doc, render(json.loads(args.from_json.read_text())))
        return
    if args.child:
        kind, *rest = args.child
        if kind == "brackets":
            print(json.dumps(brackets_case(rest[0], int(rest[1]))))
        else:
            print(json.dumps(roster_case(rest[0], int(rest[1]), rest[2])))
        return
    results: dict = {
        "meta": {
            "command": "python -m benchmarks.trust " + " ".join(sys.argv[1:]),
            "date": time.strftime("%Y-%m-%d"),
            "loadavg": f"{os.getloadavg()[0]:.1f}",
        },
        "brackets": [],
        "rosters": [],
    }
    if not args.skip_brackets:
        print("| reader | file | seconds | peak RSS MB | answer |\n|---|---|---|---|---|")
        for kb in BRACKETS_KB:
            for reader in ("import_season (file)", "restore / stdin (whole)", "kingscore"):
                r = _child(["brackets", reader, str(kb)])
                results["brackets"].append(r)
                print(
                    f"| {reader} | {kb} KB | {r.get('seconds')} | {r.get('peak_mb')} "
                    f"| {r.get('code', r)} |",
                    flush=True,
                )
    if not args.skip_rosters:
        print(
            "\n| game | extra members | score s (CPU) | import s (CPU) | peak RSS MB |"
            "\n|---|---|---|---|---|"
        )
        for game in args.games.split(","):
            for names in map(int, args.rosters.split(",")):
                with tempfile.TemporaryDirectory() as tmp:
                    r = _child(["roster", game, str(names), f"sqlite:///{tmp}/roster.sqlite3"])
                results["rosters"].append(r)
                print(
                    f"| {game} | {names:,} | {r.get('score_s')} ({r.get('score_cpu_s')}) | "
                    f"{r.get('import_s')} ({r.get('import_cpu_s')}) | {r.get('peak_mb')} |"
                    + ("" if "error" not in r else f" {r['error']}"),
                    flush=True,
                )
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2))
    if args.doc:
        write_doc(args.doc, render(results))


if __name__ == "__main__":
    main()
