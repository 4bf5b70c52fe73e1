"""Views: the official documents (Verbale di Turno and Classifica Generale, PDF and Excel).

Thin: load the rows from :mod:`scoring.verbale`, call the pure renderer, return the bytes.
Public read-only like the other members' pages; an open turno's Verbale is marked as a draft.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _

from scoring.exports import classifica_basename, games, verbale_basename
from scoring.exports.csv import CONTENT_TYPE as CSV
from scoring.exports.csv import rows_csv, table_csv
from scoring.exports.pdf import classifica_pdf, verbale_pdf
from scoring.exports.xlsx import classifica_xlsx, verbale_xlsx
from scoring.filters import TurnoFilter
from scoring.models import Season, Turno
from scoring.permissions import members_view
from scoring.publishing import require_published
from scoring.selectors import season_turni, turno_with_everything
from scoring.services.games import game_turni
from scoring.tables import ClassificaTable, TurniTable
from scoring.verbale import Verbale, classifica, classifica_as_of, last_closed_date, verbale

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _document(content: bytes, content_type: str, filename: str, *, inline: bool) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response["Cache-Control"] = "private, no-cache"
    return response


def _load(pk: int) -> tuple[Turno, Verbale]:
    turno = get_object_or_404(turno_with_everything(Turno.objects.filter(pk=pk)))
    return turno, verbale(turno)


def series_labels(season: Season) -> dict[str, str]:
    return {s.code: s.label for s in season.ruleset.series}


def _generic(request: HttpRequest, pk: int) -> Turno | None:
    """The turno when its game is kept by the generic ledger (its own documents), else None."""
    turno = get_object_or_404(Turno.objects.select_related("season"), pk=pk)
    require_published(request, turno.season)
    return game_turni(Turno.objects.filter(pk=pk)).get() if turno.season.is_generic else None


@members_view
def turno_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    if (generic := _generic(request, pk)) is not None:
        gv = games.verbale_rows(generic)
        name = games.basename(gv)
        return _document(games.verbale_pdf(gv), PDF, f"{name}.pdf", inline=True)
    turno, v = _load(pk)
    content = verbale_pdf(v, series_labels=series_labels(turno.season))
    return _document(content, PDF, f"{verbale_basename(v)}.pdf", inline=True)


@members_view
def turno_xlsx(request: HttpRequest, pk: int) -> HttpResponse:
    if (generic := _generic(request, pk)) is not None:
        gv = games.verbale_rows(generic)
        name = games.basename(gv)
        return _document(games.verbale_xlsx(gv), XLSX, f"{name}.xlsx", inline=False)
    turno, v = _load(pk)
    rows = classifica_as_of(turno.season, v.date)
    content = verbale_xlsx(v, rows, series_labels=series_labels(turno.season))
    return _document(content, XLSX, f"{verbale_basename(v)}.xlsx", inline=False)


@members_view
def classifica_pdf_view(request: HttpRequest, season_pk: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_pk)
    require_published(request, season)
    if season.is_generic:
        content = games.standing_pdf(season, last_closed_date(season))
        return _document(content, PDF, f"{classifica_basename(season.name)}.pdf", inline=True)
    content = classifica_pdf(season.name, classifica(season), last_closed_date(season))
    return _document(content, PDF, f"{classifica_basename(season.name)}.pdf", inline=True)


@members_view
def classifica_xlsx_view(request: HttpRequest, season_pk: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_pk)
    require_published(request, season)
    if season.is_generic:
        content = games.standing_xlsx(season, last_closed_date(season))
        return _document(content, XLSX, f"{classifica_basename(season.name)}.xlsx", inline=False)
    content = classifica_xlsx(season.name, classifica(season), last_closed_date(season))
    return _document(content, XLSX, f"{classifica_basename(season.name)}.xlsx", inline=False)


@members_view
def classifica_csv_view(request: HttpRequest, season_pk: int) -> HttpResponse:
    """The Classifica Generale as CSV: the page's table, every column, plain numbers."""
    season = get_object_or_404(Season, pk=season_pk)
    require_published(request, season)
    name = f"{classifica_basename(season.name)}.csv"
    if season.is_generic:  # the game's own columns
        columns, rows = games.standing_rows(season)
        header = [_("Pos."), _("Giocatore"), *(label for _key, label in columns)]
        content = rows_csv([header, *([r["place"], r["player"], *r["values"]] for r in rows)])
        return _document(content, CSV, name, inline=False)
    order = {code: i for i, code in enumerate(season.ruleset.series_codes())}
    table = ClassificaTable(classifica(season), series_order=order)
    return _document(table_csv(table), CSV, name, inline=False)


@members_view
def turni_csv_view(request: HttpRequest, season_pk: int) -> HttpResponse:
    """The season's turni as CSV, with the list's filters (``?giocatore=...&stato=...``)."""
    season = get_object_or_404(Season, pk=season_pk)
    require_published(request, season)
    filterset = TurnoFilter(request.GET or None, queryset=season_turni(season), season=season)
    table = TurniTable(filterset.qs)
    name = f"turni-{classifica_basename(season.name).removeprefix('classifica-')}.csv"
    return _document(table_csv(table), CSV, name, inline=False)


urlpatterns = [
    path("turni/<int:pk>/verbale.pdf", turno_pdf, name="turno_pdf"),
    path("turni/<int:pk>/verbale.xlsx", turno_xlsx, name="turno_xlsx"),
    path("classifica/<int:season_pk>/classifica.pdf", classifica_pdf_view, name="classifica_pdf"),
    path(
        "classifica/<int:season_pk>/classifica.xlsx", classifica_xlsx_view, name="classifica_xlsx"
    ),
    path("classifica/<int:season_pk>/classifica.csv", classifica_csv_view, name="classifica_csv"),
    path("turni/stagione/<int:season_pk>/turni.csv", turni_csv_view, name="turni_csv"),
]
