"""Stored documents: a closed turno's Verbale (PDF and XLSX) rendered once, then served from
file storage until what it shows changes.

A document is keyed by the turno, its format, the language and a **version**: the SHA-256 of
everything the renderer reads (the Verbale's row source from :mod:`scoring.verbale` or
:func:`scoring.selectors_games.verbale_rows`, the series labels, the Classifica as of the turno's
giornata for the workbook) and of the renderer itself (its code, templates, stylesheet and
translations). A reopen, a correction, a recompute or a renamed player changes the version, so
the next request renders again; an open turno (a draft) is never stored.

The row source is cheap next to a render (a fixed number of queries against 0.6 s of layout).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, connection, transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime

from scoring.exports import games, verbale_basename
from scoring.exports.pdf import classifica_pdf, verbale_pdf
from scoring.exports.xlsx import classifica_xlsx, verbale_xlsx
from scoring.models import Season, StoredDocument, Turno
from scoring.selectors import turno_with_everything
from scoring.selectors_games import game_turni, verbale_rows
from scoring.verbale import (
    classifica,
    classifica_as_of,
    classifica_sheet,
    last_closed_date,
    verbale,
)

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CONTENT_TYPES = {StoredDocument.PDF: PDF, StoredDocument.XLSX: XLSX}
KINDS = (StoredDocument.PDF, StoredDocument.XLSX)

# What the renderer is made of: a change to any of these files renders every document again.
RENDERER_SOURCES = (
    "scoring/exports/*.py",
    "scoring/formatting.py",
    "scoring/verbale.py",
    "scoring/selectors_confirmations.py",
    "scoring/selectors_games.py",
    "templates/scoring/documents/*.html",
    "static/css/print.css",
    "locale/*/LC_MESSAGES/django.mo",
)
_renderer_fingerprint: str | None = None


def renderer_fingerprint() -> str:
    """SHA-256 of the renderer's sources, the libraries' versions and the settings it reads
    (computed once per process)."""
    global _renderer_fingerprint
    if _renderer_fingerprint is None:
        import weasyprint
        import xlsxwriter

        digest = hashlib.sha256()
        base = Path(settings.BASE_DIR)
        for pattern in RENDERER_SOURCES:
            for path in sorted(base.glob(pattern)):
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
        for value in (weasyprint.__version__, xlsxwriter.__version__, settings.TIME_ZONE):
            digest.update(str(value).encode())
        _renderer_fingerprint = digest.hexdigest()
    return _renderer_fingerprint


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return str(value)  # Decimal, dates, lazy translations (the language is in the key)


def fingerprint(*parts: Any) -> str:
    text = json.dumps(parts, default=_plain, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclasses.dataclass(frozen=True)
class Source:
    """A turno's Verbale as the renderer reads it, and how to render it in each format."""

    turno_id: int
    closed: bool
    basename: str
    season_version: int  # read before the rows: a later write makes the fast path miss
    parts: dict[str, Callable[[], tuple[Any, ...]]]  # kind -> everything that kind shows
    renderers: dict[str, Callable[[], bytes]]

    def version(self, kind: str) -> str:
        return fingerprint(kind, language(), renderer_fingerprint(), *self.parts[kind]())


def language() -> str:
    return translation.get_language() or settings.LANGUAGE_CODE


def verbale_source(turno_id: int) -> Source:
    """The row source of a turno's Verbale (404 when there is no such turno), read from what the
    season's ledger keeps (its system's declared ``ledger``: :data:`VERBALE_SOURCES`)."""
    head = get_object_or_404(Turno.objects.select_related("season"), pk=turno_id)
    return VERBALE_SOURCES[head.season.system.ledger](turno_id, head.season)


