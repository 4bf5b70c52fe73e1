"""Load test on loopback: many members reading while two segretari record smazzate.

gunicorn serves kingclub in production settings against PostgreSQL; wrk (Debian's package)
reads the Classifica, the serie, turno and player pages; two segretari, each in a thread, log in
and record a whole turno through the live screen's form. Bounded in time; loopback only.

    .venv/bin/python -m benchmarks.loadtest [--seconds 30] [--connections 32] [--workers 4]
    .venv/bin/python -m benchmarks.loadtest --matrix --seconds 20   # issue 16, item 6

Writes docs/loadtest.md (its first part). ``--matrix`` runs the readers alone on each way of
connecting (PostgreSQL with a new connection per request, with persistent connections
``CONN_MAX_AGE``, with psycopg's pool ``DB_POOL``; SQLite) and writes its own section of
docs/loadtest.md, between its markers.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.cookiejar
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
DB = "kingload"


# the connection set-up of the run (``--matrix`` changes it between runs)
CONNECTION: dict[str, str] = {"CONN_MAX_AGE": "60"}
SQLITE = Path(tempfile.gettempdir()) / "kingload.sqlite3"


def env() -> dict[str, str]:
    static = Path(tempfile.gettempdir()) / "kingload-static"
    return {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DEBUG": "0",
        "SECRET_KEY": "load-test-only-" + "x7Qp" * 12,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB}",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "CONN_MAX_AGE": "60",
        "STATIC_ROOT": str(static),
        "AXES_FAILURE_LIMIT": "1000",
        **CONNECTION,
    }


def manage(*args: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env(),
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout


def setup_database() -> dict:
    if CONNECTION.get("DATABASE_URL", "").startswith("sqlite"):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{SQLITE}{suffix}").unlink(missing_ok=True)
    else:
        subprocess.run(
            ["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", DB], check=True
        )
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", DB], check=True)
    manage("migrate", "--noinput")
    manage("seed_demo", "--giornate", "40")
    manage("collectstatic", "--noinput")
    script = """
import json, datetime as dt
from django.contrib.auth.models import Group, User
from scoring.models import Season, Turno, Player, Giornata
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.turni import turno_start
import random
season = Season.objects.get(is_current=True)
group = Group.objects.get(name="Segretario")
players = list(Player.objects.filter(enrollments__season=season).values_list("name", flat=True))
last = Giornata.objects.filter(season=season).order_by("-date").first().date
nxt = last + dt.timedelta(days=7)
busy = set(
    Turno.objects.filter(giornata__date=nxt).values_list("seats__player__name", flat=True)
)
free = [p for p in players if p not in busy]
out = {"turni": [], "read": []}
for i in range(2):
    u = User.objects.create_user(f"seg{i}", password="load-test-pw-1")
    u.groups.add(group)
    table = free[4 * i: 4 * i + 4]
    t = turno_start(season=season, date=last + dt.timedelta(days=7), players=table,
                    first_dealer=table[0], table=f"carico {i}")
    rec = simulate_turno(season.ruleset, table, random.Random(i), first_dealer=table[0])
    out["turni"].append({"pk": t.pk, "players": table, "user": f"seg{i}",
        "smazzate": [{"game": s.game, "caller": s.caller, "trump": s.trump, "result": s.result}
                     for s in rec.smazzate]})
