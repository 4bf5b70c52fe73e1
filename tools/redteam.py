"""The red team of issue 26, run again: every finding reproduced, with what answers now.

    python -m tools.redteam                                    # SQLite: live Redis, dead Redis
    python -m tools.redteam --postgres postgres://postgres@127.0.0.1:5432/trust_rt
    python -m tools.redteam --out /tmp/redteam.json --doc docs/security.md

Each configuration (database × cache) runs in its own process with production settings
(``DEBUG=0``, a ``SECRET_KEY``, ``whitenoise``'s manifest over a ``collectstatic`` of its own;
TLS redirects and secure cookies off, as behind a local proxy) on a fresh database: the SQLite
file is new, the PostgreSQL database (one of your own: it is flushed) is emptied first. Redis is
``127.0.0.1:6379`` (database 13, keys of this run only) or a closed port. Requests go through
Django's whole stack in the process (``django.test.Client``, a 500 answered, not raised).

The findings (the issue's numbers): 1 a file of nested brackets given to ``import_season``,
``kingscore`` and ``restore``; 2 the C.A.F. pages and ``/healthz`` with the cache; 3 a backup
whose Classifica row was edited; 4 ``/turni/9223372036854775808/verbale.pdf`` and ``.xlsx``,
``correggi=999999`` and 20 digits on the Skat live screen; 6a a turno dated 9999-12-31 (form,
``scoring.api``, import); 6b six King internazionale turni on one day; 6c ``1_1_3`` and
Arabic-Indic digits on a live screen; 6d PIN ``0000``; 7 the season picker for an anonymous
visitor and, on PostgreSQL, reads while the server drops the connection. After all of them,
``check_ledger``'s comparison over every season.
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
REDIS_LIVE = "redis://127.0.0.1:6379/13"
REDIS_DEAD = "redis://127.0.0.1:9/0"  # the discard port: nothing listens there
BIG_KEY = "9223372036854775808"  # 2**63
HIDDEN = "Stagione-segreta-2027"
P4 = ["Anna", "Bruno", "Carla", "Dario"]


# -- the child: one configuration -----------------------------------------------------------------
class Run:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def add(self, finding: str, tried: str, held: bool, answer: str) -> None:
        answer = answer if len(answer) <= 100 else answer[:99] + "…"
        self.rows.append({"finding": finding, "tried": tried, "held": held, "answer": answer})
        print(f"  [{'held' if held else 'FAIL'}] {finding} {tried}: {answer}", file=sys.stderr)


def _setup(database: str, redis: str, static: str) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="kingclub.settings",
        DEBUG="0",
        SECRET_KEY="redteam-" + "x" * 50,
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        DATABASE_URL=database,
        REDIS_URL=redis,
        STATIC_ROOT=static,
        LOG_LEVEL="CRITICAL",  # the cache's warnings are expected here; the figures say it
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    if not database.startswith("sqlite"):
        call_command("flush", verbosity=0, interactive=False)
    if not (Path(static) / "staticfiles.json").exists():
        call_command("collectstatic", verbosity=0, interactive=False)


def _problem_codes(exc: Exception) -> list[str]:
    return [p.code for p in getattr(exc, "problems", ())]


def brackets(run: Run) -> None:
    """1: nested brackets through the three readers of a file."""
    from django.core.management import CommandError, call_command

    for kb in (40, 100, 400):
        n = kb * 1024 // 2
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "brackets.json"
            path.write_bytes(b"[" * n + b"]" * n)
            for command in ("import_season", "kingscore", "restore"):
                args = [str(path)] + (["--force"] if command == "restore" else [])
                before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                start = time.perf_counter()
                try:
                    call_command(command, *args, stdout=_Sink(), stderr=(err := _Sink()))
                    answer, refused = "accepted", False
                except (CommandError, SystemExit) as exc:
                    answer, refused = str(exc) or err.text, True
                seconds = time.perf_counter() - start
                peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                code = "JSON_DEPTH" if "JSON_DEPTH" in answer + err.text else answer[:60]
                held = refused and code == "JSON_DEPTH" and seconds < 2 and peak - before < 50
                run.add(
                    "1",
                    f"{command} {kb} KB of brackets",
                    held,
                    f"{code} in {seconds:.3f} s, peak RSS {peak:.0f} MB (+{peak - before:.0f})",
                )


class _Sink:
    def __init__(self) -> None:
        self.text = ""

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass


def build_club() -> dict[str, Any]:
    """The club every later check reads: a published current C.A.F. season, a hidden one, a
    Skat list open with one game recorded, a King internazionale season, the users."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from scoring.models import Player
    from scoring.services.interchange import season_import
    from scoring.services.publishing import season_publish
    from scoring.services.season import season_create

    users = {}
    for name, group in (("segretario", "Segretario"), ("socio", "Socio")):
        user = get_user_model().objects.create_user(username=f"rt-{name}", password="pw-rt-1")
        user.groups.add(Group.objects.get_or_create(name=group)[0])
        users[name] = user
    caf = season_import(data=json.loads((FIXTURES / "season-hand.json").read_text()), current=True)
    hidden_doc = json.loads((FIXTURES / "season-hand.json").read_text())
    hidden_doc["season"] = HIDDEN
    hidden = season_import(data=hidden_doc, current=False)
    season_publish(season=hidden, published=False, user=users["segretario"])
    season_import(data=json.loads((FIXTURES / "skat-sample.json").read_text()))
    for name in [*P4, "Elena", "Franco", "Gina", "Ugo", "Vera", "Zeno"]:
        Player.objects.get_or_create(name=name)
    skat = season_create(name="Skat RT", ruleset_code="skat-isko", current=False)
    king = season_create(name="KI RT", ruleset_code="king-internazionale", current=False)
    return {"users": users, "caf": caf, "hidden": hidden, "skat": skat, "king": king}


