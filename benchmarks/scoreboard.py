"""What the club room's scoreboards cost the server (issue 17): 50 screens polling /live/ every
2 s against one member reading the Classifica Generale every second.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> DEBUG=0 SECRET_KEY=... \\
        .venv/bin/python -m benchmarks.scoreboard --giornate 40 --requests 300

The database named by DATABASE_URL is EMPTIED (flush) and filled with the demo club
(``seed_demo --giornate N``: a season of N giornate, a turno in progress today, a season of
each other game). Then, in this process, through Django's test client (the whole middleware
stack, no network), each kind of request is timed ``--requests`` times: wall time per request
(this process and PostgreSQL on the same machine) and the SQL queries it runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable

SCREENS = 50
POLL_SECONDS = 2


def _measure(name: str, call: Callable[[], int], n: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    status = call()  # warm-up (imports, template loading)
    times = []
    with CaptureQueriesContext(connection) as ctx:
        status = call()
    queries = len(ctx.captured_queries)
    for _ in range(n):
        start = time.perf_counter()
        status = call()
        times.append((time.perf_counter() - start) * 1000)
    return {
        "name": name,
        "status": status,
        "queries": queries,
        "median": statistics.median(times),
        "mean": statistics.fmean(times),
        "p95": sorted(times)[int(len(times) * 0.95) - 1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--giornate", type=int, default=40)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--keep", action="store_true", help="reuse the database as it is")
    args = parser.parse_args(argv)
    if not os.environ.get("DATABASE_URL"):
        print("DATABASE_URL is required (the database is emptied first)", file=sys.stderr)
        return 2
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingclub.settings")
    import django

    django.setup()
    from django.core.cache import caches

    cache = caches["live"]
    from django.core.management import call_command
    from django.test import Client

    if not args.keep:
        import importlib

        from django.apps import apps

        call_command("migrate", "--noinput", verbosity=0)
        call_command("flush", "--noinput", verbosity=0)
        # the role groups, as their data migration makes them
        importlib.import_module("scoring.migrations.0002_roles").create_groups(apps, None)
        print(f"seeding the demo club ({args.giornate} giornate)...", file=sys.stderr)
        call_command("seed_demo", "--giornate", str(args.giornate), verbosity=0)

    client = Client()
    page = client.get("/live/", secure=True)
    assert page.status_code == 200, page.status_code
    html = page.content.decode()
    version = html.split('data-version="', 1)[1].split('"', 1)[0]
    tables = html.count('class="board-table')

    def poll_304() -> int:
        return client.get("/live/poll/", {"v": version}, secure=True).status_code

    def poll_200() -> int:
        return client.get("/live/poll/", {"v": "stale"}, secure=True).status_code

    def classifica_warm() -> int:
        return client.get("/", secure=True).status_code

    def classifica_cold() -> int:
        cache.clear()
        return client.get("/", secure=True).status_code

    from scoring.views import live

    n = args.requests
    cached_seconds = live.VERSION_SECONDS
    live.VERSION_SECONDS = 0  # no cache: every poll asks the database, every 200 renders
    recomputed = _measure("scoreboard poll, 304, version recomputed (1 query)", poll_304, n)
    rendered = _measure("scoreboard poll after a change, board rendered (200)", poll_200, 40)
    live.VERSION_SECONDS = 3600  # only cache hits in the loop (the recomputes are counted apart)
    hit = _measure("scoreboard poll, 304, version from the cache", poll_304, n)
    live.VERSION_SECONDS = cached_seconds

    def poll_200_cached() -> int:  # the other screens after a change: the board's HTML cached
        return client.get("/live/poll/", {"v": "older"}, secure=True).status_code

    rows = [
        hit,
        recomputed,
        rendered,
        _measure("scoreboard poll after a change, board from the cache (200)", poll_200_cached, n),
        _measure("Classifica Generale, table cached (200)", classifica_warm, max(n // 5, 20)),
        _measure("Classifica Generale, cache cleared (200)", classifica_cold, max(n // 10, 10)),
    ]
    assert rows[0]["status"] == rows[1]["status"] == 304, rows
    assert rows[2]["status"] == rows[3]["status"] == 200, rows
    load = os.getloadavg()
    print(f"board: {tables} table(s); load average before/after: see below")
    print("| request | status | SQL queries | median | mean | p95 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(
            f"| {r['name']} | {r['status']} | {r['queries']} | {r['median']:.2f} ms "
            f"| {r['mean']:.2f} ms | {r['p95']:.2f} ms |"
        )
    per_second = SCREENS / POLL_SECONDS
    # per worker process: one recomputed version per VERSION_SECONDS, the other polls cached
    recomputes = min(per_second, 1 / cached_seconds) if cached_seconds else per_second
    for stat in ("median", "mean"):
        hit_ms, miss_ms = rows[0][stat], rows[1][stat]
        screens_ms = (per_second - recomputes) * hit_ms + recomputes * miss_ms
        print()
        print(
            f"[{stat}s] {SCREENS} screens polling every {POLL_SECONDS} s = {per_second:g} "
            f"polls/s: {per_second - recomputes:g} x {hit_ms:.2f} ms + {recomputes:g} x "
            f"{miss_ms:.2f} ms = {screens_ms:.0f} ms of server time per second "
            f"(without the cache: {per_second * miss_ms:.0f} ms)"
        )
        for r in rows[4:]:
            print(f"  1 member reading the Classifica per second ({r['name']}): {r[stat]:.0f} ms")
        print(
            f"  after each change: 1 x {rows[2][stat]:.1f} ms + {SCREENS - 1} x "
            f"{rows[3][stat]:.2f} ms = {rows[2][stat] + (SCREENS - 1) * rows[3][stat]:.0f} ms "
            f"(without the cache: {SCREENS * rows[2][stat]:.0f} ms)"
        )
    print(f"load average (1, 5, 15 min) at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
