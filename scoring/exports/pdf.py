"""PDF documents (WeasyPrint, from the templates in ``templates/scoring/documents``).

Fonts are the DejaVu files on the machine (they carry ♠♥♦♣), embedded in the PDF. The renderer
fetches nothing from the network: only ``file:`` URLs under the font and static folders and
``data:`` URLs are allowed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

from scoring import formatting
from scoring.exports import DRAFT_MARK, now, series_text, verbale_doc_id, verbale_title
from scoring.rules.caf.ruleset import TITLE_LABELS, TITLE_SHORT
from scoring.verbale import ClassificaRow, Verbale

# where static/css/print.css loads the DejaVu fonts from (fontconfig's DejaVu is the fallback)
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
PDF_VARIANT = "pdf/ua-1"  # accessible, tagged PDF (WeasyPrint >= 63)
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


@dataclass(frozen=True)
class PrintSetup:
    """What every PDF shares: the fonts, the parsed ``print.css`` and the URL fetcher."""

    fonts: FontConfiguration
    stylesheet: CSS
    fetcher: LocalFetcher
    base_url: str


_print_setup: PrintSetup | None = None


def print_setup() -> PrintSetup:
    """One :class:`FontConfiguration` and one parsed stylesheet per process, built at first use
    (parsing ``print.css`` and loading its fonts took a good part of every render)."""
    global _print_setup
    if _print_setup is None:
        css_path = _stylesheet()
        fetcher = LocalFetcher([FONT_DIR, css_path.parent])
        fonts = FontConfiguration()
        stylesheet = CSS(filename=str(css_path), font_config=fonts, url_fetcher=fetcher)
        _print_setup = PrintSetup(fonts, stylesheet, fetcher, css_path.parent.as_uri() + "/")
    return _print_setup


def render_pdf(template: str, context: Mapping[str, Any]) -> bytes:
    """Render a document template to PDF bytes with the print stylesheet and embedded fonts."""
    setup = print_setup()
    html = render_to_string(template, dict(context))
    document = HTML(string=html, base_url=setup.base_url, url_fetcher=setup.fetcher)
    # PDF/UA-1: tagged (headings, tables, reading order), the title and language in the metadata
    return document.write_pdf(
        stylesheets=[setup.stylesheet],
        font_config=setup.fonts,
        pdf_variant=PDF_VARIANT,
        pdf_tags=True,
    )


def verbale_context(
    v: Verbale,
    *,
    series_labels: Mapping[str, str] | None = None,
    generated_at: dt.datetime | None = None,
) -> dict[str, Any]:
    """What the Verbale template prints, every value taken from ``v`` and only formatted
    (numbers, dates and games by :mod:`scoring.formatting`, as on the web and in the workbook)."""
    if series_labels is None:  # the read model's own: the season's ladder
        series_labels = dict(v.series_labels)
    names = v.players
    rows: list[dict[str, Any]] = []
    games: dict[str, str] = {}
    for row in v.rows:
        label, suit = formatting.game_parts(row.game)
        if row.game_name.casefold() != row.game_label.casefold():
            games.setdefault(row.game_label, row.game_name)
        cells = []
        for name, cell in zip(names, row.cells, strict=True):
            marks = []
            if row.scazzata and name == row.caller:
                marks.append("S")
            if row.cappotto == name:
                marks.append("C")
            cells.append(
                {
                    "count": cell.count,
                    "points": formatting.points(cell.points),
                    "sign": (cell.points > 0) - (cell.points < 0),
                    "marks": "".join(marks),
                }
            )
        rows.append(
            {
                "number": row.number,
                "label": label,
                "symbol": formatting.SUIT_SYMBOLS.get(suit, ""),
                "symbol_red": suit in formatting.RED_SUITS,
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
            "place": formatting.place(s.place),
            "spareggio": s.spareggio,
            "player": s.player,
            "total": formatting.points(s.total),
            "ratio": formatting.ratio(s.ratio),
            "titles": [(label, formatting.title_value(value)) for _code, label, value in s.titles],
            "league_points": formatting.league(s.league_points),
            "series_before": series_text(s.series_before, series_labels),
            "series_after": series_text(s.series_after, series_labels),
            "moved": bool(s.series_before and s.series_after != s.series_before),
        }
        for s in v.by_place
    ]
    n = len(v.seats)
    return {
        "v": v,
        "draft_mark": "" if v.closed else DRAFT_MARK,
        "landscape": n >= 6,
        "size": f"n{n}",
        "players": [
            {"name": s.player, "seat": s.position + 1, "first_dealer": s.player == v.first_dealer}
            for s in v.seats
        ],
        "rows": rows,
        "blank_rows": blank,
        "blank_cells": range(n),
        "sums": [
            {
                "smazzate": formatting.points(s.smazzate_points),
                "penalty": formatting.points(s.penalty),
                "penalty_zero": not s.penalty,
                "total": formatting.points(s.total),
                "place": formatting.place(s.place),
                "spareggio": s.spareggio,
            }
            for s in v.seats
        ],
        "results": results,
        "spareggio_note": formatting.SPAREGGIO if v.spareggio else "",
        "penalties": [
            {
                "player": p.player,
                "points": formatting.points(p.points),
                "article": p.article,
                "reason": p.reason,
            }
            for p in v.penalties
        ],
        "sanctions": v.sanctions,
        "reopens": [
            {"at": formatting.moment(r.at), "user": r.user, "reason": r.reason} for r in v.reopens
        ],
        "confirmations": list(v.confirmations),
        "games": sorted(games.items(), key=lambda kv: kv[0]),
        "date_long": formatting.date_long(v.date),
        "date_short": formatting.date_short(v.date),
        "closed_at": formatting.moment(v.closed_at),
        "generated": formatting.moment(generated_at or now()),
        "doc_id": verbale_doc_id(v),
        "title": verbale_title(v),
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
        "last_date": formatting.date_long(last_date) if last_date else "",
        "titles": titles,
        "rows": [
            {
                "place": r.place,
                "player": r.player,
                "series": r.series_label,
                "score": formatting.score(r.score),
                "turni": r.turni,
                "absences": r.absences,
                "scudetti": r.scudetti,
                "average": formatting.score(r.average),
                "counts": [r.titles.get(code, 0) for code in CLASSIFICA_TITLES],
            }
            for r in rows
        ],
        "generated": formatting.moment(generated_at or now()),
        "doc_id": f"{_('Classifica Generale')} · {season_name}",
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
