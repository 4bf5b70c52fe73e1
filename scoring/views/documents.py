"""Views: the official documents (Verbale di Turno and Classifica Generale, PDF and Excel).

Thin: load the rows from :mod:`scoring.verbale`, call the pure renderer, return the bytes.
Public read-only like the other members' pages; an open turno's Verbale is marked as a draft.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path

from scoring.exports import classifica_basename, verbale_basename
from scoring.exports.pdf import classifica_pdf, verbale_pdf
from scoring.exports.xlsx import classifica_xlsx, verbale_xlsx
from scoring.models import Season, Turno
from scoring.permissions import members_view
from scoring.selectors import turno_with_everything
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


@members_view
def turno_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    turno, v = _load(pk)
    content = verbale_pdf(v, series_labels=series_labels(turno.season))
    return _document(content, PDF, f"{verbale_basename(v)}.pdf", inline=True)


@members_view
def turno_xlsx(request: HttpRequest, pk: int) -> HttpResponse:
    turno, v = _load(pk)
    rows = classifica_as_of(turno.season, v.date)
    content = verbale_xlsx(v, rows, series_labels=series_labels(turno.season))
    return _document(content, XLSX, f"{verbale_basename(v)}.xlsx", inline=False)


@members_view
def classifica_pdf_view(request: HttpRequest, season_pk: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_pk)
    content = classifica_pdf(season.name, classifica(season), last_closed_date(season))
    return _document(content, PDF, f"{classifica_basename(season.name)}.pdf", inline=True)


@members_view
def classifica_xlsx_view(request: HttpRequest, season_pk: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_pk)
    content = classifica_xlsx(season.name, classifica(season), last_closed_date(season))
    return _document(content, XLSX, f"{classifica_basename(season.name)}.xlsx", inline=False)


urlpatterns = [
    path("turni/<int:pk>/verbale.pdf", turno_pdf, name="turno_pdf"),
    path("turni/<int:pk>/verbale.xlsx", turno_xlsx, name="turno_xlsx"),
    path("classifica/<int:season_pk>/classifica.pdf", classifica_pdf_view, name="classifica_pdf"),
    path(
        "classifica/<int:season_pk>/classifica.xlsx", classifica_xlsx_view, name="classifica_xlsx"
    ),
]
