"""PDF documents (WeasyPrint, from the templates in ``templates/scoring/documents``).

Fonts are the DejaVu files on the machine (they carry ♠♥♦♣), embedded in the PDF. The renderer
fetches nothing from the network: only ``file:`` URLs under the font and static folders and
``data:`` URLs are allowed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

from scoring.exports import (
    DRAFT_MARK,
    date_it,
    dec2,
    local_datetime,
    now,
    series_text,
    short_date,
    signed,
    verbale_doc_id,
)
from scoring.verbale import TITLE_LABELS, TITLE_SHORT, ClassificaRow, Verbale

# where static/css/print.css loads the DejaVu fonts from (fontconfig's DejaVu is the fallback)
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
RED_SYMBOLS = {"♥", "♦"}
SYMBOLS = {"♠", "♥", "♦", "♣"}
# Titles shown as their own columns in the Classifica (the Scudetti have their own column).
CLASSIFICA_TITLES = tuple(c for c in TITLE_LABELS if c != "SCUDETTO")


class LocalFetcher(URLFetcher):
    """Only local fonts and stylesheets: no network, no arbitrary files."""

    def __init__(self, roots: Sequence[Path]) -> None:
        super().__init__(allowed_protocols={"file", "data"}, fail_on_errors=True)
        self._roots = tuple(Path(r).resolve() for r in roots)

    def fetch(self, url: str, headers: Any = None) -> Any:
        if url.startswith("file:"):
            from urllib.parse import unquote, urlparse

            path = Path(unquote(urlparse(url).path)).resolve()
            if not any(path.is_relative_to(root) for root in self._roots):
                raise ValueError(f"file outside the allowed folders: {url}")
        return super().fetch(url, headers)


def _stylesheet() -> Path:
    found = finders.find("css/print.css")
    if not found:  # pragma: no cover - the file ships with the app
        raise FileNotFoundError("static/css/print.css")
    return Path(found).resolve()


def render_pdf(template: str, context: Mapping[str, Any]) -> bytes:
    """Render a document template to PDF bytes with the print stylesheet and embedded fonts."""
    css_path = _stylesheet()
    fetcher = LocalFetcher([FONT_DIR, css_path.parent])
    fonts = FontConfiguration()
    html = render_to_string(template, dict(context))
    stylesheet = CSS(filename=str(css_path), font_config=fonts, url_fetcher=fetcher)
    document = HTML(string=html, base_url=css_path.parent.as_uri() + "/", url_fetcher=fetcher)
    return document.write_pdf(stylesheets=[stylesheet], font_config=fonts)


def _label_parts(label: str) -> tuple[str, str]:
    """``N♥`` -> (``N``, ``♥``): the suit symbol is printed apart (red for ♥ ♦)."""
    if label and label[-1] in SYMBOLS:
        return label[:-1], label[-1]
    return label, ""


def verbale_context(
    v: Verbale,
    *,
    series_labels: Mapping[str, str] | None = None,
    generated_at: dt.datetime | None = None,
) -> dict[str, Any]:
    """What the Verbale template prints, every value taken from ``v`` and only formatted."""
    names = v.players
    rows: list[dict[str, Any]] = []
    games: dict[str, str] = {}
    for row in v.rows:
        label, symbol = _label_parts(row.game_label)
        if row.game_name.casefold() != row.game_label.casefold():
            games.setdefault(row.game_label, row.game_name)
        cells = []
        for name, cell in zip(names, row.cells, strict=True):
            marks = []
            if row.scazzata and name == row.caller:
                marks.append("S")
            if row.cappotto == name:
                marks.append("C")
            cells.append({"count": cell.count, "points": cell.points, "marks": "".join(marks)})
        rows.append(
            {
                "number": row.number,
                "label": label,
                "symbol": symbol,
                "symbol_red": symbol in RED_SYMBOLS,
                "trump_symbol": row.trump_symbol,
                "trump_red": row.trump_red,
                "dealer": row.dealer,
                "caller": row.caller,
                "forced": row.forced,
                "cells": cells,
            }
        )
    blank = [] if v.closed else list(range(len(v.rows) + 1, v.smazzate_total + 1))
    results = [
        {
            "place": s.place or "—",
            "player": s.player,
            "smazzate_points": s.smazzate_points,
            "penalty": s.penalty,
            "total": s.total,
            "ratio": dec2(s.ratio),
            "titles": [(label, signed(value)) for _code, label, value in s.titles],
            "league_points": dec2(s.league_points),
            "series_before": series_text(s.series_before, series_labels),
            "series_after": series_text(s.series_after, series_labels),
            "moved": bool(s.series_before and s.series_after != s.series_before),
        }
        for s in v.by_place
    ]
    return {
        "v": v,
        "draft_mark": "" if v.closed else DRAFT_MARK,
        "landscape": len(v.seats) >= 6,
        "players": [
            {"name": s.player, "seat": s.position + 1, "first_dealer": s.player == v.first_dealer}
            for s in v.seats
        ],
        "rows": rows,
        "blank_rows": blank,
        "blank_cells": range(len(v.seats)),
        "seats": v.seats,
        "results": results,
        "penalties": [
            {
                "player": p.player,
                "points": signed(p.points),
                "article": p.article,
                "reason": p.reason,
            }
            for p in v.penalties
        ],
        "sanctions": v.sanctions,
        "games": sorted(games.items(), key=lambda kv: kv[0]),
        "has_scazzata": any(r.scazzata for r in v.rows),
        "has_cappotto": any(r.cappotto for r in v.rows),
        "date_long": date_it(v.date, weekday=True),
        "date_short": short_date(v.date),
        "closed_at": local_datetime(v.closed_at),
        "generated": local_datetime(generated_at or now()),
        "doc_id": verbale_doc_id(v),
    }


def verbale_pdf(
    v: Verbale,
    *,
    series_labels: Mapping[str, str] | None = None,
    generated_at: dt.datetime | None = None,
) -> bytes:
    """The Verbale di Turno as a print-ready PDF (A4; landscape for 6 or 7 players)."""
    context = verbale_context(v, series_labels=series_labels, generated_at=generated_at)
    return render_pdf("scoring/documents/verbale.html", context)


def classifica_context(
    season_name: str,
    rows: Sequence[ClassificaRow],
    last_date: dt.date | None,
    *,
    club: str | None = None,
    generated_at: dt.datetime | None = None,
) -> dict[str, Any]:
    titles = [(code, TITLE_SHORT.get(code, code), TITLE_LABELS[code]) for code in CLASSIFICA_TITLES]
    return {
        "club": club if club is not None else settings.CLUB_NAME,
        "season": season_name,
        "last_date": date_it(last_date, weekday=True) if last_date else "",
        "titles": titles,
        "rows": [
            {
                "place": r.place,
                "player": r.player,
                "series": r.series_label,
                "score": dec2(r.score),
                "turni": r.turni,
                "absences": r.absences,
                "scudetti": r.scudetti,
                "average": dec2(r.average),
                "counts": [r.titles.get(code, 0) for code in CLASSIFICA_TITLES],
            }
            for r in rows
        ],
        "generated": local_datetime(generated_at or now()),
        "doc_id": f"Classifica Generale · {season_name}",
    }


def classifica_pdf(
    season_name: str,
    rows: Sequence[ClassificaRow],
    last_date: dt.date | None,
    *,
    club: str | None = None,
    generated_at: dt.datetime | None = None,
) -> bytes:
    """The Classifica Generale for the notice board (A4 portrait)."""
    context = classifica_context(season_name, rows, last_date, club=club, generated_at=generated_at)
    return render_pdf("scoring/documents/classifica.html", context)
