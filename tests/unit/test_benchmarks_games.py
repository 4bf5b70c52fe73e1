"""``benchmarks.games``'s report: the ratios of the largest season to the smallest, on the CPU
medians and (in brackets) the wall medians, for every measure (no database: the section only)."""

from __future__ import annotations

from benchmarks.games import OPS, render


def run(size: int, cpu: float, wall: float, import_s: float, import_cpu_s: float) -> dict:
    out = {"code": "le-king", "size": size, "loadavg": [7.5, 6.0, 5.0]}
    out.update(import_s=import_s, import_cpu_s=import_cpu_s)
    for k in OPS:
        out[k] = {"n": 7, "median_ms": wall, "cpu_ms": cpu}
        out[f"{k}_queries"] = 9
    return out


def test_the_section_gives_every_measure_and_its_ratios():
    results = {
        "command": "python -m benchmarks.games",
        "date": "2026-11-26 20:00 UTC",
        "backend": "postgres",
        "cache": "db",
        "samples": 7,
        # 40 turni: 20 ms CPU, 50 ms wall; 2,000 turni: 25 ms CPU (×1.25), 150 ms wall (×3)
        "runs": [run(40, 20.0, 50.0, 0.4, 0.2), run(2000, 25.0, 150.0, 30.0, 12.0)],
    }
    text = render(results)
    assert text.startswith("<!-- games:start -->") and text.endswith("<!-- games:end -->\n")
    # import per turno: CPU (12 / 2000) / (0.2 / 40) = 1.2, wall (30 / 2000) / (0.4 / 40) = 1.5
    ratios = " | ".join(["1.25 (3.00)"] * len(OPS))
    assert f"| le-king | 2000 ÷ 40 | {ratios} | 1.20 (1.50) |" in text
    assert "| le-king | 40 | 0.40 | " + " | ".join(["50.0 (9)"] * len(OPS)) + " |" in text
    assert "| le-king | 2000 | 12.00 | " + " | ".join(["25.0"] * len(OPS)) + " | 7.5 |" in text