def _client(user=None):
    from django.test import Client

    c = Client(raise_request_exception=False)
    if user is not None:
        c.force_login(user)
    return c


def cache_pages(run: Run, club: dict[str, Any], cache: str) -> None:
    """2: the C.A.F. pages (the shared cache's readers) and /healthz."""
    from django.urls import reverse

    from scoring.models import Player

    anna = Player.objects.get(name="Anna")
    urls = [
        "/",
        reverse("scoring:classifica", args=[club["caf"].pk]),
        reverse("scoring:player", args=[anna.pk]),
    ]
    c = _client()
    statuses = [c.get(u).status_code for u in urls for _ in range(3)]
    ok = statuses.count(200)
    run.add("2", "C.A.F. home, Classifica, player page, 3 times each",
            ok == len(statuses), f"{ok}/{len(statuses)} answered 200")  # fmt: skip
    r = c.get("/healthz")
    body = json.loads(r.content)
    want = "degraded" if cache == "dead" else "ok"
    run.add(
        "2",
        "/healthz",
        r.status_code == 200 and body["status"] == want,
        f"{r.status_code} status {body['status']}, cache {body['cache']['state']}",
    )


def edited_restore(run: Run) -> None:
    """3: a backup whose C.A.F. Classifica row was edited (99.99 points, place 1)."""
    from scoring.models import Standing
    from scoring.services.backup import backup_document, backup_restore

    backup = backup_document()
    edited = copy.deepcopy(backup)
    seasons = edited["tables"]["scoring.season"]
    cols = seasons["columns"]
    caf = next(
        r[cols.index("id")]
        for r in seasons["rows"]
        if r[cols.index("ruleset_code")] == "caf" and r[cols.index("name")] != HIDDEN
    )
    rows = edited["tables"]["scoring.standing"]
    row = next(r for r in rows["rows"] if r[rows["columns"].index("season")] == caf)
    row[rows["columns"].index("score")] = "99.99"
    row[rows["columns"].index("place")] = 1
    before = sorted(Standing.objects.values_list("pk", "place", "score"))
    try:
        backup_restore(data=edited, force=True)
        answer, held = "restored", False
    except Exception as exc:  # RuleViolation expected
        codes = _problem_codes(exc)
        held = "LEDGER" in codes
        answer = f"refused: {str(exc)[:90]}…"
    same = sorted(Standing.objects.values_list("pk", "place", "score")) == before
    answer += "; database unchanged" if same else "; DATABASE CHANGED"
    run.add("3", "restore of a backup with a Classifica row set to 99.99, place 1",
            held and same, answer)  # fmt: skip