def _records_source(turno_id: int, season: Season) -> Source:
    """A Verbale from the deals' records (every game but C.A.F.)."""
    gv = verbale_rows(game_turni(Turno.objects.filter(pk=turno_id)).get())
    return Source(
        turno_id=turno_id,
        closed=gv.closed,
        basename=games.basename(gv),
        season_version=season.version,
        parts={StoredDocument.PDF: lambda: (gv,), StoredDocument.XLSX: lambda: (gv,)},
        renderers={
            StoredDocument.PDF: lambda: games.verbale_pdf(gv),
            StoredDocument.XLSX: lambda: games.verbale_xlsx(gv),
        },
    )


def _counts_source(turno_id: int, season: Season) -> Source:
    """A Verbale from the counts and the giornate (C.A.F.)."""
    turno = turno_with_everything(Turno.objects.filter(pk=turno_id)).get()
    v = verbale(turno, confirmations=True)
    as_of: list[Any] = []

    def classifica_rows() -> list[Any]:
        if not as_of:
            as_of.append(classifica_as_of(season, v.date))
        return as_of[0]

    return Source(
        turno_id=turno_id,
        closed=v.closed,
        basename=verbale_basename(v),
        season_version=season.version,
        parts={
            # the players' confirmations are printed on both (issue 17): a new one is a new
            # version (``v.confirmations``)
            StoredDocument.PDF: lambda: (v,),
            # the workbook's second sheet: the Classifica after the turno's giornata
            StoredDocument.XLSX: lambda: (v, classifica_rows()),
        },
        renderers={
            # the series' names are the read model's (``v.series_labels``)
            StoredDocument.PDF: lambda: verbale_pdf(v),
            StoredDocument.XLSX: lambda: verbale_xlsx(v, classifica_rows()),
        },
    )


#: the Verbale's source by what the season's ledger keeps (``BaseSystem.ledger``)
VERBALE_SOURCES: dict[str, Callable[[int, Season], Source]] = {
    "records": _records_source,
    "counts": _counts_source,
}


@dataclasses.dataclass(frozen=True)
class Document:
    """A Verbale ready to serve: ``stored`` when kept (closed turno), ``content`` when rendered
    by this call (both when it was rendered now and stored)."""

    filename: str
    content_type: str
    stored: StoredDocument | None
    content: bytes | None

    def read(self) -> bytes:
        if self.content is not None:
            return self.content
        assert self.stored is not None
        with self.stored.file.open("rb") as fh:
            return fh.read()


def _delete_files(names: Iterable[str]) -> None:
    names = [n for n in names if n]
    if names:
        transaction.on_commit(lambda: [default_storage.delete(n) for n in names])


def forget_documents(turno_id: int) -> int:
    """Drop a turno's stored documents (rows and files); the next request renders again."""
    stale = list(StoredDocument.objects.filter(turno_id=turno_id).values_list("pk", "file"))
    StoredDocument.objects.filter(pk__in=[pk for pk, _name in stale]).delete()
    _delete_files(name for _pk, name in stale)
    return len(stale)


def _store(source: Source, kind: str, version: str, content: bytes) -> StoredDocument | None:
    lang = language()
    name = f"{kind}-{lang}-{version[:16]}.{kind}"
    try:
        with transaction.atomic():
            old = list(
                StoredDocument.objects.select_for_update()
                .filter(turno_id=source.turno_id, kind=kind, language=lang)
                .values_list("pk", "file")
            )
            StoredDocument.objects.filter(pk__in=[pk for pk, _name in old]).delete()
            doc = StoredDocument(
                turno_id=source.turno_id,
                kind=kind,
                language=lang,
                version=version,
                etag=hashlib.sha256(content).hexdigest(),
                size=len(content),
                created_at=timezone.now(),
                season_version=source.season_version,
                renderer=renderer_fingerprint()[:16],
                filename=f"{source.basename}.{kind}",
            )
            doc.file.save(name, ContentFile(content), save=False)
            try:
                doc.save()
            except Exception:
                default_storage.delete(doc.file.name)
                raise
            _delete_files(n for _pk, n in old if n != doc.file.name)  # never the new file
    except IntegrityError:  # another request stored it at the same moment: serve ours
        return None
    return doc


