"""The Verbale PDF of every game: its first rendering in a fresh process, the next ones, and
what it lays out (issue 25, defect 7: the Skat Verbale took 8.4-8.6 s, the others 0.7-3.8 s).

    DATABASE_URL=sqlite:////tmp/demo.sqlite3 python -m benchmarks.verbale_pdf --repeat 5

Reads the database it is given (the demo club of ``manage.py seed_demo`` holds a season of each
game; it writes nothing): for each season, its longest closed turno (most smazzate, then most
players). Each game runs in its own process, so the first rendering pays what a worker's first
request pays (WeasyPrint's import, the fonts, the stylesheet). Printed per game: wall and CPU
seconds of the first rendering and the median of the next ``--repeat``, the share of WeasyPrint's
layout (HTML to pages) in a warm rendering, pages, table cells and text runs under 9 pt.
CPU seconds are the figure to compare on a shared machine (the load average is printed too).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any


def measure(season_id: int, repeat: int) -> dict[str, Any]:
    """In this (fresh) process: render the Verbale of the season's longest closed turno."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingclub.settings")
    django.setup()
    w0, c0 = time.perf_counter(), time.process_time()  # from here: a worker's first request
    from django.db.models import Count
    from django.template.loader import render_to_string
    from pypdf import PdfReader
    from weasyprint import HTML

    from scoring.exports import pdf
    from scoring.models import Turno
    from scoring.services.documents import verbale_source

    turno = (
        Turno.objects.filter(season_id=season_id, status=Turno.CHIUSO)
        .annotate(n=Count("smazzate", distinct=True), p=Count("seats", distinct=True))
        .order_by("-n", "-p", "pk")
        .first()
    )
    assert turno is not None, f"season {season_id} has no closed turno"
    source = verbale_source(turno.pk)
    content = source.renderers["pdf"]()
    first = (time.perf_counter() - w0, time.process_time() - c0)
    warm, layout = [], []
    real_render = render_to_string
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        content = source.renderers["pdf"]()
        warm.append((time.perf_counter() - w0, time.process_time() - c0))
    # the layout's share: the same HTML laid out alone (render() without write_pdf)
    captured: list[str] = []

    def capture(template: str, context: Any = None, *args: Any, **kwargs: Any) -> str:
        captured.append(real_render(template, context, *args, **kwargs))
        return captured[-1]

    pdf.render_to_string = capture
    try:
        source.renderers["pdf"]()
    finally:
        pdf.render_to_string = real_render
    setup = pdf.print_setup()
    for _ in range(max(1, repeat)):
        c0 = time.process_time()
        HTML(string=captured[-1], base_url=setup.base_url, url_fetcher=setup.fetcher).render(
            stylesheets=[setup.stylesheet], font_config=setup.fonts, pdf_tags=True
        )
        layout.append(time.process_time() - c0)
    small = 0
    reader = PdfReader(io.BytesIO(content))
    for page in reader.pages:

        def visit(text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
            nonlocal small
            if text.strip() and size * (abs(tm[0] * cm[0]) or 1) < 8.95:
                small += 1

        page.extract_text(visitor_text=visit)
    html = captured[-1]
    return {
        "game": turno.season.ruleset_code,
        "turno": turno.pk,
        "smazzate": turno.n,
        "players": turno.p,
        "first_wall": first[0],
        "first_cpu": first[1],
        "warm_wall": statistics.median(w for w, _c in warm) if warm else None,
        "warm_cpu": statistics.median(c for _w, c in warm) if warm else None,
        "layout_cpu": statistics.median(layout),
        "pages": len(reader.pages),
        "cells": html.count("<td") + html.count("<th"),
        "small_runs": small,
        "bytes": len(content),
        "load": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a season, in this process
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(args.one, args.repeat)))
        return
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingclub.settings")
    django.setup()
    from scoring.models import Season

    seasons = list(Season.objects.order_by("pk").values_list("pk", "ruleset_code"))
    done: set[str] = set()
    results = []
    print(
        f"{'game':20} {'smazzate':>8} {'players':>7} {'first s':>8} {'first cpu':>9} "
        f"{'next s':>7} {'next cpu':>8} {'layout':>7} {'pages':>5} {'cells':>5} {'<9pt':>5} "
        f"{'load':>5}"
    )
    for pk, code in seasons:
        if code in done:
            continue
        done.add(code)
        command = [sys.executable, "-m", "benchmarks.verbale_pdf", "--one", str(pk)]
        out = subprocess.run(
            [*command, "--repeat", str(args.repeat)], capture_output=True, text=True, check=True
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        results.append(r)
        share = r["layout_cpu"] / r["warm_cpu"] if r["warm_cpu"] else 0
        print(
            f"{r['game']:20} {r['smazzate']:8} {r['players']:7} {r['first_wall']:8.2f} "
            f"{r['first_cpu']:9.2f} {r['warm_wall']:7.2f} {r['warm_cpu']:8.2f} "
            f"{share:6.0%} {r['pages']:5} {r['cells']:5} {r['small_runs']:5} {r['load']:5.1f}"
        )
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(results, fh, indent=2)


if __name__ == "__main__":
    main()
