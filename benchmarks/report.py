"""docs/benchmarks.md from the results of a run: one Markdown table per measure, sizes as
columns, the backends side by side."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.data import ATTENDANCE, PLAYERS, SEASON_TURNI, TABLE_SIZES

BACKEND_LABEL = {"sqlite": "SQLite", "postgres": "PostgreSQL"}

Cell = Callable[[dict[str, Any]], str]

# the first words of the full run's own part of docs/benchmarks.md: what lies above them (the
# sections of the other benchmarks, each between its markers, and their notes) is kept
INTRO = "The cost of every operation of the ledger as the data grows"


def size_label(n: int) -> str:
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)


def get(d: dict | None, *path: str) -> Any:
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


def measure_state(run: dict | None, key: str) -> str | None:
    """'n/a' or 'error' when the measure could not be taken, else None."""
    if run is None:
        return "n/a"
    m = run.get(key)
    if m is None:
        return "n/a"
    if isinstance(m, dict) and "na" in m:
        return "n/a"
    if isinstance(m, dict) and "error" in m:
        return "error¹"
    return None


def num(value: Any, fmt: str = "{:,.0f}") -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "**NO**"
    return fmt.format(value).replace(",", " ")


def ms(value: Any) -> str:
    if value is None:
        return "n/a"
    if value >= 100:
        return num(value, "{:,.0f}")
    if value >= 10:
        return num(value, "{:.1f}")
    return num(value, "{:.2f}")


def table(
    title: str,
    runs: dict[tuple[int, str], dict],
    sizes: list[int],
    backends: list[str],
    rows: list[tuple[str, str, Cell]],
    note: str = "",
) -> str:
    """``rows``: (label, measure key, cell function of the measure's dict)."""
    head = "| | " + " | ".join(
        f"{size_label(s)} · {BACKEND_LABEL.get(b, b)}" for s in sizes for b in backends
    )
    out = [f"### {title}", ""]
    if note:
        out += [note, ""]
    out += [head + " |", "|---" + "|---:" * (len(sizes) * len(backends)) + "|"]
    for label, key, cell in rows:
        cells = []
        for s in sizes:
            for b in backends:
                run = runs.get((s, b))
                state = measure_state(run, key) if key else None
                if state is None:
                    try:
                        cells.append(cell(run[key] if key else run))
                    except (KeyError, TypeError, ZeroDivisionError):
                        cells.append("n/a")
                else:
                    cells.append(state)
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def growth(runs, sizes, backends, key, path) -> str:
    """How a median moves from the smallest to the largest size, per backend."""
    parts = []
    for b in backends:
        first = get(runs.get((sizes[0], b)), key, *path)
        last = get(runs.get((sizes[-1], b)), key, *path)
        if first and last:
            parts.append(f"{BACKEND_LABEL.get(b, b)} ×{last / first:.2f}")
    return ", ".join(parts)


def errors(runs: dict[tuple[int, str], dict]) -> list[str]:
    out = []
    for (size, backend), run in sorted(runs.items()):
        if run.get("failed"):
            out.append(f"- {size_label(size)} · {backend}: the run failed: `{run['failed']}`")
            continue
        for key, m in run.items():
            if isinstance(m, dict) and "error" in m:
                out.append(f"- {size_label(size)} · {backend} · {key}: `{m['error']}`")
            if isinstance(m, dict) and "na" in m:
                out.append(f"- {size_label(size)} · {backend} · {key}: n/a, {m['na']}")
    return out


def render(meta: dict[str, Any], runs: dict[tuple[int, str], dict], notes: str = "") -> str:
    sizes = sorted({s for s, _ in runs})
    backends = [b for b in ("sqlite", "postgres") if any(b == k[1] for k in runs)]
    T = lambda title, rows, note="": table(title, runs, sizes, backends, rows, note)  # noqa: E731

    out = [
        "# Benchmarks",
        "",
        f"{INTRO}: generated with the card-level simulator, measured on SQLite and "
        "PostgreSQL side by side. "
        "This file is written by `make bench` (`python -m benchmarks.run`); "
        "the notes at the end are kept in `benchmarks/notes.py`.",
        "",
        "## The run",
        "",
        f"- date: {meta.get('date', '?')}; total time {meta.get('elapsed_min', 0):.1f} min "
        f"(data generation {meta.get('generation_seconds', 0):.0f} s, "
        "0 when the cached seasons under `benchmarks/data/` were reused)",
        f"- command: `{meta.get('command', '?')}`",
        *(f"- then: {m}" for m in meta.get("merged", [])),
        f"- machine: {meta.get('cpu', '?')}, `nproc` = {meta.get('nproc', '?')}, "
        f"{meta.get('mem_gb', 0):.0f} GB RAM, {meta.get('os', '?')}",
        f"- software: Python {meta.get('python', '?')}, Django {meta.get('django', '?')}, "
        f"SQLite {meta.get('sqlite', '?')}, PostgreSQL {meta.get('postgres', 'n/a')}, "
        f"psycopg {meta.get('psycopg', '?')}, WeasyPrint {meta.get('weasyprint', '?')}, "
        f"openpyxl {meta.get('openpyxl', '?')}",
        f"- load average (1 min) at the start of each measured run: "
        f"{meta.get('loadavg', 'n/a')}. The machine is shared: other processes (test suites) "
        "may run at the same time, so the medians and the query counts are the numbers to "
        "trust; the import also reports the CPU seconds of the Django process.",
        "",
        "### Data",
        "",
        f"Each size is a set of seasons of at most {SEASON_TURNI} turni, played by the same "
        f"{PLAYERS} members; every giornata about {ATTENDANCE:.0%} of them come and sit at "
        f"tables of {', '.join(map(str, TABLE_SIZES))} players (about 30 turni a giornata, "
        "so a 5 000-turni season has about 155 giornate and every member has an absence or "
        "a turno at each). Every turno is played card by card by `scoring.rules.caf.simulator`, "
        "with 2 % penalità and a few sanctions. Every size × backend runs in its own process "
        "on a fresh database (SQLite file `/tmp/kingbench.sqlite3`, PostgreSQL database "
        "`kingbench`), migrated, then filled with `season_import`; the measures that follow "
        "use the largest season (the last one of 5 000 turni). PostgreSQL gets a "
        "`VACUUM ANALYZE` after the load (autovacuum would do it by itself); SQLite is left "
        "as Django leaves it. `settings.DEBUG` is off during the run (no query log, no "
        "template debug), as in production.",
        "",
        "## Results",
        "",
        T(
            "The data set",
            [
                ("seasons", "dataset", lambda d: num(d["seasons"])),
                ("turni", "dataset", lambda d: num(d["turni"])),
                ("giornate", "dataset", lambda d: num(d["giornate"])),
                ("smazzate", "dataset", lambda d: num(d["smazzate"])),
                ("results (one per player per smazzata)", "dataset", lambda d: num(d["results"])),
                ("absences", "dataset", lambda d: num(d["absences"])),
                ("database size (MB)", "dataset", lambda d: num(d.get("db_mb"), "{:,.0f}")),
                ("largest season: turni", "season", lambda d: num(d["turni"])),
                ("largest season: giornate", "season", lambda d: num(d["giornate"])),
            ],
        ),
        T(
            "Import (`season_import` of each season's `kingclub/v1` document)",
            [
                ("**turni per second**", "import", lambda d: f"**{num(d['turni_per_s'])}**"),
                ("seconds", "import", lambda d: num(d["seconds"], "{:,.1f}")),
                (
                    "CPU seconds of the Django process",
                    "import",
                    lambda d: num(d.get("cpu_seconds"), "{:,.1f}"),
                ),
                ("peak memory, RSS of the process (MB)", "import", lambda d: num(d["peak_rss_mb"])),
                (
                    "turni/s of the first → last season",
                    "import",
                    lambda d: (
                        f"{num(d['first_season_turni_per_s'])} → "
                        f"{num(d['last_season_turni_per_s'])}"
                    ),
                ),
                (
                    "reading the JSON documents (s)",
                    "import",
                    lambda d: num(d["json_load_seconds"], "{:.1f}"),
                ),
                (
                    "migrate, empty database (s)",
                    "",
                    lambda r: num(r.get("migrate_seconds"), "{:.1f}"),
                ),
            ],
            "Peak memory is `ru_maxrss` of the run's process after the import (one season of "
            "up to 5 000 turni in memory at a time, written 500 turni per round).",
        ),
        T(
            "Recording a smazzata (`smazzata_record`, the 19 smazzate of a new 4-player turno)",
            [
                ("**median (ms)**", "recording", lambda d: f"**{ms(d['smazzata']['median_ms'])}**"),
                ("p95 (ms)", "recording", lambda d: ms(d["smazzata"]["p95_ms"])),
                ("max (ms)", "recording", lambda d: ms(d["smazzata"]["max_ms"])),
                ("queries per smazzata", "recording", lambda d: num(d["smazzata_queries_median"])),
                ("`turno_start` (ms)", "recording", lambda d: ms(d["turno_start_ms"])),
                ("`turno_start` queries", "recording", lambda d: num(d["turno_start_queries"])),
            ],
            "A new turno on a new giornata after the last one of the largest season; each "
            "call validates with the engine, scores, stores the smazzata and its results and "
            "updates the running totals. It must not depend on the size of the database: "
            "median at the largest size vs the smallest: "
            + (growth(runs, sizes, backends, "recording", ("smazzata", "median_ms")) or "n/a")
            + ".",
        ),
        T(
            "Closing a turno and recomputing the season",
            [
                (
                    "**`turno_close`, new last giornata (ms)**",
                    "recording",
                    lambda d: f"**{ms(d['close_ms'])}**",
                ),
                ("queries", "recording", lambda d: num(d["close_queries"])),
                (
                    "`turno_reopen` of a giornata-1 turno (ms)",
                    "reopen",
                    lambda d: ms(d["reopen_ms"]),
                ),
                ("`turno_close` of it again (ms)", "reopen", lambda d: ms(d["close_ms"])),
                (
                    "queries (reopen / close)",
                    "reopen",
                    lambda d: f"{d['reopen_queries']} / {d['close_queries']}",
                ),
                (
                    "season identical after reopen + close",
                    "reopen",
                    lambda d: num(d["same_result"]),
                ),
            ],
            "Closing the turno above recomputes the season from its giornata (the last one): "
            "series, titles, league points, absences, the stored Classifica. Reopening the "
            "first turno of giornata 1 of the largest season and closing it again replays "
            "every giornata of that season, twice. After the two the stored season must be "
            "exactly what the import wrote (every seat, title, absence, giornata, standing): "
            "this also checks that the import stores what the recompute computes.",
        ),
        T(
            "Classifica Generale of the largest season, against the floor",
            [
                ("players", "classifica", lambda d: num(d["players"])),
                (
                    "floor: one hand-written SQL aggregate (ms)",
                    "classifica",
                    lambda d: ms(d["floor"]["median_ms"]),
                ),
                (
                    "**(a) stored classifica, `verbale.classifica(season)` (ms)**",
                    "classifica",
                    lambda d: f"**{ms(d['stored']['median_ms'])}**",
                ),
                ("(a) × floor", "classifica", lambda d: f"×{d['stored_ratio']:.2f}"),
                (
                    "(b) recomputed, `standings_aggregate` + `rank_classifica` (ms)",
                    "classifica",
                    lambda d: ms(d["recomputed"]["median_ms"]),
                ),
                ("(b) × floor", "classifica", lambda d: f"×{d['recomputed_ratio']:.2f}"),
                ("scores agree with the floor", "classifica", lambda d: num(d["agree"])),
            ],
            "Medians over the requested repetitions. The floor reads the same stored league "
            "points (SUM over the seats of the closed turni plus SUM over the absences, "
            "grouped by player, ordered by score) and does nothing else. What the page does "
            "is (a): read the stored rows (one query, 300 rows) and build the display rows; "
            "target ≤ ×2.",
        ),
        T(
            "Pages (Django test client)",
            [
                (
                    "**Classifica (`scoring:home`) median (ms)**",
                    "page_home",
                    lambda d: f"**{ms(d['median_ms'])}**",
                ),
                ("p95 (ms)", "page_home", lambda d: ms(d["p95_ms"])),
                ("queries", "page_home", lambda d: num(d["queries"])),
                ("size (KB)", "page_home", lambda d: num(d["bytes"] / 1024)),
                (
                    "**Verbale on screen (`scoring:turno`) median (ms)**",
                    "page_turno",
                    lambda d: f"**{ms(d['median_ms'])}**",
                ),
                ("p95 (ms)", "page_turno", lambda d: ms(d["p95_ms"])),
                ("queries", "page_turno", lambda d: num(d["queries"])),
                ("size (KB)", "page_turno", lambda d: num(d["bytes"] / 1024)),
            ],
            "Anonymous GET requests after one warm-up request, whose queries are counted "
            "(`CaptureQueriesContext`). The Verbale is a closed turno of the largest season "
            "with the most players at the table.",
        ),
        T(
            "Verbale documents",
            [
                (
                    "**PDF (`scoring:turno_pdf`) median (ms)**",
                    "doc_pdf",
                    lambda d: f"**{ms(d['median_ms'])}**",
                ),
                ("PDF first request (ms)", "doc_pdf", lambda d: ms(d["first_ms"])),
                ("PDF size (KB)", "doc_pdf", lambda d: num(d["bytes"] / 1024)),
                (
                    "**XLSX (`scoring:turno_xlsx`) median (ms)**",
                    "doc_xlsx",
                    lambda d: f"**{ms(d['median_ms'])}**",
                ),
                ("XLSX first request (ms)", "doc_xlsx", lambda d: ms(d["first_ms"])),
                ("XLSX size (KB)", "doc_xlsx", lambda d: num(d["bytes"] / 1024)),
                (
                    "queries (PDF / XLSX)",
                    "",
                    lambda r: f"{get(r, 'doc_pdf', 'queries')} / {get(r, 'doc_xlsx', 'queries')}",
                ),
            ],
            "The same turno as the Verbale page, through the download URLs.",
        ),
    ]
    problems = errors(runs)
    if problems:
        out += ["¹ Measures that could not be taken:", "", *problems, ""]
    if notes:
        out += [notes.strip(), ""]
    return "\n".join(out)


def write_main(doc: Path, text: str) -> None:
    """The full run's ``text`` (from :func:`render`) in place of its part of ``doc``, under what
    ``doc`` holds above it: the other benchmarks' sections and notes are kept."""
    old = doc.read_text() if doc.exists() else ""
    if INTRO in old and INTRO in text:
        text = old[: old.index(INTRO)] + text[text.index(INTRO) :]
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(text)


def write_section(doc: Path, section: str, start: str, end: str) -> None:
    """Put ``section`` (which begins with ``start`` and ends with ``end``) between those markers
    of ``doc``, or after its title the first time: each benchmark keeps its own section."""
    text = doc.read_text() if doc.exists() else "# Benchmarks\n"
    if start in text and end in text:
        text = text[: text.index(start)] + section + text[text.index(end) + len(end) + 1 :]
    else:
        title, _, rest = text.partition("\n")
        text = f"{title}\n\n{section}\n{rest.lstrip()}"
    doc.write_text(text)


def today() -> str:
    return dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
