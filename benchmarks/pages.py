"""What members meet, measured through Django's whole stack (issue 16): the Classifica page cold
(right after a close, its shared cache invalidated by the season's new version) and warm, the
player page, against floors measured in the same run and the same process: the Classifica's
GROUP BY over the stored rows, and a minimal Django view returning a constant through the same
middleware.

    python -m benchmarks.pages --season-sizes 40,1000 --backend postgres
    python -m benchmarks.run --season-sizes 40,10000     # the same, through make bench's entry

One **single season** per size (300 members, tables of 4 to 7, played card by card by the
simulator), imported into a database of its own that is dropped and created again for each size:
``--postgres-url`` (default ``postgres://postgres@127.0.0.1:5432/kingbench_pages``) or
``--sqlite-path`` (default ``/tmp/kingbench_pages.sqlite3``); never the developer's database.
Medians over ``--samples`` (default 7) runs of everything; each cold sample follows its own
reopen and close of the season's last turno (both timed too).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.data import DEFAULT_DATA_DIR, generate_season, player_names
from benchmarks.report import write_section
from benchmarks.worker import FLOOR_SQL, fresh_database

SQLITE_PATH = "/tmp/kingbench_pages.sqlite3"
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/kingbench_pages"


def log(msg: str) -> None:
    print(f"    {msg}", file=sys.stderr, flush=True)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def med(samples: list[float]) -> dict[str, Any]:
    return {
        "n": len(samples),
        "median_ms": ms(statistics.median(samples)),
        "min_ms": ms(min(samples)),
        "max_ms": ms(max(samples)),
    }


def season_doc(turni: int, data_dir: Path) -> dict[str, Any]:
    """One single season of ``turni`` turni, cached as JSON under ``data_dir``."""
    # season 20 starts on 2020-09-01: its turni lie in the past, inside the calendar's window of
    # a season imported today (scoring/rules/calendar.py)
    cached = data_dir / f"single-season-{turni}-from-2020.json"
    if cached.exists():
        return json.loads(cached.read_text())
    t0 = time.perf_counter()
    doc = generate_season(20, turni, player_names())
    data_dir.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(doc))
    log(f"generated a season of {turni} turni in {time.perf_counter() - t0:.0f} s")
    return doc


def measure(size: int, samples: int, data_dir: Path) -> dict[str, Any]:
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.db import connection
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scoring.models import Absence, Player, Result, Seat, Smazzata, Turno
    from scoring.services.interchange import season_import
    from scoring.services.turni import turno_close, turno_reopen
    from scoring.views import pagecache

    doc = season_doc(size, data_dir)
    t0 = time.perf_counter()
    season = season_import(data=doc, current=True)
    out: dict[str, Any] = {"size": size, "import_s": round(time.perf_counter() - t0, 1)}
    if connection.vendor == "postgresql" and not connection.in_atomic_block:  # not in a test's
        with connection.cursor() as cur:
            cur.execute("VACUUM ANALYZE")
    out["data"] = {
        "turni": Turno.objects.filter(season=season).count(),
        "smazzate": Smazzata.objects.filter(turno__season=season).count(),
        "results": Result.objects.filter(smazzata__turno__season=season).count(),
        "members": season.enrollments.count(),
    }
    client = Client()

    def get(url: str, **headers) -> int:
        resp = client.get(url, **headers)
        if resp.status_code != 200:
            raise RuntimeError(f"{url}: HTTP {resp.status_code}")
        return len(resp.content)

    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            get(url)
        return len(ctx.captured_queries)

    sql = FLOOR_SQL.format(
        seat=Seat._meta.db_table, turno=Turno._meta.db_table, absence=Absence._meta.db_table
    )

    def floor() -> None:
        with connection.cursor() as cur:
            cur.execute(sql, [season.pk, season.pk])
            cur.fetchall()

    # warm-ups: the first request of a process imports templates, translations, URLconf
    get("/bench/constant/")
    get("/")
    floor()
    out["floor_groupby"] = med([timed(floor) for _ in range(samples)])
    out["floor_view"] = med([timed(lambda: get("/bench/constant/")) for _ in range(samples)])

    last = Turno.objects.filter(season=season, status=Turno.CHIUSO).order_by(
        "-giornata__date", "-number"
    )[0]
    # the player page: a member with the median number of turni
    by_turni = list(
        Seat.objects.filter(turno__season=season)
        .values("player_id")
        .annotate(n=Count("id"))
        .order_by("n", "player_id")
    )
    member = by_turni[len(by_turni) // 2]
    url = f"/giocatori/{member['player_id']}/"
    get(url)
    reopen, close, cold, cold_sorted, cold_cleared, player_cold = [], [], [], [], [], []
    for _ in range(samples):
        reopen.append(timed(lambda: turno_reopen(turno=last.pk, reason="benchmark")))
        close.append(timed(lambda: turno_close(turno=last.pk)))
        cold.append(timed(lambda: get("/")))  # the first reader after the close
        cold_sorted.append(timed(lambda: get("/?sort=-score")))
        player_cold.append(timed(lambda: get(url)))  # the player page's first reader
    for _ in range(samples):
        cache.clear()  # the same page with the whole cache emptied (a restart of Redis)
        pagecache.clear()  # and the pages kept in the process (a restart of the workers)
        cold_cleared.append(timed(lambda: get("/")))
    out["reopen"] = med(reopen)
    out["close"] = med(close)
    out["classifica_cold"] = med(cold)
    out["classifica_cold_sorted"] = med(cold_sorted)
    out["classifica_cold_cleared"] = med(cold_cleared)
    out["classifica_warm"] = med([timed(lambda: get("/")) for _ in range(samples)])
    out["classifica_bytes"] = get("/")
    cache.clear()
    pagecache.clear()
    out["classifica_queries_cold"] = queries("/")
    out["classifica_queries_warm"] = queries("/")
    # a logged-in member: the table from the shared cache, the page around it rendered
    user = User.objects.create_user("bench-member")
    Player.objects.filter(pk=Seat.objects.filter(turno=last).values("player_id")[:1]).update(
        user=user
    )
    client.force_login(user)
    get("/")
    out["classifica_warm_member"] = med([timed(lambda: get("/")) for _ in range(samples)])
    out["classifica_queries_member"] = queries("/")
    out["player_member"] = med([timed(lambda: get(url)) for _ in range(samples)])
    client.logout()

    out["player_turni"] = member["n"]
    out["player_cold"] = med(player_cold)
    out["player"] = med([timed(lambda: get(url)) for _ in range(samples)])
    out["player_queries"] = queries(url)
    return out


START, END = "<!-- pages:start -->", "<!-- pages:end -->"


def _cell(run: dict[str, Any], key: str) -> str:
    v = run.get(key)
    return f"{v['median_ms']:.1f}" if isinstance(v, dict) else "n/a"


def render(results: dict[str, Any], command: str) -> str:
    """The section of docs/benchmarks.md this benchmark writes (between its two markers)."""
    runs = results["runs"]
    head = "| | " + " | ".join(f"{r['size']:,} turni".replace(",", " ") for r in runs) + " |"
    rule = "|---|" + "---:|" * len(runs)
    rows = [
        ("floor: the Classifica's GROUP BY (SQL only)", "floor_groupby"),
        ("floor: a Django view returning a constant", "floor_view"),
        ("**Classifica, cold** (first reader after a close)", "classifica_cold"),
        ("Classifica, cold, `?sort=-score`", "classifica_cold_sorted"),
        ("Classifica, cold, whole cache emptied", "classifica_cold_cleared"),
        ("**Classifica, warm** (anonymous: the whole page kept)", "classifica_warm"),
        ("Classifica, warm, a logged-in member (the table kept)", "classifica_warm_member"),
        ("**player page**, warm (anonymous: the whole page kept)", "player"),
        ("player page, cold (first reader after a close)", "player_cold"),
        (
            "player page, a logged-in member (the season part from the shared cache)",
            "player_member",
        ),
        ("close of the last turno (service)", "close"),
        ("reopen of the last turno (service)", "reopen"),
    ]
    lines = [
        START,
        "## Pages as members meet them (issue 16)",
        "",
        f"Command: `{command}`. Backend {results['backend']}, its own database "
        f"`{results['database']}` (dropped and created again for each size: `--postgres-url`, "
        f"`--sqlite-path`), cache `{results['cache']}`. Through Django's test client, the whole "
        "middleware stack, `DEBUG` off. One single season per size, 300 members. Medians of "
        f"{results['samples']} samples in milliseconds; every cold sample follows its own reopen "
        "and close of the season's last turno. Load average (1 min) at the start of each size: "
        + ", ".join(f"{r['size']} turni {r['loadavg_start']}" for r in runs)
        + ".",
        "",
        head,
        rule,
    ]
    for label, key in rows:
        lines.append(f"| {label} | " + " | ".join(_cell(r, key) for r in runs) + " |")
    lines.append(
        "| queries: Classifica cold / warm / warm for a member / player page | "
        + " | ".join(
            f"{r['classifica_queries_cold']} / {r['classifica_queries_warm']} / "
            f"{r.get('classifica_queries_member', 'n/a')} / {r['player_queries']}"
            for r in runs
        )
        + " |"
    )
    lines.append(
        "| player page: the member's turni | "
        + " | ".join(str(r["player_turni"]) for r in runs)
        + " |"
    )
    lines += ["", "Ratios of the issue's targets, from the medians above:", ""]
    lines.append("| | " + " | ".join(f"{r['size']} turni" for r in runs) + " | target |")
    lines.append("|---|" + "---:|" * len(runs) + "---|")

    def ratio(r: dict[str, Any], a: str, b: list[tuple[float, str]]) -> float:
        return r[a]["median_ms"] / sum(k * r[x]["median_ms"] for k, x in b)

    cold = [ratio(r, "classifica_cold", [(3, "floor_groupby"), (1, "floor_view")]) for r in runs]
    warm = [ratio(r, "classifica_warm", [(1, "floor_view")]) for r in runs]
    lines.append(
        "| Classifica cold ÷ (3 × GROUP BY + constant view) | "
        + " | ".join(f"{x:.2f}" for x in cold)
        + " | ≤ 1 |"
    )
    lines.append(
        "| Classifica warm ÷ constant view | " + " | ".join(f"{x:.1f}" for x in warm) + " | ≤ 2 |"
    )
    first, last = runs[0], runs[-1]
    if len(runs) > 1:
        for label, key in (
            ("Classifica cold", "classifica_cold"),
            ("player page, warm", "player"),
            ("player page, cold", "player_cold"),
            ("player page, logged-in member", "player_member"),
        ):
            lines.append(
                f"| {label}: {last['size']} turni ÷ {first['size']} turni | "
                + " | ".join("" for _ in runs[:-1])
                + f" | {last[key]['median_ms'] / first[key]['median_ms']:.2f} | ≤ 1.5 |"
            )
    lines.append(END)
    return "\n".join(lines) + "\n"


def write_doc(doc: Path, section: str) -> None:
    """Put ``section`` between this benchmark's markers of ``doc``."""
    write_section(doc, section, START, END)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.pages", description=__doc__)
    p.add_argument("--season-sizes", default="40,1000", help="turni of each single season")
    p.add_argument("--backend", default="postgres", choices=["sqlite", "postgres"])
    p.add_argument("--samples", type=int, default=7)
    p.add_argument("--postgres-url", default=os.environ.get("KINGBENCH_PAGES_URL", POSTGRES_URL))
    p.add_argument("--sqlite-path", default=SQLITE_PATH)
    p.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    p.add_argument("--out", type=Path, help="the results, JSON (default: printed)")
    p.add_argument("--doc", type=Path, help="write the section of this Markdown file")
    p.add_argument("--from-json", type=Path, help="only write --doc from saved results")
    args = p.parse_args(argv)
    if args.samples < 5:
        p.error("--samples: at least 5")
    sizes = [int(s) for s in args.season_sizes.split(",") if s.strip()]
    command = "python -m benchmarks.pages " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.from_json:
        saved = json.loads(args.from_json.read_text())
        write_doc(args.doc, render(saved, saved.get("command", command)))
        return 0

    os.environ["DATABASE_URL"] = fresh_database(args.backend, args.sqlite_path, args.postgres_url)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingclub.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    settings.DEBUG = False  # production-like: no query log, no template debug
    settings.ROOT_URLCONF = "benchmarks.urls"  # the project's URLs + the constant view
    results: dict[str, Any] = {
        "command": command,
        "backend": args.backend,
        "database": args.postgres_url if args.backend == "postgres" else args.sqlite_path,
        "cache": settings.CACHES["default"]["BACKEND"],
        "samples": args.samples,
        "runs": [],
    }
    for i, size in enumerate(sizes):
        if i:  # a fresh database for each season size
            connection.close()
            fresh_database(args.backend, args.sqlite_path, args.postgres_url)
        call_command("migrate", verbosity=0, interactive=False)
        call_command("createcachetable", verbosity=0)
        load = os.getloadavg()[0]
        log(f"== {args.backend}, one season of {size} turni (load average {load:.1f})")
        run = measure(size, args.samples, args.data_dir)
        run["loadavg_start"] = round(load, 2)
        run["loadavg_end"] = round(os.getloadavg()[0], 2)
        results["runs"].append(run)
        log(json.dumps(run))
    text = json.dumps(results, indent=1)
    if args.doc:
        write_doc(args.doc, render(results, command))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
