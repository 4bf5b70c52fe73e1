"""Every game of the ledger (issue 24): import, recording, close, reopen and the pages of one
season per game and size, on a database of its own.

    python -m benchmarks.games --sizes 40,400 --backend sqlite
    python -m benchmarks.games --sizes 40,2000 --backend postgres --doc docs/benchmarks.md

Each season is built by the game's own generator of valid random turni (12 members, two tables
of 4 a giornata, deterministic), written as a ``kingclub/v1`` document and imported through
``import_season``'s service (timed: it must be linear in the turni). Then, ``--samples`` times:
the reopen and the close of the season's last turno through ``scoring.api`` (timed, with their
queries), the Classifica page right after (cold) and again (warm), the member's page and the
Verbale of that turno (first readers after the close), anonymous, through Django's whole stack.
Last, a new turno on a new giornata and its smazzate recorded one by one (``smazzata_record``).

Every call is timed twice: the wall clock, and the CPU it cost, this process's plus, on
PostgreSQL, the server backend's (``/proc/<pid>/schedstat`` of the connection's backend, on the
same machine). On a shared machine the CPU is the figure to compare. Medians in milliseconds.
The database is dropped and created again for each game and size: ``--postgres-url`` (default
``.../kingbench_games``, or ``KINGBENCH_GAMES_URL``) or ``--sqlite-path``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.report import write_section
from benchmarks.worker import fresh_database, ms
from scoring.rules.systems import systems

SQLITE_PATH = "/tmp/kingbench_games.sqlite3"
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/kingbench_games"
PLAYERS = [f"Socio {i:02d}" for i in range(1, 13)]
TABLES = 2  # tables of 4 each giornata
# what is measured, in the order of the report's columns, with its heading
OPS = {
    "record": "smazzata",
    "close": "close",
    "reopen": "reopen",
    "cold": "Classifica cold",
    "warm": "Classifica warm",
    "player": "player page",
    "verbale": "Verbale",
}


def log(msg: str) -> None:
    print(f"    {msg}", file=sys.stderr, flush=True)


def _server_ns() -> int:
    """CPU nanoseconds used so far by this connection's PostgreSQL backend (0 elsewhere)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return 0
    connection.ensure_connection()
    try:
        with open(f"/proc/{connection.connection.info.backend_pid}/schedstat") as f:
            return int(f.read().split()[0])
    except OSError:  # a server on another machine: its CPU is not seen
        return 0


