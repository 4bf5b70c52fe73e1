"""The five games kept by the generic ledger (issue 24): import, close, reopen and the Classifica
of one season per game and size, on a database of its own.

    python -m benchmarks.games --sizes 40,400 --backend sqlite
    python -m benchmarks.games --sizes 40,2000 --backend postgres --doc docs/benchmarks.md

Each season is built by the game's own generator of valid random turni (12 members, two tables
of 4 a giornata, deterministic), written as a ``kingclub/v1`` document and imported through
``import_season``'s service (timed: it must be linear in the turni). Then, ``--samples`` times:
the reopen and the close of the season's last turno through the services (timed, with their
queries), the Classifica page right after (cold) and again (warm), anonymous, through Django's
whole stack. Medians in milliseconds. The database is dropped and created again for each game
and size: ``--postgres-url`` (default ``.../kingbench_games``) or ``--sqlite-path``.
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
from benchmarks.worker import fresh_database

SQLITE_PATH = "/tmp/kingbench_games.sqlite3"
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/kingbench_games"
PLAYERS = [f"Socio {i:02d}" for i in range(1, 13)]
TABLES = 2  # tables of 4 each giornata
CODES = ("king-classico", "king-internazionale", "le-king", "skat-isko", "ramino-101")


def log(msg: str) -> None:
    print(f"    {msg}", file=sys.stderr, flush=True)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def med(samples: list[float]) -> dict[str, Any]:
    return {"n": len(samples), "median_ms": ms(statistics.median(samples))}


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

    from scoring.models import Turno
    from scoring.services.games import game_season_import, game_turno_close, game_turno_reopen

    doc = season_doc(code, size)
    t0 = time.perf_counter()
    season = game_season_import(data=doc, current=True)
    out: dict[str, Any] = {
        "code": code,
        "size": size,
        "import_s": round(time.perf_counter() - t0, 2),
    }
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
    reopen, close, cold, warm = [], [], [], []
    for _ in range(samples):
        reopen.append(timed(lambda: game_turno_reopen(turno=last.pk, reason="benchmark")))
        close.append(timed(lambda: game_turno_close(turno=last.pk)))
        cold.append(timed(lambda: get("/")))
        warm.append(timed(lambda: get("/")))
    out.update(reopen=med(reopen), close=med(close), cold=med(cold), warm=med(warm))
    for name, fn in (
        ("reopen", lambda: game_turno_reopen(turno=last.pk, reason="benchmark")),
        ("close", lambda: game_turno_close(turno=last.pk)),
        ("cold", lambda: get("/")),
        ("warm", lambda: get("/")),
    ):
        with CaptureQueriesContext(connection) as ctx:
            fn()
        out[f"{name}_queries"] = len(ctx.captured_queries)
    return out


START, END = "<!-- games:start -->", "<!-- games:end -->"


def render(results: dict[str, Any]) -> str:
    """The section of docs/benchmarks.md this benchmark writes (between its two markers)."""
    runs = results["runs"]
    lines = [
        START,
        "## The five games of the generic ledger (issue 24)",
        "",
        f"Command: `{results['command']}`. Backend {results['backend']}, a fresh database per "
        f"game and size, cache `{results['cache']}`. One season per game and size, 12 members, two "
        "tables of 4 a giornata, built by the game's own generator and imported through the "
        "service (`import`, seconds). Then the reopen and the close of the season's last turno "
        "(services) and the Classifica page (anonymous, Django's whole stack) right after the "
        f"close (cold) and again (warm): medians of {results['samples']} samples in milliseconds, "
        "queries of one more run in brackets.",
        "",
        "| game | turni | import (s) | close | reopen | Classifica cold | Classifica warm |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        cells = [
            f"{r[k]['median_ms']:.1f} ({r[f'{k}_queries']})"
            for k in ("close", "reopen", "cold", "warm")
        ]
        lines.append(
            f"| {r['code']} | {r['size']} | {r['import_s']:.2f} | " + " | ".join(cells) + " |"
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
            f"{b[k]['median_ms'] / a[k]['median_ms']:.2f}"
            for k in ("close", "reopen", "cold", "warm")
        ]
        imp = (b["import_s"] / b["size"]) / (a["import_s"] / a["size"])
        ratios.append(
            f"| {code} | {b['size']} ÷ {a['size']} | " + " | ".join(per) + f" | {imp:.2f} |"
        )
    if ratios:
        lines += [
            "",
            "Ratios, largest season ÷ smallest (target ≤ 1.5; import per turno, target ≈ 1):",
            "",
            "| game | turni | close | reopen | Classifica cold | Classifica warm "
            "| import per turno |",
            "|---|---|---:|---:|---:|---:|---:|",
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
    p.add_argument("--games", default=",".join(CODES))
    p.add_argument("--backend", default="sqlite", choices=["sqlite", "postgres"])
    p.add_argument("--samples", type=int, default=5)
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
    text = json.dumps(results, indent=1)
    if args.doc:
        write_doc(args.doc, render(results))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
