"""Benchmark of the stored documents and of the streaming interchange (issue 16, items 1 and 3).

    python -m benchmarks.documents --sizes 40,400 --interchange-sizes 400,4000

For every size it drops and recreates its own database (``--postgres-url``, default the
``kingbench_docs`` database on the local PostgreSQL; ``--backend sqlite`` uses
``/tmp/kingbench-docs.sqlite3``: never the developer's database), imports one season of that
many turni from the benchmark generator (:mod:`benchmarks.data`), then measures:

- **verbale** (``--sizes``): a closed turno's Verbale PDF through the test client, the first
  request (render and store) against the next ones (the stored file), a conditional GET (304),
  and a static file of the same size served by the same stack, same client: by WhiteNoise (the
  project's static files) and by Django's ``static.serve`` view behind every middleware;
- **export_verbali** (``--sizes``): the command in its own process with ``--jobs 1`` and
  ``--jobs 2``, nothing stored beforehand (every Verbale rendered): wall time, the peak RSS of the
  largest process (``ru_maxrss`` of the children) and the peak of the sum over the process tree
  (sampled from ``/proc`` every 0.1 s);
- **interchange** (``--interchange-sizes``): ``export_season`` and ``backup`` in their own
  processes: wall time, peak RSS, file size; and the same document built whole in memory the
  old way (``season_export`` materialised and ``json.dumps(indent=2)``) for comparison.

Results are printed and written as JSON (``--out``); the load average is recorded with each.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.data import DEFAULT_DATA_DIR, SEASON_TURNI, ensure_data, load_season
from benchmarks.worker import fresh_database

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/kingbench_docs"
SQLITE_PATH = "/tmp/kingbench-docs.sqlite3"


def log(msg: str) -> None:
    print(f"[documents {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


# -- process-tree memory ----------------------------------------------------------------------


def _tree_rss_kib(root: int) -> int:
    """Sum of VmRSS over ``root`` and its descendants (from /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            status = (entry / "status").read_text()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                rss[int(entry.name)] = int(line.split()[1])
    tree, frontier = {root}, [root]
    while frontier:
        pid = frontier.pop()
        for child, parent in parents.items():
            if parent == pid and child not in tree:
                tree.add(child)
                frontier.append(child)
    return sum(rss.get(pid, 0) for pid in tree)


def run_measured(cmd: list[str], env: dict[str, str]) -> dict[str, Any]:
    """Run ``cmd``: wall seconds, peak RSS of its largest process and of its whole tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    peak = [0]
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss_kib(proc.pid))
            done.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    seconds = time.perf_counter() - t0
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {err[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {
        "seconds": round(seconds, 2),
        # ru_maxrss of the children is the largest process ever waited for: only meaningful
        # when it grew with this command (else an earlier, bigger child holds the maximum)
        "largest_process_mb": round(after / 1024, 1) if after > before else None,
        "tree_peak_mb": round(peak[0] / 1024, 1),
        "stdout_tail": out.strip().splitlines()[-1:] if out.strip() else [],
    }


# -- one size: database, import, the in-process request measures ------------------------------


def setup_child(size: int, data_dir: str, out: str, repeat: int, static_root: str) -> int:
    """(In its own process) migrate, import the season, measure the Verbale PDF requests."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingclub.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from scoring.services.interchange import season_import

    call_command("migrate", verbosity=0, interactive=False)
    t0 = time.perf_counter()
    if size > SEASON_TURNI:  # one single season of that size (benchmarks.pages' generator)
        from benchmarks.pages import season_doc

        doc = season_doc(size, Path(data_dir))
    else:
        doc = load_season(0, size, Path(data_dir))
    season = season_import(data=doc)
    result: dict[str, Any] = {"import_seconds": round(time.perf_counter() - t0, 2)}
    result.update(measure_verbale(season.pk, repeat, static_root))
    Path(out).write_text(json.dumps(result, indent=1))
    return 0


def measure_verbale(season_pk: int, repeat: int, static_root: str) -> dict[str, Any]:
    """The last closed turno's Verbale PDF requested through the test client (first, stored,
    304) against a static file of the same size (WhiteNoise, and ``static.serve`` behind every
    middleware), on the current database: the season's name, its closed turni and the times.
    Settings and URLs are as production's while it runs, and put back after (the smoke test
    calls it in the test's process)."""
    from django.conf import settings
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import clear_url_caches, path, reverse
    from django.views.static import serve

    from kingclub import urls
    from scoring.models import Season, Turno

    season = Season.objects.get(pk=season_pk)
    turno = (
        Turno.objects.filter(season=season, status=Turno.CHIUSO)
        .order_by("-giornata__date", "-number")
        .first()
    )
    url = reverse("scoring:turno_pdf", args=[turno.pk])

    def get(client: Client, path: str, **headers: str) -> tuple[float, Any, bytes]:
        t = time.perf_counter()
        response = client.get(path, **headers)
        body = (
            b"".join(response.streaming_content) if response.streaming else bytes(response.content)
        )
        return time.perf_counter() - t, response, body

    production = override_settings(
        DEBUG=False,
        STATIC_ROOT=static_root,
        WHITENOISE_AUTOREFRESH=False,  # production-like: the files indexed once
        WHITENOISE_USE_FINDERS=False,
    )
    # the same file through the whole Django stack (every middleware and a view): static.serve
    floor_path = Path(static_root) / "bench" / "floor.pdf"
    served = path("bench-static/<path:path>", serve, {"document_root": str(floor_path.parent)})
    with production:
        client = Client()
        first, response, body = get(client, url)
        assert response.status_code == 200, response.status_code
        seconds = [get(client, url)[0] for _ in range(repeat)]
        etag = response["ETag"]
        not_modified = [get(client, url, HTTP_IF_NONE_MATCH=etag)[0] for _ in range(repeat)]
        # the floor: a static file of the same size, same client, same middleware stack
        floor_path.parent.mkdir(parents=True, exist_ok=True)
        floor_path.write_bytes(body)
        static_client = Client()  # a new handler: WhiteNoise indexes STATIC_ROOT when it starts
        static_url = f"/{settings.STATIC_URL.strip('/')}/bench/floor.pdf"
        _s, static_response, static_body = get(static_client, static_url)
        assert static_response.status_code == 200 and static_body == body, static_response
        static = [get(static_client, static_url)[0] for _ in range(repeat)]
        urls.urlpatterns.append(served)
        clear_url_caches()
        try:
            view_client = Client()
            _s, view_response, view_body = get(view_client, "/bench-static/floor.pdf")
            assert view_response.status_code == 200 and view_body == body, view_response
            view = [get(view_client, "/bench-static/floor.pdf")[0] for _ in range(repeat)]
        finally:
            urls.urlpatterns.remove(served)
            clear_url_caches()

    def ms(values: list[float]) -> float:
        return round(statistics.median(values) * 1000, 2)

    return {
        "verbale_pdf": {
            "turno": turno.pk,
            "bytes": len(body),
            "first_ms": round(first * 1000, 1),
            "second_median_ms": ms(seconds),
            "not_modified_median_ms": ms(not_modified),
            "static_median_ms": ms(static),
            "static_view_median_ms": ms(view),
            "second_over_static": round(statistics.median(seconds) / statistics.median(static), 2),
            "second_over_static_view": round(
                statistics.median(seconds) / statistics.median(view), 2
            ),
            "first_over_second": round(first / statistics.median(seconds), 1),
            "samples": repeat,
        },
        "season": season.name,
        "turni": Turno.objects.filter(season=season, status=Turno.CHIUSO).count(),
    }


def prepare(size: int, args: argparse.Namespace) -> tuple[dict[str, str], dict[str, Any]]:
    """A fresh database holding one season of ``size`` turni; the Verbale request measures."""
    url = fresh_database(args.backend, args.sqlite_path, args.postgres_url)
    media = tempfile.mkdtemp(prefix="kingbench-media-")
    env = {**os.environ, "DATABASE_URL": url, "MEDIA_ROOT": media}
    env.setdefault("DJANGO_SETTINGS_MODULE", "kingclub.settings")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "setup.json"
        cmd = [sys.executable, "-m", "benchmarks.documents", "--child-setup", str(size)]
        cmd += ["--data-dir", args.data_dir, "--child-out", str(out)]
        cmd += ["--repeat", str(args.repeat), "--static-root", str(Path(tmp) / "static")]
        subprocess.run(cmd, env=env, cwd=ROOT, check=True)
        return env, json.loads(out.read_text())


def manage(*argv: str) -> list[str]:
    return [sys.executable, str(ROOT / "manage.py"), *argv]


def measure_export_verbali(env: dict[str, str], season: str, jobs: int) -> dict[str, Any]:
    media = tempfile.mkdtemp(prefix="kingbench-media-")  # nothing stored: everything rendered
    with tempfile.TemporaryDirectory() as target:
        load = loadavg()
        cmd = manage("export_verbali", season, target, "--jobs", str(jobs))
        result = run_measured(cmd, {**env, "MEDIA_ROOT": media})
        result["files"] = len(os.listdir(target))
        reused = run_measured(cmd, {**env, "MEDIA_ROOT": media})  # everything stored now
        result["again_seconds"] = reused["seconds"]
    subprocess.run(["rm", "-rf", media], check=False)
    return {"jobs": jobs, "loadavg": load, **result}


OLD_EXPORT = """
import json, sys
from scoring.models import Season
from scoring.services.interchange import season_export
text = json.dumps(season_export(season=Season.objects.get(name=sys.argv[1])),
                  ensure_ascii=False, indent=2)
open(sys.argv[2], "w", encoding="utf-8").write(text)
"""


def measure_interchange(
    env: dict[str, str], season: str, roundtrip_url: str = "", only_roundtrip: bool = False
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        commands = (
            ("export_season", manage("export_season", season, f"{tmp}/season.json")),
            ("export_season_indent_2", manage(
                "export_season", season, f"{tmp}/season2.json", "--indent", "2"
            )),
            ("backup", manage("backup", f"{tmp}/backup.json")),
            ("whole_in_memory_indent_2", [
                sys.executable, "-c",
                "import django, sys; django.setup(); exec(sys.argv[3])",
                season, f"{tmp}/old.json", OLD_EXPORT,
            ]),
        )  # fmt: skip
        for name, cmd in commands[:1] if only_roundtrip else commands:
            load = loadavg()
            result = run_measured(cmd, env)
            written = {
                "export_season": "season.json",
                "export_season_indent_2": "season2.json",
                "backup": "backup.json",
                "whole_in_memory_indent_2": "old.json",
            }[name]
            result["file_mb"] = round(Path(tmp, written).stat().st_size / 2**20, 2)
            out[name] = {"loadavg": load, **result}
            log(f"  {name}: {result}")
        if not only_roundtrip:
            same = json.loads(Path(tmp, "season.json").read_text()) == json.loads(
                Path(tmp, "old.json").read_text()
            )
            out["streamed_equals_whole"] = same
        if roundtrip_url:
            out["roundtrip"] = measure_roundtrip(
                env, season, Path(tmp, "season.json"), roundtrip_url
            )
    return out


PAGES = """
import hashlib, json, re, sys
import django
django.setup()
from django.conf import settings
settings.ALLOWED_HOSTS = ["*"]
from django.test import Client
from scoring.models import Player, Season, Turno
season = Season.objects.get(name=sys.argv[1])
names = sorted(Player.objects.filter(enrollments__season=season).values_list("name", flat=True))
member = Player.objects.get(name=names[len(names) // 2])
last = Turno.objects.filter(season=season).order_by("-giornata__date", "-number")[0]
client = Client()
urls = {
    "classifica": f"/classifica/{season.pk}/",
    "classifica_sorted": f"/classifica/{season.pk}/?sort=-score",
    "serie": f"/serie/?stagione={season.pk}",
    "player": f"/giocatori/{member.pk}/?stagione={season.pk}",
    "verbale": f"/turni/{last.pk}/",
    "classifica_csv": f"/classifica/{season.pk}/classifica.csv",
}
out = {}
for name, url in urls.items():
    r = client.get(url)
    text = r.content.decode()
    # what differs between two databases holding the same season: ids in links, the token,
    # the moment a document was generated
    text = re.sub(r'(href|action|data-[a-z-]*id|data-turno|data-player-pk)="[^"]*"', "", text)
    text = re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"', "", text)
    text = re.sub(r"stagione=\\d+", "", text)
    text = re.sub(r'name="next" type="hidden" value="[^"]*"', "", text)
    out[name] = [r.status_code, hashlib.sha256(text.encode()).hexdigest()]
print(json.dumps(out))
"""


def page_digests(env: dict[str, str], season: str) -> dict[str, Any]:
    """The public pages of ``season`` as members see them, ids and tokens left out, hashed."""
    proc = subprocess.run(
        [sys.executable, "-c", PAGES, season],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def measure_roundtrip(env: dict[str, str], season: str, exported: Path, url: str) -> dict[str, Any]:
    """The exported season imported with the default command into a database of its own: time,
    peak memory, and whether its pages and its own export are identical to the original's."""
    fresh_database(
        "postgres" if url.startswith("postgres") else "sqlite", url.split("///")[-1], url
    )
    other = {**env, "DATABASE_URL": url}
    subprocess.run(manage("migrate", "--verbosity", "0"), env=other, cwd=ROOT, check=True)
    subprocess.run(manage("createcachetable"), env=other, cwd=ROOT, check=True)
    load = loadavg()
    result = run_measured(manage("import_season", str(exported)), other)
    again = exported.with_name("season-again.json")
    subprocess.run(manage("export_season", season, str(again)), env=other, cwd=ROOT, check=True)
    original, imported = page_digests(env, season), page_digests(other, season)
    log(f"  round trip: {result}; pages {original == imported}")
    return {
        "loadavg": load,
        "import_season": result,
        "file_mb": round(exported.stat().st_size / 2**20, 2),
        "export_again_identical": json.loads(again.read_text()) == json.loads(exported.read_text()),
        "pages_identical": original == imported,
        "pages": {k: [original[k], imported[k]] for k in original},
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sizes", default="40,400", help="turni for the Verbale and export_verbali")
    p.add_argument("--interchange-sizes", default="", help="turni for export_season and backup")
    p.add_argument("--jobs", default="1,2", help="export_verbali --jobs values to compare")
    p.add_argument("--skip-export-verbali", action="store_true")
    p.add_argument("--backend", choices=["postgres", "sqlite"], default="postgres")
    p.add_argument(
        "--postgres-url",
        default=os.environ.get("KINGBENCH_DOCS_POSTGRES_URL", POSTGRES_URL),
        help="the database dropped and recreated for each size (default: %(default)s)",
    )
    p.add_argument("--sqlite-path", default=SQLITE_PATH, help="with --backend sqlite")
    p.add_argument(
        "--roundtrip-url",
        default="",
        help="with --interchange-sizes: import the exported season into this database (dropped "
        "and created again) and compare its pages and its export with the original's",
    )
    p.add_argument(
        "--only-roundtrip",
        action="store_true",
        help="with --roundtrip-url: export_season and the round trip only (no backup, no old way)",
    )
    p.add_argument("--data-dir", default=str(DEFAULT_DATA_DIR))
    p.add_argument("--repeat", type=int, default=20, help="requests per median")
    p.add_argument("--out", default="", help="write the results as JSON here too")
    p.add_argument("--child-setup", type=int, help=argparse.SUPPRESS)
    p.add_argument("--child-out", help=argparse.SUPPRESS)
    p.add_argument("--static-root", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child_setup:
        return setup_child(
            args.child_setup, args.data_dir, args.child_out, args.repeat, args.static_root
        )

    sizes = [int(s) for s in args.sizes.split(",") if s]
    interchange_sizes = [int(s) for s in args.interchange_sizes.split(",") if s]
    jobs = [int(j) for j in args.jobs.split(",") if j]
    small = [min(n, SEASON_TURNI) for n in sizes + interchange_sizes]
    ensure_data(small, Path(args.data_dir), log=log)
    results: dict[str, Any] = {
        "backend": args.backend,
        "database": args.postgres_url if args.backend == "postgres" else args.sqlite_path,
        "cpus": os.cpu_count(),
        "loadavg_start": loadavg(),
        "sizes": {},
    }
    for size in sorted(set(sizes + interchange_sizes)):
        log(f"{size} turni: fresh database, import, Verbale requests...")
        env, setup = prepare(size, args)
        entry: dict[str, Any] = {"loadavg": loadavg(), **setup}
        log(f"  {json.dumps(setup.get('verbale_pdf'))}")
        if size in sizes and not args.skip_export_verbali:
            entry["export_verbali"] = []
            for j in jobs:
                log(f"  export_verbali --jobs {j}...")
                entry["export_verbali"].append(measure_export_verbali(env, setup["season"], j))
                log(f"  {entry['export_verbali'][-1]}")
        if size in interchange_sizes:
            log("  export_season and backup...")
            entry["interchange"] = measure_interchange(
                env, setup["season"], args.roundtrip_url, args.only_roundtrip
            )
        results["sizes"][size] = entry
    results["loadavg_end"] = loadavg()
    text = json.dumps(results, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
