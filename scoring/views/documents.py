"""Views: the official documents (Verbale di Turno and Classifica Generale, PDF and Excel).

Thin: load the rows from :mod:`scoring.verbale`, call the pure renderer, return the bytes.
Public read-only like the other members' pages; an open turno's Verbale is marked as a draft.
A closed turno's Verbale is rendered once and kept (:mod:`scoring.services.documents`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.files.storage import default_storage
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.cache import get_conditional_response
from django.utils.http import http_date

from scoring.exports import classifica_basename
from scoring.exports.csv import CONTENT_TYPE as CSV
from scoring.exports.csv import rows_csv, table_csv
from scoring.filters import TurnoFilter
from scoring.models import Season, StoredDocument, Turno
from scoring.permissions import members_view
from scoring.publishing import require_published
from scoring.selectors import season_turni
from scoring.services.documents import (
    PDF,
    XLSX,
    classifica_document,
    kept_document,
    verbale_document,
)
from scoring.tables import TurniTable, classifica_values
from scoring.verbale import classifica_sheet


def _document(content: bytes, content_type: str, filename: str, *, inline: bool) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response["Cache-Control"] = "private, no-cache"
    return response


def series_labels(season: Season) -> dict[str, str]:
    return {s.code: s.label for s in season.ruleset.series}


def _served(
    request: HttpRequest, *, etag: str, modified: int, make: Callable[[], HttpResponse]
) -> HttpResponse:
    """A stored document: 304 when the member's copy is current, else ``make()``; both with
    the strong ETag and Last-Modified."""
    response = get_conditional_response(request, etag=etag, last_modified=modified)
    if response is None:
        response = make()
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    response["Cache-Control"] = "private, no-cache"
    return response


def _file(name: str, size: int, content_type: str, filename: str, inline: bool) -> FileResponse:
    response = FileResponse(
        default_storage.open(name, "rb"),
        content_type=content_type,
        as_attachment=not inline,
        filename=filename,
    )
    response["Content-Length"] = str(size)
    return response


def _verbale(request: HttpRequest, pk: int, kind: str, *, inline: bool) -> HttpResponse:
    """A turno's Verbale: a closed turno's from file storage (rendered at its first request),
    with a strong ETag and Last-Modified, 304 when the member's copy is current; an open
    turno's (a draft) rendered at every request and never stored. While the season's version
    is the one the stored file was checked under, one query finds it (``kept_document``)."""
    kept = kept_document(pk, kind)
    if kept is not None and default_storage.exists(kept.file):
        return _served(
            request,
            etag=f'"{kept.etag}"',
            modified=int(kept.created_at.timestamp()),
            make=lambda: _file(kept.file, kept.size, kept.content_type, kept.filename, inline),
        )
    turno = get_object_or_404(Turno.objects.select_related("season"), pk=pk)
    require_published(request, turno.season)
    doc = verbale_document(pk, kind)
    if doc.stored is None:
        return _document(doc.read(), doc.content_type, doc.filename, inline=inline)
    stored = doc.stored

    def make() -> HttpResponse:
        if doc.content is not None:
            return _document(doc.content, doc.content_type, doc.filename, inline=inline)
        return _file(stored.file.name, stored.size, doc.content_type, doc.filename, inline)

    return _served(
        request,
        etag=f'"{stored.etag}"',
        modified=int(stored.created_at.timestamp()),
        make=make,
    )


@members_view
def turno_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    return _verbale(request, pk, StoredDocument.PDF, inline=True)


@members_view
def turno_xlsx(request: HttpRequest, pk: int) -> HttpResponse:
    return _verbale(request, pk, StoredDocument.XLSX, inline=False)


@members_view
def classifica_pdf_view(request: HttpRequest, season_pk: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_pk)
    require_published(request, season)
    content = classifica_document(season, StoredDocument.PDF)  # in its own game's columns
    return _document(content, PDF, f"{classifica_basename(season.name)}.pdf", inline=True)


@members_view
def classifica_xlsx_view(request: HttpRequest, season_pk: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_pk)
    require_published(request, season)
    content = classifica_document(season, StoredDocument.XLSX)  # in its own game's columns
    return _document(content, XLSX, f"{classifica_basename(season.name)}.xlsx", inline=False)


@members_view
def classifica_csv_view(request: HttpRequest, season_pk: int) -> HttpResponse:
    """The Classifica Generale as CSV: the page's table, every column, plain numbers."""
    season = get_object_or_404(Season, pk=season_pk)
    require_published(request, season)
    name = f"{classifica_basename(season.name)}.csv"
    content = rows_csv(classifica_values(classifica_sheet(season)))  # in its game's columns
    return _document(content, CSV, name, inline=False)


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
    path("turni/<pk:pk>/verbale.pdf", turno_pdf, name="turno_pdf"),
    path("turni/<pk:pk>/verbale.xlsx", turno_xlsx, name="turno_xlsx"),
    path("classifica/<pk:season_pk>/classifica.pdf", classifica_pdf_view, name="classifica_pdf"),
    path("classifica/<pk:season_pk>/classifica.xlsx", classifica_xlsx_view, name="classifica_xlsx"),
    path("classifica/<pk:season_pk>/classifica.csv", classifica_csv_view, name="classifica_csv"),
    path("turni/stagione/<pk:season_pk>/turni.csv", turni_csv_view, name="turni_csv"),
]