def timed(fn: Callable[[], Any]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this process + the database backend) of one call."""
    s0, c0, t0 = _server_ns(), time.process_time(), time.perf_counter()
    fn()
    wall, client = time.perf_counter() - t0, time.process_time() - c0
    return wall, client + (_server_ns() - s0) / 1e9


def med(samples: list[tuple[float, float]]) -> dict[str, Any]:
    return {
        "n": len(samples),
        "median_ms": ms(statistics.median(w for w, _ in samples)),
        "cpu_ms": ms(statistics.median(c for _, c in samples)),
    }


def season_doc(code: str, turni: int) -> dict[str, Any]:
    """A season of ``turni`` turni of ``code`` as a ``kingclub/v1`` document (deterministic)."""
    from scoring.rules.systems import get_system

    system = get_system(code)
    rules = system.rules()
    rng = random.Random(24)
    start = dt.date(2026, 1, 1)
    out = []
    for i in range(turni):
        date = start + dt.timedelta(days=i // TABLES)
        if i % TABLES == 0:
            present = list(PLAYERS)
            rng.shuffle(present)
        table = present[(i % TABLES) * 4 : (i % TABLES) * 4 + 4]
        record = system.random_turno(rng, table, rules)
        out.append({**record, "date": date.isoformat(), "number": i % TABLES + 1})
    return {
        "format": "kingclub/v1",
        "ruleset": code,
        "season": f"Bench {code} {turni}",
        "roster": PLAYERS,
        "rules": system.default_rules(),
        "turni": out,
    }


def measure(code: str, size: int, samples: int) -> dict[str, Any]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scoring import api
    from scoring.models import Player, Turno
    from scoring.rules.systems import get_system
    from scoring.services.interchange import season_import

    doc = season_doc(code, size)
    load = [round(x, 2) for x in os.getloadavg()]
    out: dict[str, Any] = {"code": code, "size": size, "loadavg": load}
    seasons: list[Any] = []
    wall, cpu = timed(lambda: seasons.append(season_import(data=doc, current=True)))
    season = seasons[0]
    out.update(import_s=round(wall, 2), import_cpu_s=round(cpu, 2))
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("VACUUM ANALYZE")
    client = Client()

    def get(url: str) -> None:
        resp = client.get(url)
        if resp.status_code != 200:
            raise RuntimeError(f"{url}: HTTP {resp.status_code}")

    get("/")
    last = Turno.objects.filter(season=season).order_by("-giornata__date", "-number")[0]
    member = Player.objects.get(name=PLAYERS[0]).pk
    cycle = {
        "reopen": lambda: api.turno_reopen(turno=last.pk, reason="benchmark"),
        "close": lambda: api.turno_close(turno=last.pk),
        "cold": lambda: get("/"),
        "warm": lambda: get("/"),
        "player": lambda: get(f"/giocatori/{member}/"),
        "verbale": lambda: get(f"/turni/{last.pk}/"),
    }
    for fn in cycle.values():  # once unmeasured: the first call's imports and caches
        fn()
    taken: dict[str, list[tuple[float, float]]] = {name: [] for name in cycle}
    for _ in range(samples):
        for name, fn in cycle.items():
            taken[name].append(timed(fn))
    for name, samples_of in taken.items():
        out[name] = med(samples_of)
    for name, fn in cycle.items():
        with CaptureQueriesContext(connection) as ctx:
            fn()
        out[f"{name}_queries"] = len(ctx.captured_queries)
    # recording: a new turno on the day after the season's last, its smazzate one by one
    system = get_system(code)
    record = system.random_turno(random.Random(size), PLAYERS[:4], system.rules())
    turno = api.turno_start(
        season=season,
        date=last.giornata.date + dt.timedelta(days=1),
        players=record["players"],
        first_dealer=record["first_dealer"],
    )
    recorded, queries = [], []
    for sm in record["smazzate"]:
        with CaptureQueriesContext(connection) as ctx:
            recorded.append(timed(lambda sm=sm: api.smazzata_record(turno=turno, record=sm)))
        queries.append(len(ctx.captured_queries))
    out["record"] = med(recorded)
    out["record_queries"] = max(queries)
    return out


START, END = "<!-- games:start -->", "<!-- games:end -->"


def render(results: dict[str, Any]) -> str:
    """The section of docs/benchmarks.md this benchmark writes (between its two markers)."""
    runs = results["runs"]
    heads = " | ".join(OPS.values())
    rule = "|---|---:|---:|" + "---:|" * len(OPS)
    lines = [
        START,
        "## Every game of the ledger: import, recording, close, reopen, pages (issue 24)",
        "",
        f"Command: `{results['command']}`, {results.get('date', '')}. Backend "
        f"{results['backend']}, a fresh database per game and size, cache `{results['cache']}`. "
        "One season per game and size, 12 members, two tables of 4 a giornata, built by the "
        "game's own generator and imported through `import_season`'s service (`import`, "
        "seconds). Then, "
        f"{results['samples']} times: the reopen and the close of the season's last turno "
        "(`scoring.api`), the Classifica right after the close (cold) and again (warm), the "
        "page of a member of that turno and its Verbale (first readers after the close), "
        "anonymous, through Django's whole stack. Last, the smazzate of a new turno on a new "
        "giornata recorded one by one (`smazzata_record`, the median smazzata). Medians in "
        "milliseconds; queries of one more run in brackets.",
        "",
        "Wall clock (ms; import in seconds):",
        "",
        f"| game | turni | import | {heads} |",
        rule,
    ]
    for r in runs:
        cells = [f"{r[k]['median_ms']:.1f} ({r[f'{k}_queries']})" for k in OPS]
        lines.append(
            f"| {r['code']} | {r['size']} | {r['import_s']:.2f} | " + " | ".join(cells) + " |"
        )
    lines += [
        "",
        "CPU time (ms; import in seconds): this process's plus the PostgreSQL backend's, the "
        "figure that the machine's load does not inflate (much):",
        "",
        f"| game | turni | import | {heads} | load average at the start |",
        rule + "---:|",
    ]
    for r in runs:
        cells = [f"{r[k]['cpu_ms']:.1f}" for k in OPS]
        load = r.get("loadavg", ["", ""])[0]
        lines.append(
            f"| {r['code']} | {r['size']} | {r['import_cpu_s']:.2f} | "
            + " | ".join(cells)
            + f" | {load} |"
        )
    by_code: dict[str, list[dict[str, Any]]] = {}
    for r in runs:
        by_code.setdefault(r["code"], []).append(r)
    ratios = []
    for code, rs in by_code.items():
        if len(rs) < 2:
            continue
        a, b = rs[0], rs[-1]
        per = [
            f"{b[k]['cpu_ms'] / a[k]['cpu_ms']:.2f} ({b[k]['median_ms'] / a[k]['median_ms']:.2f})"
            for k in OPS
        ]
        cpu = (b["import_cpu_s"] / b["size"]) / (a["import_cpu_s"] / a["size"])
        wall = (b["import_s"] / b["size"]) / (a["import_s"] / a["size"])
        ratios.append(
            f"| {code} | {b['size']} ÷ {a['size']} | "
            + " | ".join(per)
            + f" | {cpu:.2f} ({wall:.2f}) |"
        )
    if ratios:
        lines += [
            "",
            "Ratios, largest season ÷ smallest, of the CPU medians (of the wall medians in "
            "brackets); target ≤ 1.5, import per turno ≈ 1:",
            "",
            f"| game | turni | {heads} | import per turno |",
            "|---|---|" + "---:|" * (len(OPS) + 1),
            *ratios,
        ]
    lines.append(END)
    return "\n".join(lines) + "\n"


def write_doc(doc: Path, section: str) -> None:
    """Put ``section`` between this benchmark's markers of ``doc``."""
    write_section(doc, section, START, END)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.games", description=__doc__)
    p.add_argument("--sizes", default="40,400", help="turni of each season")
    p.add_argument(
        "--games",
        default=",".join(system.code for system in systems()),
        help="rule-set codes (default: every registered game system)",
    )
    p.add_argument("--backend", default="sqlite", choices=["sqlite", "postgres"])
    p.add_argument("--samples", type=int, default=7)
    p.add_argument("--postgres-url", default=os.environ.get("KINGBENCH_GAMES_URL", POSTGRES_URL))
    p.add_argument("--sqlite-path", default=SQLITE_PATH)
    p.add_argument("--out", type=Path, help="the results, JSON (default: printed)")
    p.add_argument("--doc", type=Path, help="write the section of this Markdown file")
    p.add_argument("--from-json", type=Path, help="only write --doc from saved results")
    args = p.parse_args(argv)
    command = "python -m benchmarks.games " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.from_json:
        write_doc(args.doc, render(json.loads(args.from_json.read_text())))
        return 0
    os.environ["DATABASE_URL"] = fresh_database(args.backend, args.sqlite_path, args.postgres_url)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingclub.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    settings.DEBUG = False
    results: dict[str, Any] = {
        "command": command,
        "backend": args.backend,
        "cache": settings.CACHES["default"]["BACKEND"],
        "samples": args.samples,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "runs": [],
    }
    first = True
    for code in args.games.split(","):
        for size in [int(s) for s in args.sizes.split(",") if s.strip()]:
            if not first:
                connection.close()
                fresh_database(args.backend, args.sqlite_path, args.postgres_url)
            first = False
            call_command("migrate", verbosity=0, interactive=False)
            call_command("createcachetable", verbosity=0)
            run = measure(code, size, args.samples)
            results["runs"].append(run)
            log(json.dumps(run))
            if args.out:  # after each run: a long run stopped keeps what it measured
                args.out.parent.mkdir(parents=True, exist_ok=True)
                args.out.write_text(json.dumps(results, indent=1))
    if args.doc:
        write_doc(args.doc, render(results))
    if not args.out:
        print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
