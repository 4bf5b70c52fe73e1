"""The two reports of issue 26's rerun: ``benchmarks.trust`` (CPU growth per ten times the
names) and ``tools.redteam`` (one row per attempt, a failure shown as such)."""

from __future__ import annotations

from benchmarks import trust
from tools import redteam


def _roster(game: str, names: int, wall: float, cpu: float) -> dict:
    return {
        "game": game,
        "names": names,
        "score_s": 0.1,
        "score_cpu_s": 0.05,
        "import_s": wall,
        "import_cpu_s": cpu,
        "peak_mb": 90,
    }


def test_the_roster_table_says_how_the_cpu_grows():
    results = {
        "meta": {"command": "python -m benchmarks.trust", "date": "2026-11-26", "loadavg": "9.3"},
        "rosters": [
            _roster("caf", 1000, 0.78, 0.29),
            _roster("caf", 10000, 5.96, 2.08),
            _roster("caf", 100000, 115.56, 20.96),
            _roster("skat-isko", 1000, 4.94, 0.26),
        ],
    }
    lines = trust.render(results).splitlines()
    assert lines[0] == trust.START and lines[-1] == trust.END
    rows = [line for line in lines if line.startswith("| caf") or line.startswith("| skat")]
    assert rows == [
        "| caf | 1,000 | 0.1 (0.05) | 0.78 (0.29) |  | 90 |",
        "| caf | 10,000 | 0.1 (0.05) | 5.96 (2.08) | 7.2 | 90 |",  # 2.08 / 0.29
        "| caf | 100,000 | 0.1 (0.05) | 115.56 (20.96) | 10.1 | 90 |",  # 20.96 / 2.08
        "| skat-isko | 1,000 | 0.1 (0.05) | 4.94 (0.26) |  | 90 |",
    ]


def test_the_red_team_table_shows_a_failure_and_keeps_the_findings_order():
    def row(finding, tried, held, answer):
        return {"finding": finding, "tried": tried, "held": held, "answer": answer}

    results = [
        {"config": "A", "rows": [row("ledger", "check", True, "0"), row("1", "x", True, "ok")]},
        {"config": "B", "rows": [row("1", "x", False, "500"), row("ledger", "check", True, "0")]},
    ]
    assert redteam.render(results).splitlines() == [
        "| finding | tried | answer | A | B |",
        "|---|---|---|---|---|",
        "| 1 | x | per configuration: | held: ok | **FAILED**: 500 |",
        "| ledger | check | 0 | held | held |",
    ]