@dataclasses.dataclass(frozen=True)
class Kept:
    """A stored Verbale found current by the fast path: what the response needs."""

    file: str
    filename: str
    etag: str
    size: int
    created_at: Any
    content_type: str


def kept_document(turno_id: int, kind: str) -> Kept | None:
    """The stored Verbale of a closed turno of a published season, when it was found current
    under the season's present version by the same renderer: one query, no fingerprint (every
    write to what a Verbale shows bumps the season's version, see ``season_version_bump``).
    None sends the caller to :func:`verbale_document`, which checks the fingerprint.
    A plain query (it runs on every request of a stored document: the ORM's query building
    was most of its cost)."""
    q = connection.ops.quote_name
    sql = (
        f"SELECT d.{q('file')}, d.{q('filename')}, d.{q('etag')}, d.{q('size')}, "
        f"d.{q('created_at')} FROM {q(StoredDocument._meta.db_table)} d "
        f"JOIN {q(Turno._meta.db_table)} t ON t.{q('id')} = d.{q('turno_id')} "
        f"JOIN {q(Season._meta.db_table)} s ON s.{q('id')} = t.{q('season_id')} "
        f"WHERE d.{q('turno_id')} = %s AND d.{q('kind')} = %s AND d.{q('language')} = %s "
        f"AND d.{q('renderer')} = %s AND d.{q('season_version')} = s.{q('version')} "
        f"AND t.{q('status')} = %s AND s.{q('published')} = %s AND d.{q('filename')} <> ''"
    )
    params = [turno_id, kind, language(), renderer_fingerprint()[:16], Turno.CHIUSO, True]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    name, filename, etag, size, created = row
    if isinstance(created, str):  # SQLite without the column's converter
        created = parse_datetime(created)
    if timezone.is_naive(created):  # stored in UTC
        created = created.replace(tzinfo=dt.UTC)
    return Kept(name, filename, etag, size, created, content_type=CONTENT_TYPES[kind])


def verbale_document(turno_id: int, kind: str, *, source: Source | None = None) -> Document:
    """The Verbale of a turno in ``kind`` (``pdf`` or ``xlsx``): the stored file when it is
    current, else rendered now (and stored when the turno is closed)."""
    source = source or verbale_source(turno_id)
    filename = f"{source.basename}.{kind}"
    content_type = CONTENT_TYPES[kind]
    if not source.closed:
        if StoredDocument.objects.filter(turno_id=turno_id).exists():
            forget_documents(turno_id)  # reopened: what was stored is no longer the Verbale
        return Document(filename, content_type, None, source.renderers[kind]())
    version = source.version(kind)
    stored = StoredDocument.objects.filter(
        turno_id=turno_id, kind=kind, language=language()
    ).first()
    current = stored is not None and stored.version == version
    if current and default_storage.exists(stored.file.name):
        seen = (source.season_version, renderer_fingerprint()[:16], filename)
        if (stored.season_version, stored.renderer, stored.filename) != seen:
            # still current under the season's new version: the fast path serves it again
            stored.season_version, stored.renderer, stored.filename = seen
            StoredDocument.objects.filter(pk=stored.pk, version=version).update(
                season_version=seen[0], renderer=seen[1], filename=seen[2]
            )
        return Document(filename, content_type, stored, None)
    content = source.renderers[kind]()
    return Document(filename, content_type, _store(source, kind, version, content), content)


def classifica_document(season: Season, kind: str) -> bytes:
    """A season's Classifica Generale in ``kind`` (``pdf`` or ``xlsx``), in its own game's
    columns (the command ``export_verbali``)."""
    last = last_closed_date(season)
    if season.system.series_ladder:  # the ladder's layout: series, titles and their legend
        render = {"pdf": classifica_pdf, "xlsx": classifica_xlsx}[kind]
        return render(season.name, classifica(season), last)
    render = {"pdf": games.standing_pdf, "xlsx": games.standing_xlsx}[kind]
    return render(classifica_sheet(season), last)