def big_keys(run: Run, club: dict[str, Any]) -> None:
    """4: keys beyond 2**63 - 1 and smazzate not recorded."""
    from django.urls import reverse

    from scoring.api import turno_start
    from scoring.models import Smazzata
    from tests.helpers import GRAND_HAND_FORM

    for who, user in (("anonymous", None), ("segretario", club["users"]["segretario"])):
        c = _client(user)
        for suffix in ("verbale.pdf", "verbale.xlsx"):
            r = c.get(f"/turni/{BIG_KEY}/{suffix}")
            run.add("4", f"GET /turni/{BIG_KEY}/{suffix} ({who})", r.status_code == 404,
                    str(r.status_code))  # fmt: skip
    lista = turno_start(
        season=club["skat"], date=dt.date(2026, 11, 20), players=P4[:3], first_dealer="Anna"
    )
    c = _client(club["users"]["segretario"])
    c.post(reverse("scoring:turno_smazzata", args=[lista.pk]), GRAND_HAND_FORM)
    recorded = Smazzata.objects.filter(turno=lista).count()
    live = reverse("scoring:turno_live", args=[lista.pk])
    for value in ("999999", "9" * 20):
        r = c.get(live, {"correggi": value})
        run.add("4", f"Skat live screen ?correggi={value}", r.status_code == 404,
                str(r.status_code))  # fmt: skip
    club["lista"], club["recorded"] = lista, recorded


def absurd_input(run: Run, club: dict[str, Any]) -> None:
    """6a-6d."""
    from django.urls import reverse

    from scoring import api
    from scoring.models import Player, PlayerPin, Smazzata, Turno
    from scoring.services.confirmations import pin_set
    from scoring.services.interchange import season_import
    from tests.helpers import GRAND_HAND_FORM

    seg = _client(club["users"]["segretario"])
    pk = {p.name: p.pk for p in Player.objects.filter(name__in=P4)}
    turni = Turno.objects.count()
    form = {"season": club["caf"].pk, "date": "9999-12-31", "first_dealer_seat": 1}
    form |= {f"seat_{i}": pk[n] for i, n in enumerate(P4, start=1)}
    r = seg.post(reverse("scoring:turno_new"), form)
    said = "Data: il 31/12/9999 è fuori dal periodo della stagione"
    shown = said in r.content.decode()
    run.add("6a", "new-turno form dated 9999-12-31 (C.A.F.)",
            r.status_code == 200 and shown and Turno.objects.count() == turni,
            f"{r.status_code}, " + (f"«{said} (…)» by the field" if shown else "NO ERROR SHOWN")
            + f", turni {turni} -> {Turno.objects.count()}")  # fmt: skip
    for season in (club["king"], club["skat"]):
        players = P4[:3] if season.ruleset_code == "skat-isko" else P4
        try:
            api.turno_start(season=season, date=dt.date(9999, 12, 31), players=players,
                            first_dealer=players[0])  # fmt: skip
            answer, held = "started", False
        except Exception as exc:
            answer, held = str(exc)[:120], _problem_codes(exc) == ["DATE_OUTSIDE_SEASON"]
        run.add("6a", f"scoring.api.turno_start 9999-12-31 ({season.ruleset_code})", held, answer)
    for fixture in ("season-hand.json", "ramino-sample.json"):
        doc = json.loads((FIXTURES / fixture).read_text())
        doc["season"] = f"RT far {fixture}"
        doc["turni"][-1]["date"] = "9999-12-31"
        try:
            season_import(data=doc)
            answer, held = "imported", False
        except Exception as exc:
            answer, held = str(exc)[:120], "DATE_OUTSIDE_SEASON" in _problem_codes(exc)
        run.add("6a", f"import of {fixture} with a turno dated 9999-12-31", held, answer)

    day = dt.date(2026, 11, 21)
    tables = [P4, ["Bruno", "Elena", "Franco", "Gina"], ["Bruno", "Ugo", "Vera", "Zeno"]]
    tables += [["Bruno", "Elena", "Ugo", "Zeno"], ["Bruno", "Franco", "Vera", "Gina"]]
    tables += [["Bruno", "Carla", "Ugo", "Gina"]]
    started = refused = 0
    for players in tables:
        try:
            api.turno_start(season=club["king"], date=day, players=players,
                            first_dealer=players[0])  # fmt: skip
            started += 1
        except Exception as exc:
            refused += "PLAYER_TWICE_IN_GIORNATA" in _problem_codes(exc)
    run.add("6b", "six King internazionale turni for Bruno on one day",
            (started, refused) == (1, 5), f"{started} started, {refused} refused")  # fmt: skip

    lista, recorded = club["lista"], club["recorded"]
    for typed in ("8_9", "٨٩"):
        r = seg.post(
            reverse("scoring:turno_smazzata", args=[lista.pk]),
            {**GRAND_HAND_FORM, "declarer_points": typed},
        )
        now = Smazzata.objects.filter(turno=lista).count()
        run.add("6c", f"Skat declarer's points typed {typed!r}",
                r.status_code != 500 and now == recorded == 1,  # the real hand was stored
                f"{r.status_code}, smazzate {recorded} -> {now}")  # fmt: skip

    anna = Player.objects.get(name="Anna")
    for pin in ("0000", "1234", "1111"):
        try:
            pin_set(player=anna, pin=pin)
            answer, held = "set", False
        except Exception as exc:
            answer, held = str(exc)[:80], _problem_codes(exc) == ["PIN_TRIVIAL"]
        run.add("6d", f"PIN {pin}", held and not PlayerPin.objects.exists(), answer)


