"""Benchmark data: seasons played card by card by the simulator, cached as JSON.

A data set of N turni is made of seasons of at most ``SEASON_TURNI`` turni (the last one
shorter), played by one pool of ``PLAYERS`` members at tables of 4 to 7. Season ``k`` is always
generated from the same seed, and a shorter season is a prefix of a longer one with the same
index, so the 1k, 10k and 50k sets share their files: ``benchmarks/data/season-<k>.json`` holds
the longest season ``k`` generated so far. Pure Python: no Django here.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from scoring.rules.caf import caf
from scoring.rules.caf.interchange import input_document
from scoring.rules.caf.simulator import simulate_turno

DATA_VERSION = 1  # bump when the generator changes: cached files are regenerated
DEFAULT_DATA_DIR = Path(__file__).resolve().parent / "data"
PLAYERS = 300
SEASON_TURNI = 5000
ATTENDANCE = 0.6  # share of the members at each giornata: ~180 players, ~33 tables
TABLE_SIZES = (4, 5, 6, 7)
PENALTY_CHANCE = 0.02
SANCTION_CHANCE = 0.005

_FIRST = [
    "Anna",
    "Bruno",
    "Carla",
    "Dario",
    "Elena",
    "Franco",
    "Giulia",
    "Luca",
    "Marta",
    "Nicola",
    "Paola",
    "Roberto",
    "Silvia",
    "Tommaso",
    "Ugo",
    "Valeria",
    "Walter",
    "Zeno",
    "Alba",
    "Bianca",
    "Cesare",
    "Daria",
    "Enzo",
    "Fabio",
    "Gino",
    "Ilaria",
    "Laura",
    "Mario",
    "Nora",
    "Oscar",
    "Piero",
    "Rita",
    "Sara",
    "Teresa",
    "Vittorio",
]
_LAST = [
    "Bertini",
    "Cecchi",
    "Dini",
    "Fanucchi",
    "Giusti",
    "Lazzari",
    "Marchi",
    "Nardini",
    "Orsetti",
    "Pardini",
    "Ricci",
    "Salvi",
    "Tognetti",
    "Baroni",
    "Casini",
    "Del",
    "Carlo",
    "Franceschi",
    "Guidi",
    "Lucchesi",
    "Martinelli",
    "Nottoli",
    "Puccini",
    "Rossi",
    "Simonetti",
    "Turchi",
    "Vannucci",
    "Bianchi",
    "Consani",
]


def player_names(n: int = PLAYERS) -> list[str]:
    """``n`` distinct member names, always the same ones."""
    rng = random.Random(20261120)
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < n:
        name = f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
        if name in seen:
            name = f"{name} {len([x for x in names if x.startswith(name)]) + 2}"
        seen.add(name)
        names.append(name)
    return names


def season_plan(size: int, season_turni: int = SEASON_TURNI) -> list[int]:
    """Turni per season for a data set of ``size`` turni: [5000, 5000, ..., rest]."""
    full, rest = divmod(size, season_turni)
    plan = [season_turni] * full + ([rest] if rest else [])
    return plan or [0]


def season_name(index: int) -> str:
    return f"Federazione {2000 + index}-{(index + 1) % 100:02d}"


def generate_season(index: int, turni: int, players: Sequence[str] | None = None) -> dict:
    """Season ``index`` with ``turni`` turni, as a ``kingclub/v1`` document (deterministic)."""
    rules = caf()
    players = list(players or player_names())
    rng = random.Random(1000 + index)
    start = dt.date(2000 + index, 9, 1)
    records = []
    day = 0
    while len(records) < turni:
        date = start + dt.timedelta(days=day)
        day += 1
        present = [p for p in players if rng.random() < ATTENDANCE]
        rng.shuffle(present)
        number = 1
        while len(present) >= min(TABLE_SIZES) and len(records) < turni:
            size = rng.choice([s for s in TABLE_SIZES if s <= len(present)])
            table, present = present[:size], present[size:]
            record = simulate_turno(
                rules, table, rng, date=date, number=number, penalty_chance=PENALTY_CHANCE
            )
            if rng.random() < SANCTION_CHANCE:
                from dataclasses import replace

                from scoring.rules.caf import Sanction

                record = replace(
                    record,
                    sanctions=(Sanction(rng.choice(table), reason="contatore: assenze"),),
                )
            records.append(record)
            number += 1
    doc = input_document(season_name(index), players, records)
    doc["benchmark"] = {"version": DATA_VERSION, "index": index, "turni": turni}
    return doc


def _path(data_dir: Path, index: int) -> Path:
    return data_dir / f"season-{index}.json"


def _cached_turni(path: Path) -> int:
    """How many turni the cached file holds (0 when missing or stale), without parsing it all."""
    meta = path.with_suffix(".meta")
    try:
        info = json.loads(meta.read_text())
    except (OSError, ValueError):
        return 0
    if info.get("version") != DATA_VERSION or not path.exists():
        return 0
    return int(info.get("turni", 0))


def _generate_to_file(args: tuple[str, int, int]) -> tuple[int, int, float]:
    data_dir, index, turni = args
    t0 = time.perf_counter()
    doc = generate_season(index, turni)
    path = _path(Path(data_dir), index)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, separators=(",", ":")))
    tmp.replace(path)
    path.with_suffix(".meta").write_text(json.dumps({"version": DATA_VERSION, "turni": turni}))
    return index, turni, time.perf_counter() - t0


def ensure_data(sizes: Sequence[int], data_dir: Path = DEFAULT_DATA_DIR, log=print) -> float:
    """Generate (in parallel) every season the sizes need that is not cached yet.

    Returns the seconds spent generating (0 when everything was cached).
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    need: dict[int, int] = {}
    for size in sizes:
        for index, turni in enumerate(season_plan(size)):
            need[index] = max(need.get(index, 0), turni)
    jobs = [
        (str(data_dir), index, turni)
        for index, turni in sorted(need.items())
        if _cached_turni(_path(data_dir, index)) < turni
    ]
    if not jobs:
        return 0.0
    t0 = time.perf_counter()
    total = sum(j[2] for j in jobs)
    log(f"generating {total} turni in {len(jobs)} season(s) with the card-level simulator...")
    workers = max(1, min(len(jobs), os.cpu_count() or 1))
    if workers == 1:
        done = [_generate_to_file(j) for j in jobs]
    else:
        with ProcessPoolExecutor(workers) as pool:
            done = list(pool.map(_generate_to_file, jobs))
    for index, turni, secs in done:
        log(f"  season {index}: {turni} turni in {secs:.1f} s ({turni / secs:.0f} turni/s)")
    return time.perf_counter() - t0


def load_season(index: int, turni: int, data_dir: Path = DEFAULT_DATA_DIR) -> dict[str, Any]:
    """The cached season ``index`` cut to its first ``turni`` turni."""
    doc = json.loads(_path(data_dir, index).read_text())
    if len(doc["turni"]) < turni:
        raise RuntimeError(f"season {index} has {len(doc['turni'])} turni, {turni} needed")
    doc["turni"] = doc["turni"][:turni]
    doc.pop("benchmark", None)
    doc["season"] = f"{doc['season']} ({turni})" if turni != SEASON_TURNI else doc["season"]
    return doc


def seasons_for(size: int) -> list[tuple[int, int]]:
    """(index, turni) of the seasons of a data set."""
    return [(i, n) for i, n in enumerate(season_plan(size)) if n]


def describe(size: int) -> str:
    plan = season_plan(size)
    return f"{len(plan)} season(s) of {', '.join(str(n) for n in plan)} turni" + (
        "" if len(plan) < 4 else f" ({math.ceil(size / SEASON_TURNI)} × ≤{SEASON_TURNI})"
    )
