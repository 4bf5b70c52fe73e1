"""One benchmark run: one backend, one data size, in its own process (fresh database).

``python -m benchmarks.worker --backend sqlite --size 1000 --out result.json`` migrates a fresh
database, imports the cached seasons of that size and measures every operation of the issue,
writing one JSON document. :mod:`benchmarks.run` starts one of these per backend × size, so
peak memory (``ru_maxrss``) is the memory of that run alone.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import random
import resource
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.data import DEFAULT_DATA_DIR, load_season, seasons_for

SQLITE_PATH = "/tmp/kingbench.sqlite3"
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/kingbench"

# the floor of the Classifica Generale: one hand-written aggregate over the stored league points
FLOOR_SQL = """
SELECT x.player_id, SUM(x.lp) AS score
FROM (
    SELECT s.player_id AS player_id, s.league_points AS lp
    FROM {seat} s JOIN {turno} t ON t.id = s.turno_id
    WHERE t.season_id = %s AND t.status = 'chiuso'
    UNION ALL
    SELECT a.player_id, a.league_points FROM {absence} a WHERE a.season_id = %s
) x
GROUP BY x.player_id
ORDER BY score DESC
"""


def log(msg: str) -> None:
    print(f"    {msg}", file=sys.stderr, flush=True)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def summary(samples: list[float]) -> dict[str, Any]:
    """Median and p95 (nearest rank) in milliseconds."""
    s = sorted(samples)
    return {
        "n": len(s),
        "median_ms": ms(statistics.median(s)),
        "p95_ms": ms(s[max(0, math.ceil(0.95 * len(s)) - 1)]),
        "max_ms": ms(s[-1]),
        "min_ms": ms(s[0]),
    }


def rss_mb() -> float:
    """Peak resident memory of this process so far (Linux: ru_maxrss is in KiB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def cpu_seconds() -> float:
    """CPU time of this process (the database server's own work is not included)."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def fresh_database(backend: str, sqlite_path: str, postgres_url: str) -> str:
    """Create an empty database and return its DATABASE_URL."""
    if backend == "sqlite":
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(sqlite_path + suffix).unlink(missing_ok=True)
        return f"sqlite:///{sqlite_path}"
    if backend == "postgres":
        import psycopg
        from psycopg import sql

        dbname = postgres_url.rsplit("/", 1)[1].split("?")[0]
        admin_url = postgres_url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(dbname))
            )
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
        return postgres_url
    raise SystemExit(f"unknown backend {backend!r}")


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def counted(fn: Callable[[], Any]) -> tuple[float, int, Any]:
    """Seconds, queries and value of one call."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as q:
        secs, value = timed(fn)
    return secs, len(q), value


def guarded(name: str, results: dict, fn: Callable[[], dict]) -> None:
    """Run one measure; a missing piece (view, URL, export) is recorded as "n/a"."""
    try:
        results[name] = fn()
    except Exception as exc:  # keep measuring the rest
        results[name] = {"error": f"{type(exc).__name__}: {exc}"[:300]}
        log(f"{name}: {type(exc).__name__}: {exc}")
        traceback.print_exc(file=sys.stderr)


# -- the measures ---------------------------------------------------------------------------


def measure_import(size: int, data_dir: Path) -> dict[str, Any]:
    from scoring.services.interchange import season_import

    per_season = []
    load_secs = import_secs = cpu_secs = 0.0
    turni = 0
    for index, n in seasons_for(size):
        secs, doc = timed(lambda index=index, n=n: load_season(index, n, data_dir))
        load_secs += secs
        gc.collect()
        cpu0 = cpu_seconds()
        secs, _ = timed(lambda doc=doc: season_import(data=doc))
        cpu_secs += cpu_seconds() - cpu0
        del doc
        import_secs += secs
        turni += n
        per_season.append({"turni": n, "seconds": round(secs, 2), "turni_per_s": n / secs})
        log(f"imported season {index} ({n} turni) in {secs:.1f} s ({n / secs:.0f} turni/s)")
    return {
        "turni": turni,
        "seconds": round(import_secs, 2),
        "turni_per_s": turni / import_secs if import_secs else None,
        "cpu_seconds": round(cpu_secs, 2),
        "json_load_seconds": round(load_secs, 2),
        "peak_rss_mb": rss_mb(),
        "seasons": per_season,
        "first_season_turni_per_s": per_season[0]["turni_per_s"],
        "last_season_turni_per_s": per_season[-1]["turni_per_s"],
    }


def analyze(backend: str) -> float:
    """PostgreSQL: VACUUM ANALYZE after the bulk load (autovacuum would get there on its own)."""
    from django.db import connection

    if backend != "postgres" or connection.in_atomic_block:  # no VACUUM in a transaction
        return 0.0
    secs, _ = timed(lambda: connection.cursor().execute("VACUUM ANALYZE"))
    return secs


def dataset_facts(backend: str) -> dict[str, Any]:
    from django.db import connection

    from scoring.models import Absence, Giornata, Result, Season, Seat, Smazzata, Turno

    facts = {
        "seasons": Season.objects.count(),
        "giornate": Giornata.objects.count(),
        "turni": Turno.objects.count(),
        "seats": Seat.objects.count(),
        "smazzate": Smazzata.objects.count(),
        "results": Result.objects.count(),
        "absences": Absence.objects.count(),
    }
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":  # the backend's, also when the smoke test runs here
            cur.execute("SELECT pg_database_size(current_database())")
            facts["db_mb"] = round(cur.fetchone()[0] / 2**20, 1)
            cur.execute("SHOW server_version")
            facts["server_version"] = cur.fetchone()[0]
        else:
            cur.execute("SELECT sqlite_version()")
            facts["server_version"] = cur.fetchone()[0]
            path = connection.settings_dict["NAME"]
            facts["db_mb"] = round(
                sum(
                    os.path.getsize(str(path) + s)
                    for s in ("", "-wal")
                    if os.path.exists(str(path) + s)
                )
                / 2**20,
                1,
            )
    return facts


def biggest_season():
    from django.db.models import Count

    from scoring.models import Season

    return Season.objects.annotate(n=Count("turni")).order_by("-n", "-pk").first()


def measure_recording(season_pk: int) -> dict[str, Any]:
    """A new 4-player turno on a new giornata after the last: 19 smazzate, then the close."""
    import datetime as dt

    from django.db.models import Max

    from scoring.models import Enrollment, Giornata, Season
    from scoring.rules.caf.interchange import smazzata_to_input
    from scoring.rules.caf.simulator import simulate_turno
    from scoring.services.deals import smazzata_record
    from scoring.services.turni import turno_close, turno_start

    season = Season.objects.get(pk=season_pk)
    last = Giornata.objects.filter(season=season).aggregate(m=Max("date"))["m"]
    date = last + dt.timedelta(days=1)
    players = list(
        Enrollment.objects.filter(season=season)
        .order_by("player__name")
        .values_list("player__name", flat=True)[:4]
    )
    record = simulate_turno(season.ruleset, players, random.Random(7), first_dealer=players[0])
    start_secs, start_q, turno = counted(
        lambda: turno_start(season=season, date=date, players=players, first_dealer=players[0])
    )
    times, queries = [], []
    for i, sm in enumerate(record.smazzate, start=1):
        secs, q, _ = counted(
            lambda sm=sm, i=i: smazzata_record(
                turno=turno.pk, record=smazzata_to_input(sm), number=i
            )
        )
        times.append(secs)
        queries.append(q)
    close_secs, close_q, _ = counted(
        lambda: turno_close(turno=turno.pk, tiebreak=list(record.tiebreak) or None)
    )
    return {
        "turno_start_ms": ms(start_secs),
        "turno_start_queries": start_q,
        "smazzata": summary(times),
        "smazzata_first_ms": ms(times[0]),
        "smazzata_last_ms": ms(times[-1]),
        "smazzata_queries_median": statistics.median(queries),
        "smazzata_queries_max": max(queries),
        "close_ms": ms(close_secs),
        "close_queries": close_q,
        "turno_pk": turno.pk,
    }


def _standings_snapshot(season_pk: int) -> list[tuple]:
    """Everything the season recompute writes, to compare before and after."""
    from scoring.models import Absence, Giornata, Seat, Standing, TitleAward

    return [
        *Standing.objects.filter(season_id=season_pk)
        .order_by("player_id")
        .values_list(
            "player_id",
            "place",
            "previous_place",
            "score",
            "series",
            "previous_series",
            "turni",
            "absences",
            "scudetti",
            "titles",
            "streak",
        ),
        *Seat.objects.filter(turno__season_id=season_pk)
        .order_by("id")
        .values_list("id", "series_before", "series_after", "titles", "league_points"),
        *TitleAward.objects.filter(season_id=season_pk)
        .order_by("seat_id", "code")
        .values_list("seat_id", "player_id", "code", "value"),
        *Absence.objects.filter(season_id=season_pk)
        .order_by("giornata_id", "player_id")
        .values_list("giornata_id", "player_id", "league_points"),
        *Giornata.objects.filter(season_id=season_pk)
        .order_by("date")
        .values_list("date", "lowest", "state_after"),
    ]


def measure_reopen(season_pk: int) -> dict[str, Any]:
    """Reopen the first turno of giornata 1 and close it again: two replays of the season."""
    from scoring.models import Turno
    from scoring.services.turni import turno_close, turno_reopen

    first = (
        Turno.objects.filter(season_id=season_pk, status=Turno.CHIUSO)
        .order_by("giornata__date", "number")
        .first()
    )
    giornate = first.season.giornate.count()
    before = _standings_snapshot(season_pk)
    reopen_secs, reopen_q, _ = counted(
        lambda: turno_reopen(turno=first.pk, reason="benchmark: correzione di un verbale")
    )
    close_secs, close_q, _ = counted(lambda: turno_close(turno=first.pk))
    after = _standings_snapshot(season_pk)
    return {
        "giornate": giornate,
        "reopen_ms": ms(reopen_secs),
        "reopen_queries": reopen_q,
        "close_ms": ms(close_secs),
        "close_queries": close_q,
        "same_result": before == after,
    }


def measure_classifica(season_pk: int, repeat: int) -> dict[str, Any]:
    from decimal import Decimal

    from django.db import connection

    from scoring.models import Absence, Season, Seat, Standing, Turno
    from scoring.rules.caf import rank_classifica
    from scoring.selectors import standings_aggregate
    from scoring.verbale import classifica

    sql = FLOOR_SQL.format(
        seat=Seat._meta.db_table, turno=Turno._meta.db_table, absence=Absence._meta.db_table
    )

    def floor():
        with connection.cursor() as cur:
            cur.execute(sql, [season_pk, season_pk])
            return cur.fetchall()

    def stored():
        season = Season.objects.get(pk=season_pk)
        secs, rows = timed(lambda: classifica(season))
        return secs, rows

    def recomputed():
        season = Season.objects.get(pk=season_pk)
        secs, rows = timed(lambda: rank_classifica(standings_aggregate(season)))
        return secs, rows

    floor_rows = floor()  # warm-up
    stored()
    recomputed()
    t_floor = [timed(floor)[0] for _ in range(repeat)]
    t_stored = [stored()[0] for _ in range(repeat)]
    t_recomputed = [recomputed()[0] for _ in range(repeat)]
    # the three agree on every player's score
    by_floor = {pid: Decimal(s).quantize(Decimal("0.01")) for pid, s in floor_rows}
    by_stored = dict(Standing.objects.filter(season_id=season_pk).values_list("player_id", "score"))
    f, s, r = summary(t_floor), summary(t_stored), summary(t_recomputed)
    return {
        "players": len(floor_rows),
        "floor": f,
        "stored": s,
        "recomputed": r,
        "stored_ratio": s["median_ms"] / f["median_ms"],
        "recomputed_ratio": r["median_ms"] / f["median_ms"],
        "agree": all(by_stored.get(p) == v for p, v in by_floor.items()),
    }


def _get(client, url: str):
    resp = client.get(url)
    if resp.status_code != 200:
        raise RuntimeError(f"HTTP {resp.status_code}")
    return resp


def measure_page(url_name: str, args: list, repeat: int) -> dict[str, Any]:
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    try:
        url = reverse(url_name, args=args)
    except NoReverseMatch:
        return {"na": f"no URL named {url_name!r} yet"}
    client = Client()
    secs, queries, resp = counted(lambda: _get(client, url))  # first request, with its queries
    times = [timed(lambda: _get(client, url))[0] for _ in range(repeat)]
    return {
        "url": url,
        "first_ms": ms(secs),
        "queries": queries,
        "bytes": len(resp.content),
        **summary(times),
    }


def measure_document(url_name: str, args: list, repeat: int) -> dict[str, Any]:
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    try:
        url = reverse(url_name, args=args)
    except NoReverseMatch:
        return {"na": f"no URL named {url_name!r} yet"}
    client = Client()
    secs, queries, resp = counted(lambda: _get(client, url))
    times = [timed(lambda: _get(client, url))[0] for _ in range(repeat)]
    return {
        "url": url,
        "first_ms": ms(secs),
        "queries": queries,
        "bytes": len(resp.content),
        "content_type": resp.get("Content-Type", ""),
        **summary(times),
    }


def page_targets(season_pk: int) -> int:
    """Make the biggest season the current one (the home page shows it); a closed 7-player turno
    of it for the Verbale pages."""
    from django.db import transaction
    from django.db.models import Count

    from scoring.models import Season, Turno

    with transaction.atomic():
        Season.objects.exclude(pk=season_pk).update(is_current=False)
        Season.objects.filter(pk=season_pk).update(is_current=True)
    turno = (
        Turno.objects.filter(season_id=season_pk, status=Turno.CHIUSO)
        .annotate(n=Count("seats"))
        .order_by("-n", "-giornata__date", "-number")
        .first()
    )
    return turno.pk


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--backend", required=True, choices=["sqlite", "postgres"])
    p.add_argument("--size", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--data-dir", default=str(DEFAULT_DATA_DIR))
    p.add_argument("--repeat", type=int, default=30, help="requests per page, runs per query")
    p.add_argument("--doc-repeat", type=int, default=5, help="runs per PDF/XLSX")
    p.add_argument("--sqlite-path", default=SQLITE_PATH)
    p.add_argument("--postgres-url", default=os.environ.get("KINGBENCH_POSTGRES_URL", POSTGRES_URL))
    args = p.parse_args(argv)

    os.environ["DATABASE_URL"] = fresh_database(args.backend, args.sqlite_path, args.postgres_url)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingclub.settings")
    import django

    django.setup()
    from django.conf import settings

    # production-like: no query log, no template debug (settings.DEBUG is read at each use)
    settings.DEBUG = False
    results, code = measure_all(
        args.backend, args.size, Path(args.data_dir), args.repeat, args.doc_repeat, migrate=True
    )
    Path(args.out).write_text(json.dumps(results, indent=1, default=str))
    return code


def measure_all(
    backend: str, size: int, data_dir: Path, repeat: int, doc_repeat: int, migrate: bool
) -> tuple[dict[str, Any], int]:
    """Every measure on the current database (migrated first with ``migrate``): the results and
    the exit status (1 when no season was imported). The smoke test runs it in its process."""
    from django.core.management import call_command

    results: dict[str, Any] = {
        "backend": backend,
        "size": size,
        "repeat": repeat,
        "doc_repeat": doc_repeat,
        "rss_start_mb": rss_mb(),
        "loadavg_start": os.getloadavg()[0],
    }
    if migrate:
        secs, _ = timed(lambda: call_command("migrate", verbosity=0, interactive=False))
        results["migrate_seconds"] = round(secs, 2)
        log(f"migrated in {secs:.1f} s")

    guarded("import", results, lambda: measure_import(size, data_dir))
    results["analyze_seconds"] = round(analyze(backend), 2)
    guarded("dataset", results, lambda: dataset_facts(backend))
    season = biggest_season()
    if season is None:
        return results, 1
    results["season"] = {
        "name": season.name,
        "turni": season.n,
        "giornate": season.giornate.count(),
    }
    log("recording a turno...")
    guarded("recording", results, lambda: measure_recording(season.pk))
    log("reopening an early turno...")
    guarded("reopen", results, lambda: measure_reopen(season.pk))
    log("classifica...")
    guarded("classifica", results, lambda: measure_classifica(season.pk, repeat))
    turno_pk = page_targets(season.pk)
    log("pages...")
    guarded("page_home", results, lambda: measure_page("scoring:home", [], repeat))
    guarded("page_turno", results, lambda: measure_page("scoring:turno", [turno_pk], repeat))
    log("documents...")
    guarded(
        "doc_pdf",
        results,
        lambda: measure_document("scoring:turno_pdf", [turno_pk], doc_repeat),
    )
    guarded(
        "doc_xlsx",
        results,
        lambda: measure_document("scoring:turno_xlsx", [turno_pk], doc_repeat),
    )
    results["peak_rss_mb"] = rss_mb()
    results["loadavg_end"] = os.getloadavg()[0]
    return results, 0


if __name__ == "__main__":
    sys.exit(main())