closed = Turno.objects.filter(season=season, status="chiuso").values_list("pk", flat=True)
pl = Player.objects.filter(enrollments__season=season).values_list("pk", flat=True)
out["read"] = ["/", "/serie/", "/turni/"]
out["read"] += [f"/turni/{pk}/" for pk in closed[:40]] + [f"/giocatori/{pk}/" for pk in pl]
print("JSON" + json.dumps(out))
"""
    stdout = manage("shell", "-c", script)
    return json.loads(stdout.split("JSON", 1)[1])


class Segretario(threading.Thread):
    """Logs in and records a whole turno through the form, timing each POST."""

    def __init__(self, turno: dict):
        super().__init__(daemon=True)
        self.turno = turno
        self.latencies: list[float] = []
        self.errors: list[str] = []
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        self.jar = jar

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def post(self, path: str, data: dict) -> tuple[int, str]:
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.csrf()}).encode()
        req = urllib.request.Request(BASE + path, data=body, headers={"Referer": BASE + path})
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode(errors="replace")

    def run(self) -> None:
        self.opener.open(BASE + "/accounts/login/", timeout=30).read()
        status, _ = self.post(
            "/accounts/login/", {"username": self.turno["user"], "password": "load-test-pw-1"}
        )
        live = f"/segreteria/turni/{self.turno['pk']}/"
        self.opener.open(BASE + live, timeout=30).read()
        for n, sm in enumerate(self.turno["smazzate"], start=1):
            data = {"number": n, "caller": sm["caller"], "game": sm["game"]}
            if sm["trump"]:
                data["trump"] = sm["trump"]
            for i, p in enumerate(self.turno["players"]):
                data[f"count_{i}"] = sm["result"][p]
            t0 = time.perf_counter()
            status, html = self.post(live + "smazzata/", data)
            self.latencies.append(time.perf_counter() - t0)
            if status != 200 or f"Smazzata {n} registrata" not in html:
                self.errors.append(f"smazzata {n}: HTTP {status}")
            time.sleep(random.uniform(0.2, 0.6))  # the table plays on


def wrk(paths: list[str], seconds: int, connections: int) -> dict:
    lua = Path(tempfile.gettempdir()) / "kingload.lua"
    lua.write_text(
        "paths = {" + ",".join(json.dumps(p) for p in paths) + "}\n"
        "i = 0\n"
        "request = function()\n"
        "  i = i % #paths + 1\n"
        "  return wrk.format('GET', paths[i])\n"
        "end\n"
        "done = function(summary, latency, requests)\n"
        '  io.write(string.format(\'JSON{"requests":%d,"duration_us":%d,"errors":%d,'
        '"non2xx":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d}\\n\', summary.requests,'
        " summary.duration, summary.errors.connect + summary.errors.read + summary.errors.write"
        " + summary.errors.timeout, summary.errors.status, latency:percentile(50),"
        " latency:percentile(90), latency:percentile(99), latency.max))\n"
        "end\n"
    )
    out = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{seconds}s",
            "--timeout",
            "10s",
            "-s",
            str(lua),
            BASE,
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=seconds + 60,
    ).stdout
    return json.loads(re.search(r"JSON(\{.*\})", out).group(1))


MATRIX = (
    ("PostgreSQL, a new connection per request", {"CONN_MAX_AGE": "0"}),
    ("PostgreSQL, persistent connections (`CONN_MAX_AGE=60`)", {"CONN_MAX_AGE": "60"}),
    ("PostgreSQL, psycopg's pool (`DB_POOL=4`)", {"CONN_MAX_AGE": "0", "DB_POOL": "4"}),
    ("SQLite (WAL), the default", {"DATABASE_URL": f"sqlite:///{SQLITE}"}),
)
START, END = "<!-- loadtest-matrix:start -->", "<!-- loadtest-matrix:end -->"


def matrix(args: argparse.Namespace) -> None:
    """The readers alone (no segretari) on each way of connecting; a section of the doc."""
    rows = []
    for label, connection in MATRIX:
        CONNECTION.clear()
        CONNECTION.update(connection)
        print(f"== {label}: preparing the database...", file=sys.stderr)
        data = setup_database()
        load = os.getloadavg()[0]
        with serving(args.workers):
            for path in ("/", *data["read"][:5]):  # every worker's first requests
                urllib.request.urlopen(BASE + path, timeout=30).read()
            r = wrk(data["read"], args.seconds, args.connections)
        rps = r["requests"] / (r["duration_us"] / 1e6)
        rows.append(
            f"| {label} | {r['requests']} | **{rps:.0f}** | {r['p50'] / 1000:.0f} ms "
            f"| {r['p99'] / 1000:.0f} ms | {r['errors']} | {r['non2xx']} | {load:.1f} |"
        )
        print(rows[-1], file=sys.stderr)
    section = "\n".join(
        [
            START,
            "## Ways of connecting to the database (issue 16, item 6)",
            "",
            f"Members reading alone (no segretari), wrk {args.connections} connections for "
            f"{args.seconds} s against gunicorn with {args.workers} sync workers, the same pages "
            "as above, each way on a fresh copy of the demo club. Generated by "
            f"`.venv/bin/python -m benchmarks.loadtest --matrix --seconds {args.seconds} "
            f"--connections {args.connections} --workers {args.workers}` on "
            f"{dt.date.today().isoformat()}; the load average is the machine's at the start of "
            "each run (2 cores, shared).",
            "",
            "| database | requests | requests/s | p50 | p99 | errors | non-2xx | load avg |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
            *rows,
            END,
        ]
    )
    doc = ROOT / "docs" / "loadtest.md"
    text = doc.read_text(encoding="utf-8")
    if START in text:
        text = text[: text.index(START)] + section + text[text.index(END) + len(END) :]
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    doc.write_text(text, encoding="utf-8")
    print(section)


class serving:
    """gunicorn on the loopback for the ``with`` block."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def __enter__(self) -> subprocess.Popen:
        self.server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "kingclub.wsgi",
                "--bind",
                f"127.0.0.1:{PORT}",
                "--workers",
                str(self.workers),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env(),
        )
        for _ in range(100):
            try:
                urllib.request.urlopen(BASE + "/", timeout=2).read()
                break
            except OSError:
                time.sleep(0.2)
        return self.server

    def __exit__(self, *exc: object) -> None:
        self.server.terminate()
        self.server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--matrix", action="store_true", help="each way of connecting, readers")
    args = parser.parse_args()
    if args.matrix:
        matrix(args)
        return
    print("preparing the database (demo club, 40 giornate)...", file=sys.stderr)
    data = setup_database()
    with serving(args.workers):
        segretari = [Segretario(t) for t in data["turni"]]
        for s in segretari:
            s.start()
        print(f"wrk: {args.connections} connections for {args.seconds}s...", file=sys.stderr)
        result = wrk(data["read"], args.seconds, args.connections)
        for s in segretari:
            s.join(timeout=120)
    report(args, data, result, segretari)