def picker(run: Run, club: dict[str, Any]) -> None:
    """7: the season picker."""
    from django.urls import reverse

    url = reverse("scoring:classifica", args=[club["caf"].pk])
    for who, user in (("anonymous", None), ("socio", club["users"]["socio"])):
        html = _client(user).get(url).content.decode()
        run.add("7", f"season picker, {who}", HIDDEN not in html,
                "the unpublished season's name not on the page" if HIDDEN not in html
                else "NAME SHOWN")  # fmt: skip
    html = _client(club["users"]["segretario"]).get(url).content.decode()
    run.add("7", "season picker, segretario", HIDDEN in html, "sees it")


def dropped_connections(run: Run, database: str) -> None:
    """7: PostgreSQL drops the site's connections (``pg_terminate_backend``) between reads. The
    test client keeps Django's per-request connection handling out, so this one is served by
    gunicorn (2 sync workers, the same settings) and read over HTTP."""
    import socket
    import urllib.error
    import urllib.request

    import psycopg
    from django.db import connection

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "kingclub.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2"],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def get(path: str) -> int:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
                return r.status
        except urllib.error.HTTPError as exc:
            return exc.code
        except OSError:
            return 0

    try:
        for _ in range(120):
            if get("/healthz") == 200:
                break
            time.sleep(0.5)
        url = database.replace("postgres://", "postgresql://")
        statuses: list[int] = []
        with psycopg.connect(url, autocommit=True) as admin:
            drop = (
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            dropped = 0
            for i in range(60):
                if i % 2 == 0:
                    dropped += admin.execute(drop).fetchone()[0]
                statuses.append(get(("/", "/healthz", "/classifica/", "/turni/")[i % 4]))
    finally:
        server.terminate()
        server.wait(timeout=30)
    connection.close()  # this process's own connection was dropped too
    bad = sum(s != 200 for s in statuses)
    run.add("7", "60 reads by gunicorn, every connection dropped before every other read "
            "(PostgreSQL)", bad == 0,
            f"{len(statuses) - bad}/{len(statuses)} answered 200 ({dropped} connections "
            f"dropped); others: {sorted(set(statuses) - {200})}")  # fmt: skip


def ledger(run: Run, when: str) -> None:
    from scoring.models import Season, Turno
    from scoring.services.ledger import ledger_differences

    seasons = list(Season.objects.order_by("pk"))
    found = ledger_differences(seasons=seasons)
    run.add("ledger", f"check_ledger {when}", not found,
            f"{len(found)} differences in {len(seasons)} seasons, "
            f"{Turno.objects.count()} turni")  # fmt: skip


def child(database: str, cache: str, static: str) -> list[dict[str, Any]]:
    _setup(database, REDIS_DEAD if cache == "dead" else REDIS_LIVE, static)
    run = Run()
    brackets(run)
    club = build_club()
    cache_pages(run, club, cache)
    big_keys(run, club)
    absurd_input(run, club)
    picker(run, club)
    ledger(run, "after the faults above")
    edited_restore(run)
    ledger(run, "after the refused restore")
    if database.startswith("postgres"):
        dropped_connections(run, database)
    if cache == "live":  # leave the machine's Redis as it was: database 13 is this run's own
        from django.core.cache import cache as shared

        shared.clear()
    return run.rows


# -- the parent ------------------------------------------------------------------------------------
ORDER = ("1", "2", "3", "4", "6a", "6b", "6c", "6d", "7", "ledger", "—")


def render(results: list[dict[str, Any]]) -> str:
    """One row per attempt: what answered (the first configuration's words), then per
    configuration held or FAILED (with its own words where they differ: timings)."""
    configs = [r["config"] for r in results]
    lines = [
        "| finding | tried | answer | " + " | ".join(configs) + " |",
        "|---|---|---|" + "---|" * len(configs),
    ]
    keys: dict[tuple[str, str], list[dict[str, Any] | None]] = {}
    for k, result in enumerate(results):
        for row in result["rows"]:
            keys.setdefault((row["finding"], row["tried"]), [None] * len(results))[k] = row
    for (finding, tried), rows in sorted(keys.items(), key=lambda kv: ORDER.index(kv[0][0])):
        ran = [r for r in rows if r is not None]
        same = len({r["answer"] for r in ran}) == 1
        cells = [
            "—"
            if r is None
            else ("held" if r["held"] else "**FAILED**") + ("" if same else f": {r['answer']}")
            for r in rows
        ]
        answer = ran[0]["answer"] if same else "per configuration:"
        lines.append(
            f"| {finding} | {tried} | {answer.replace('|', '/')} | "
            + " | ".join(c.replace("|", "/") for c in cells)
            + " |"
        )
    return "\n".join(lines) + "\n"


START, END = "<!-- redteam:start -->", "<!-- redteam:end -->"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--postgres", help="a PostgreSQL database of your own (it is flushed)")
    p.add_argument("--skip-sqlite", action="store_true")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "data" / "redteam.json")
    p.add_argument("--doc", type=Path, help="write the table between the markers of this file")
    p.add_argument("--from-json", type=Path, help="only write --doc from saved results")
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0
    if args.from_json:
        results = json.loads(args.from_json.read_text())
    else:
        results = []
        static = tempfile.mkdtemp(prefix="redteam-static-")
        configs = []
        if not args.skip_sqlite:
            configs += [
                ("SQLite, Redis", "sqlite", "live"),
                ("SQLite, dead Redis", "sqlite", "dead"),
            ]
        if args.postgres:
            configs += [
                ("PostgreSQL, Redis", args.postgres, "live"),
                ("PostgreSQL, dead Redis", args.postgres, "dead"),
            ]
        for name, database, cache in configs:
            with tempfile.TemporaryDirectory() as tmp:
                url = f"sqlite:///{tmp}/redteam.sqlite3" if database == "sqlite" else database
                print(f"== {name}", file=sys.stderr, flush=True)
                start = time.perf_counter()
                out = subprocess.run(
                    [sys.executable, "-m", "tools.redteam", "--child", url, cache, static],
                    cwd=ROOT,
                    capture_output=True,
                    text=True,
                    check=False,
                )
                sys.stderr.write(out.stderr[-4000:])
                if out.returncode != 0:
                    rows = [{"finding": "—", "tried": "the run", "held": False,
                             "answer": (out.stderr.strip().splitlines() or ["?"])[-1]}]  # fmt: skip
                else:
                    rows = json.loads(out.stdout.strip().splitlines()[-1])
                results.append(
                    {"config": name, "seconds": round(time.perf_counter() - start), "rows": rows}
                )
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=1, ensure_ascii=False))
    table = render(results)
    print(table)
    if args.doc:
        text = args.doc.read_text()
        section = f"{START}\n{table}{END}"
        if START in text and END in text:
            text = text[: text.index(START)] + section + text[text.index(END) + len(END) :]
        else:
            text = text.rstrip("\n") + "\n\n" + section + "\n"
        args.doc.write_text(text)
    failed = sum(not row["held"] for r in results for row in r["rows"])
    print(f"{failed} not held", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
