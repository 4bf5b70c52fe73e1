"""Sampled mutation testing of the rules engine and the services.

    nice -n 10 .venv/bin/python -m tools.mutation --package rules --count 100 --seed 12
    nice -n 10 .venv/bin/python -m tools.mutation --package services --count 100 --seed 12

Every mutation point of the package's modules is listed (comparisons, integer and boolean
constants, ``and``/``or``, ``not``, returned values), a seeded sample is drawn, and each mutant is
written into a private copy of the project and tested with the tests of its module only (``-x``,
a timeout): a failing run kills it, a passing run lets it survive. Mutants judged equivalent (no
behaviour can tell them from the original) are listed in ``EQUIVALENT`` with the reason, and
left out of the score. The result is printed and saved as JSON (``--json``); docs/mutation.md
keeps the last one.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# module -> the tests that exercise it (fast: no browser, no long random walks)
RULES_TESTS = {
    "caf/turno.py": [
        "tests/rules/test_turno.py",
        "tests/rules/test_smazzata.py",
        "tests/rules/test_ruleset_edges.py",
        "tests/rules/test_boundaries.py",
        "tests/rules/test_ruleset_shape.py",
    ],
    "caf/play.py": [
        "tests/rules/test_play.py",
        "tests/rules/test_smazzata.py",
        "tests/rules/test_boundaries.py",
    ],
    "caf/season.py": ["tests/rules/test_season.py", "tests/rules/test_ruleset_edges.py"],
    "caf/ruleset.py": [
        "tests/rules/test_ruleset.py",
        "tests/rules/test_smazzata.py",
        "tests/rules/test_boundaries.py",
        "tests/rules/test_ruleset_edges.py",
        "tests/rules/test_ruleset_shape.py",
    ],
    "caf/records.py": [
        "tests/rules/test_season.py",
        "tests/rules/test_turno.py",
        "tests/rules/test_boundaries.py",
        "tests/rules/test_ruleset_shape.py",
    ],
    "caf/interchange.py": [
        "tests/unit/test_kingscore.py",
        "tests/rules/test_full_turno.py",
        "tests/rules/test_boundaries.py",
    ],
    "caf/simulator.py": ["tests/rules/test_simulator.py", "tests/rules/test_boundaries.py"],
    "systems.py": [
        "tests/rules/test_systems.py",
        "tests/rules/test_boundaries.py",
        "tests/rules/caf/test_caf_deal_record.py",
    ],
    "caf/system.py": [
        "tests/rules/test_systems.py",
        "tests/rules/caf/test_caf_deal_record.py",
        "tests/rules/caf/test_caf_table.py",
        "tests/rules/test_caf_count_check.py",
        "tests/rules/caf/test_caf_records_side.py",
    ],
    "problems.py": [
        "tests/rules/test_turno.py",
        "tests/unit/test_kingscore.py",
        "tests/rules/test_boundaries.py",
        # the rule set's messages are built with said() (a text's, a calendar's too)
        "tests/rules/test_ruleset_edges.py",
    ],
}
# locks.py is left out: its lock and retry paths only act on PostgreSQL, which the SQLite runs
# here cannot exercise (tests/integration/test_concurrency.py proves them on PostgreSQL)
SERVICES_TESTS = {
    "turni.py": [
        "tests/integration/test_services.py",
        "tests/integration/test_ledger.py",
        "tests/integration/test_turni_edges.py",
    ],
    # the deal, penalità and sanction writes of every game (the one recording path)
    "deals.py": [
        "tests/integration/test_services.py",
        "tests/integration/test_turni_edges.py",
        "tests/integration/test_games.py",
    ],
    "season.py": [
        # the generic games' season fold (closed_seats_by_giornata, game_states_fill): a Ramino
        # match closed and its Classifica stored
        "tests/integration/test_games.py::test_the_worked_match_through_the_services",
        # player_figures_fill: a restore computes the player page's figures again
        "tests/integration/test_backup.py::test_a_restore_computes_the_player_figures_again",
        "tests/integration/test_season_edges.py",
        "tests/integration/test_ledger.py",
    ],
    "bulk.py": ["tests/integration/test_bulk.py", "tests/integration/test_ledger.py"],
    "ledger.py": ["tests/integration/test_ledger.py", "tests/integration/test_history.py"],
    "interchange.py": [
        "tests/integration/test_services.py",
        "tests/integration/test_interchange_edges.py",
    ],
}
PACKAGES = {
    "rules": ("scoring/rules", RULES_TESTS),
    "services": ("scoring/services", SERVICES_TESTS),
}
# extra pytest options per package: the services' tests build their tables without replaying
# the migrations (no test of theirs needs the groups the migrations create); the demo club's
# replay, which they used to leave out (`-k`), is in test_demo.py now, on the module's demo
PYTEST_ARGS = {"rules": [], "services": ["--nomigrations"]}

# mutant id -> why no test can tell it from the original (judged by reading the code)
EQUIVALENT: dict[str, str] = {
    "scoring/services/season.py:643:35:boolop:0": (
        "player figures: `since is not None and few` -> `or`: without a `since` the kept rows "
        "are read but player_figures_sum ignores them (it resumes from a checkpoint only after "
        "a close); with a `since` and more stale players than FEW_PLAYERS their checkpoints are "
        "read in one larger IN (...): the same sums, a query the guard keeps small"
    ),
    "scoring/services/season.py:944:76:constant:0": (
        "game_states_fill's bulk_update batch_size 500 -> 501: the same rows written in "
        "batches of another size"
    ),
    "scoring/services/season.py:643:35:compare:0": (
        "player figures on the player page: `since is not None` -> `is None` only drops the "
        "checkpoints of a close (player_figures_sum reads `kept` only with a `since`), so the "
        "stale players are summed over all their closed seats instead of from their checkpoint: "
        "the same figures from more rows, a cost no result shows (docs/benchmarks.md measures it)"
    ),
    "scoring/rules/caf/records.py:45:18:constant:0": (
        "TurnoRecord's default number (1 -> 2): every constructor passes the number (the "
        "interchange's parser, the selectors' turno_record, the simulator), so the default "
        "is never read"
    ),
    "scoring/rules/caf/season.py:95:12:constant:0": (
        "Coppa Italia: at a table of 3 the third place is the last (`order[2] != last` is "
        "false), so `n >= 3` and `n >= 4` give the same titles"
    ),
    "scoring/rules/caf/simulator.py:116:34:compare:0": (
        "trick winner: two cards of the same suit never have the same rank in one deck, so "
        "`rank > best_rank` and `rank >= best_rank` pick the same card"
    ),
    "scoring/rules/systems.py:215:18:constant:0": (
        "the registry's `_loaded` flag only spares re-importing: `import_module` of a loaded "
        "module returns it from sys.modules without running it (nothing registers twice)"
    ),
    "scoring/rules/caf/simulator.py:36:17:constant:0": (
        "simulated trick play: TRICK_RANK is read only to compare two cards' ranks (the trick's "
        "winner), and `15 - i` shifts every rank by one, keeping their order"
    ),
    "scoring/rules/caf/simulator.py:37:81:constant:0": (
        "DOMINO_RANK: `range(2, 12)` adds a key '11', which is no rank of the deck (RANKS "
        "writes J, Q, K, A), so no card ever reads it"
    ),
    "scoring/rules/caf/simulator.py:298:11:compare:0": (
        "a simulated penalità when `rng.random() < penalty_chance`: `<=` differs only when the "
        "draw is exactly `penalty_chance` (one float in 2**53)"
    ),
    "scoring/rules/caf/ruleset.py:299:60:constant:0": (
        "the shape check: the default of `league.get('auto_promotion_when_no_top', True)` only "
        "feeds `isinstance(..., bool)`, which True and False both pass (from_dict reads the "
        "key again with its own default)"
    ),
    "scoring/rules/caf/records.py:52:18:constant:0": (
        "`@dataclass(frozen=True)` -> False: frozen only makes an assignment to a field raise, "
        "and no code assigns to one (in the original it would raise); the record holds "
        "Mappings, so it cannot be hashed either way"
    ),
    "scoring/rules/caf/records.py:66:18:constant:0": (
        "`@dataclass(frozen=True)` -> False on TurnoScore: as records.py:52 (Mapping fields, "
        "never assigned)"
    ),
    "scoring/rules/caf/records.py:177:18:constant:0": (
        "`@dataclass(frozen=True)` -> False on SeasonResult: as records.py:52 (Mapping fields, "
        "never assigned)"
    ),
    "scoring/rules/caf/ruleset.py:495:18:constant:0": (
        "`@dataclass(frozen=True)` -> False on RuleSet: as records.py:52 (dict fields, never "
        "assigned; a rule set is edited as its dict and built again)"
    ),
    "scoring/rules/caf/ruleset.py:488:18:constant:0": (
        "`@dataclass(frozen=True)` -> False on Series: never assigned (as records.py:52); "
        "frozen also makes a Series hashable, and nothing hashes one (the ladder is read as "
        "a tuple, by code)"
    ),
    "scoring/rules/caf/turno.py:41:18:constant:0": (
        "`@dataclass(frozen=True)` -> False on SmazzataPoints: as records.py:52 (a dict "
        "field, never assigned: score_turno and the services only read its fields)"
    ),
    "scoring/services/interchange.py:116:15:constant:0": (
        "IMPORT_CHUNK only sets how many turni are written per round (memory, not content): "
        "a chunk of 200 or 201 turni writes the same rows"
    ),
    "scoring/services/bulk.py:28:23:constant:0": (
        "COPY_UPDATE_MIN_ROWS only chooses between two ways of sending the same UPDATE on "
        "PostgreSQL (test_bulk.py checks both give the same rows); the runs here use SQLite"
    ),
    "scoring/rules/caf/turno.py:298:71:constant:0": (
        "places: `position.get(p, 0)` only orders players with equal totals, and every tied "
        "player must be in the spareggio (TIE_UNRESOLVED otherwise), so the default given to "
        "the others never meets a player with the same total"
    ),
    "scoring/services/interchange.py:310:70:constant:0": (
        "import: `turni` is built from `chunk` one turno per item just above, so "
        "`zip(turni, chunk, strict=...)` always meets two lists of the same length"
    ),
    "scoring/services/interchange.py:398:72:constant:0": (
        "import: `turni` is built from `chunk` one turno per item just above, so "
        "`zip(turni, chunk, strict=...)` always meets two lists of the same length"
    ),
    "scoring/services/interchange.py:415:74:constant:0": (
        "import: `turni` is built from `chunk` one turno per item just above, so "
        "`zip(turni, chunk, strict=...)` always meets two lists of the same length"
    ),
    "scoring/services/interchange.py:547:69:constant:0": (
        "an older backup's members: the default of `m.get('active', True)` only feeds "
        "`isinstance(..., bool)`, which True and False both pass (the value stored is read "
        "again with its own default)"
    ),
    "scoring/services/ledger.py:411:64:constant:0": (
        "check_ledger: `fields`, the stored row and the expected row are three 10-tuples "
        "written side by side in the same function, so `zip(..., strict=...)` never meets "
        "different lengths"
    ),
    "scoring/services/interchange.py:256:54:constant:0": (
        "import, second reading: `require_complete` only adds TURNO_INCOMPLETE (places and "
        "ratios follow the turno's own completeness); the first reading scored the same turni "
        "with True (SeasonScorer.add) and `scorer.play` refused any problem before a row is "
        "written, so every turno scored here is complete"
    ),
    "scoring/services/season.py:641:35:compare:0": (
        "player_figures_refresh: `resumed` only chooses where player_figures_sum starts; "
        "without it a stale player is summed over every closed seat instead of from the "
        "checkpoint, the same figures, line and checkpoint (`since` is passed either way), one "
        "query each; with `since` None player_figures_sum ignores `kept`. Rows read, not rows "
        "written"
    ),
    "scoring/services/season.py:91:8:return:0": (
        "`_validate_rules` is called only for the RuleViolation it raises: both callers "
        "(season_create, season_rules_update) discard the RuleSet it returns"
    ),
    "scoring/services/season.py:354:11:compare:0": (
        "recompute: at exactly 500 seats both queries read the same title awards (awards "
        "exist only on closed turni's seats: a reopen deletes its turno's), the boundary only "
        "chooses which query reads them"
    ),
    "scoring/services/season.py:528:23:constant:0": (
        "seat figures: every seat of a closed turno calls at least once (a rule set needs "
        "positive games, each called once by every player, and only a complete turno closes), "
        "so the grouped count over the callers overwrites the initial `calls` of every seat"
    ),
    "scoring/services/season.py:528:36:constant:0": (
        "seat figures: every seat of a closed turno calls at least once (see 528:23), and the "
        "grouped count over the callers sets `forced` with `calls`, overwriting the initial 0"
    ),
    "scoring/services/season.py:528:51:constant:0": (
        "seat figures: every seat of a closed turno calls at least once (see 528:23), and the "
        "grouped count over the callers sets `scazzate` with `calls`, overwriting the initial 0"
    ),
    "scoring/services/turni.py:151:25:constant:0": (
        "turno_start enrols only the players missing from `enrolled`, read under the season's "
        "lock that every enrolment takes, so no conflict is left for `ignore_conflicts` to "
        "ignore (only a write bypassing the services could race it)"
    ),
}

SWAP = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


@dataclass(frozen=True)
class Mutant:
    file: str  # relative to the project
    line: int
    col: int
    kind: str
    detail: str
    index: int  # which op of a comparison

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}:{self.col}:{self.kind}:{self.index}"


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """Nodes whose mutation cannot change behaviour: annotations and docstrings."""
    skip: set[int] = set()

    def mark(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign | ast.arg):
            mark(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            mark(node.returns)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                mark(body[0])
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            mark(node)
    return skip


def mutation_points(path: Path, rel: str) -> list[Mutant]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _skipped_nodes(tree)
    found: list[Mutant] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        where = (rel, getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in SWAP:
                    new = SWAP[type(op)].__name__
                    found.append(Mutant(*where, "compare", f"{type(op).__name__} -> {new}", i))
        elif isinstance(node, ast.BoolOp):
            new = "Or" if isinstance(node.op, ast.And) else "And"
            found.append(Mutant(*where, "boolop", f"{type(node.op).__name__} -> {new}", 0))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found.append(Mutant(*where, "not", "not x -> x", 0))
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                found.append(Mutant(*where, "constant", f"{node.value} -> {not node.value}", 0))
            elif isinstance(node.value, int):
                found.append(Mutant(*where, "constant", f"{node.value} -> {node.value + 1}", 0))
        elif (
            isinstance(node, ast.Return)
            and node.value is not None
            and not (isinstance(node.value, ast.Constant) and node.value.value is None)
        ):
            found.append(Mutant(*where, "return", "return x -> return None", 0))
    return sorted(found, key=lambda m: (m.file, m.line, m.col, m.kind, m.index))


class _Apply(ast.NodeTransformer):
    def __init__(self, mutant: Mutant) -> None:
        self.m = mutant
        self.done = False

    def _here(self, node: ast.AST) -> bool:
        return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0)) == (
            self.m.line,
            self.m.col,
        )

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if self.done or not self._here(node):
            return node
        m = self.m
        if m.kind == "compare" and isinstance(node, ast.Compare):
            node.ops[m.index] = SWAP[type(node.ops[m.index])]()
        elif m.kind == "boolop" and isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif m.kind == "not" and isinstance(node, ast.UnaryOp):
            self.done = True
            return node.operand
        elif m.kind == "constant" and isinstance(node, ast.Constant):
            node.value = (not node.value) if isinstance(node.value, bool) else node.value + 1
        elif m.kind == "return" and isinstance(node, ast.Return):
            node.value = ast.Constant(None)
        else:
            return node
        self.done = True
        return node


def mutate(source: str, mutant: Mutant) -> str:
    tree = ast.parse(source)
    applier = _Apply(mutant)
    tree = applier.visit(tree)
    if not applier.done:
        raise RuntimeError(f"mutation point not found: {mutant.id}")
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def _module(m: Mutant, folder: str) -> str:
    """The key of ``m``'s module in the package's table: its path under the package's folder
    (``caf/turno.py``; the engine's modules are in sub-packages since rules/caf/)."""
    return Path(m.file).relative_to(folder).as_posix()


def _copy_project() -> Path:
    dest = Path(tempfile.mkdtemp(prefix="kingclub-mutation-"))
    ignore = shutil.ignore_patterns(
        ".venv", ".git", "__pycache__", "test-artifacts", "benchmarks", "*.sqlite3*", ".hypothesis"
    )
    for item in ROOT.iterdir():
        if item.name in {".venv", ".git", "test-artifacts", ".hypothesis", ".pytest_cache"}:
            continue
        if item.is_dir():
            shutil.copytree(item, dest / item.name, ignore=ignore)
        else:
            shutil.copy2(item, dest / item.name)
    return dest


def _pytest(copy: Path, tests: list[str], timeout: float, extra: list[str]) -> tuple[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONPATH"] = str(copy)
    cmd = [sys.executable, "-m", "pytest", *tests, "-x", "-q", "-p", "no:randomly"]
    cmd += ["-p", "no:cacheprovider", "--no-header", *extra]
    start = time.monotonic()
    try:
        proc = subprocess.run(
            cmd, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return "killed (timeout)", time.monotonic() - start
    took = time.monotonic() - start
    if proc.returncode == 0:
        return "survived", took
    if proc.returncode in (1, 2, 3, 4):
        return "killed", took
    return f"killed (pytest exit {proc.returncode})", took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", choices=sorted(PACKAGES), required=True)
    parser.add_argument("--count", type=int, default=100, help="mutants to sample")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--timeout", type=float, default=180, help="seconds per mutant")
    parser.add_argument("--only", help="run only these mutant ids, comma-separated")
    parser.add_argument("--list", action="store_true", help="list the sample, run nothing")
    parser.add_argument(
        "--skip-baseline", action="store_true", help="do not run the unmutated tests first"
    )
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--jobs", type=int, default=1, help="mutants tested at once")
    args = parser.parse_args(argv)

    folder, tests_of = PACKAGES[args.package]
    points: list[Mutant] = []
    for name in sorted(tests_of):
        rel = f"{folder}/{name}"
        points.extend(mutation_points(ROOT / rel, rel))
    sample = sorted(
        random.Random(args.seed).sample(points, min(args.count, len(points))),
        key=lambda m: (m.file, m.line, m.col),
    )
    if args.only:
        sample = [m for m in points if m.id in args.only.split(",")]
    print(f"{args.package}: {len(points)} mutation points, {len(sample)} sampled")
    if args.list:
        for m in sample:
            print(f"  {m.id}  {m.detail}")
        return 0

    extra = PYTEST_ARGS[args.package]
    copies = [_copy_project() for _ in range(max(1, args.jobs))]
    results: list[dict] = []
    try:
        # the unmutated project must pass every selection, or nothing below means anything
        union = sorted({t for m in sample for t in tests_of[_module(m, folder)]})
        if not args.skip_baseline:
            status, took = _pytest(copies[0], union, args.timeout * 3, extra)
            if status != "survived":
                print(f"baseline failed: {status}")
                return 2
            print(f"baseline: {len(union)} test files pass in {took:.1f} s")
        free: queue.Queue[Path] = queue.Queue()
        for c in copies:
            free.put(c)
        done = iter(range(1, len(sample) + 1))
        lock = threading.Lock()

        def run(m: Mutant) -> dict:
            copy = free.get()  # one mutant at a time in each copy of the project
            target = copy / m.file
            original = target.read_text(encoding="utf-8")
            target.write_text(mutate(original, m), encoding="utf-8")
            try:
                status, took = _pytest(copy, tests_of[_module(m, folder)], args.timeout, extra)
            finally:
                target.write_text(original, encoding="utf-8")
                free.put(copy)
            if status == "survived" and m.id in EQUIVALENT:
                status = "equivalent"
            with lock:
                i = next(done)
                print(
                    f"[{i}/{len(sample)}] {status:10} {m.id}  {m.detail}  ({took:.1f} s)",
                    flush=True,
                )
            return {**asdict(m), "id": m.id, "status": status, "seconds": round(took, 1)}

        with ThreadPoolExecutor(max_workers=len(copies)) as pool:
            results = list(pool.map(run, sample))
    finally:
        for c in copies:
            shutil.rmtree(c, ignore_errors=True)

    killed = sum(r["status"].startswith("killed") for r in results)
    equivalent = sum(r["status"] == "equivalent" for r in results)
    survived = [r for r in results if r["status"] == "survived"]
    scored = len(results) - equivalent
    rate = 100 * killed / scored if scored else 100.0
    print(
        f"\n{args.package}: {len(results)} mutants, {killed} killed, {len(survived)} survived, "
        f"{equivalent} equivalent: {rate:.1f} % of the non-equivalent mutants killed"
    )
    for r in survived:
        print(f"  survived: {r['id']}  {r['detail']}")
    for r in results:
        if r["status"] == "equivalent":
            print(f"  equivalent: {r['id']}  {r['detail']}: {EQUIVALENT[r['id']]}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        summary = {"package": args.package, "seed": args.seed, "count": len(results)}
        summary |= {"killed": killed, "survived": len(survived), "equivalent": equivalent}
        summary |= {"rate": round(rate, 1), "mutants": results}
        args.json.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