def report(args, data, r: dict, segretari: list[Segretario]) -> None:
    lat = [x for s in segretari for x in s.latencies]
    errors = [e for s in segretari for e in s.errors]
    rps = r["requests"] / (r["duration_us"] / 1e6)
    ms = {k: f"{r[k] / 1000:.0f} ms" for k in ("p50", "p90", "p99", "max")}
    p95 = sorted(lat)[int(0.95 * (len(lat) - 1))]
    post = (
        f"{statistics.median(lat) * 1000:.0f} ms | {p95 * 1000:.0f} ms | {max(lat) * 1000:.0f} ms"
    )
    pg = subprocess.run(["psql", "--version"], capture_output=True, text=True).stdout.strip()
    text = f"""# Load test

Many members reading while two segretari record smazzate: gunicorn ({args.workers} sync
workers, production settings, `DEBUG=0`) on PostgreSQL, on loopback only, bounded in time.
Generated by `.venv/bin/python -m benchmarks.loadtest --seconds {args.seconds} --connections
{args.connections} --workers {args.workers}` on {dt.date.today().isoformat()}.

Machine: {os.cpu_count()} cores, Python {platform.python_version()}, {pg}; wrk, gunicorn and
PostgreSQL share the machine. Data: the demo club with a season of 40 giornate
({len(data["read"])} distinct pages read in rotation: Classifica, serie, turni list, 40 Verbali,
every player page with its chart).

## Members reading (wrk, {args.connections} connections, {args.seconds} s)

| requests | requests/s | p50 | p90 | p99 | max | errors | non-2xx |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| {r["requests"]} | {rps:.0f} | {ms["p50"]} | {ms["p90"]} | {ms["p99"]} | {ms["max"]} \
| {r["errors"]} | {r["non2xx"]} |

## Two segretari recording at the same time

| smazzate recorded | errors | median POST | p95 POST | max POST |
| ---: | ---: | ---: | ---: | ---: |
| {len(lat) - len(errors)} of {len(lat)} | {len(errors)} | {post} |

Each POST is the live screen's form: the engine validates and scores the smazzata, the running
totals are stored, and the whole live screen is rendered back.
"""
    if errors:
        text += "\nErrors: " + "; ".join(errors) + "\n"
    doc = ROOT / "docs" / "loadtest.md"
    old = doc.read_text(encoding="utf-8") if doc.exists() else ""
    keep = old[old.index("\n## Reading the numbers") :] if "\n## Reading the numbers" in old else ""
    doc.write_text(text + keep, encoding="utf-8")
    print(text)
    if r["errors"] or r["non2xx"] or errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
