"""Stored Verbali: a closed turno's PDF and XLSX rendered once, served with a strong ETag and
Last-Modified (304 when current), renewed by a reopen or a correction, never stored while open;
``export_verbali`` reuses them and renders the missing ones in a process pool."""

from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path
from unittest import mock

import pytest
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.models import StoredDocument, Turno
from scoring.services import documents
from scoring.services.interchange import season_import
from scoring.services.season import season_version_bump
from scoring.services.turni import turno_close, turno_reopen

FOUR = ["Anna Bertini", "Bruno Cecchi", "Carla Dini", "Dario Fanucchi", "Elena Giusti"]
ROOT = Path(__file__).resolve().parents[2]


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def without_generated(text: str) -> str:
    """The PDF's text without the moment it was generated (the only line that differs)."""
    return re.sub(r"generat[ao] il [^\n]*", "", text, flags=re.IGNORECASE)


def xlsx_cells(content: bytes) -> list[list]:
    wb = load_workbook(io.BytesIO(content))
    return [
        [cell for row in ws.iter_rows(values_only=True) for cell in row] for ws in wb.worksheets
    ]


@pytest.fixture
def season(make_season):
    return make_season(name="2026-27", players=FOUR, giornate=2, seed=11, table_sizes=(4,))


def first_closed(season) -> Turno:
    return Turno.objects.filter(season=season, status=Turno.CHIUSO).order_by("pk").first()


def counting(name: str):
    """Patch a renderer of :mod:`scoring.services.documents`, still rendering, counting calls."""
    return mock.patch.object(documents, name, wraps=getattr(documents, name))


def test_a_closed_verbale_is_rendered_once_and_served_from_storage(client, season):
    turno = first_closed(season)
    url = reverse("scoring:turno_pdf", args=[turno.pk])
    with counting("verbale_pdf") as renderer:
        first = client.get(url)
        second = client.get(url)
        assert renderer.call_count == 1  # the second request read the stored file
    assert first.status_code == second.status_code == 200
    body = b"".join(second.streaming_content)
    assert body == first.content
    digest = hashlib.sha256(first.content).hexdigest()
    assert first["ETag"] == second["ETag"] == f'"{digest}"'  # strong: the bytes' own hash
    assert first["Last-Modified"] == second["Last-Modified"]
    assert second["Cache-Control"] == "private, no-cache"
    assert second["Content-Length"] == str(len(body))
    assert 'inline; filename="verbale-' in second["Content-Disposition"]
    stored = StoredDocument.objects.get(turno=turno)
    assert (stored.kind, stored.language, stored.etag, stored.size) == (
        "pdf",
        "it",
        digest,
        len(body),
    )
    assert default_storage.open(stored.file.name).read() == body


def test_a_stored_file_gone_from_storage_is_rendered_and_kept_again(
    client, season, django_capture_on_commit_callbacks
):
    turno = first_closed(season)
    url = reverse("scoring:turno_pdf", args=[turno.pk])
    first = client.get(url)
    name = StoredDocument.objects.get(turno=turno).file.name
    default_storage.delete(name)  # the media folder lost the file: same version, same name
    with counting("verbale_pdf") as renderer:
        with django_capture_on_commit_callbacks(execute=True):
            second = client.get(url)
        third = client.get(url)
        assert renderer.call_count == 1
    assert second.status_code == third.status_code == 200
    stored = StoredDocument.objects.get(turno=turno)
    assert default_storage.exists(stored.file.name)  # the old row's cleanup spared it
    assert b"".join(third.streaming_content) == second.content
    assert second["ETag"] == f'"{hashlib.sha256(second.content).hexdigest()}"'
    assert first.status_code == 200


def test_conditional_get_answers_304(client, season):
    turno = first_closed(season)
    url = reverse("scoring:turno_pdf", args=[turno.pk])
    first = client.get(url)
    with counting("verbale_pdf") as renderer:
        same = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        since = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
        other = client.get(url, HTTP_IF_NONE_MATCH='"not-this-one"')
        assert renderer.call_count == 0
    assert same.status_code == 304 and same.content == b""
    assert same["ETag"] == first["ETag"]
    assert same["Cache-Control"] == "private, no-cache"
    assert since.status_code == 304
    assert other.status_code == 200
    assert b"".join(other.streaming_content) == first.content


def test_a_reopen_renews_the_document_and_an_open_turno_is_never_stored(client, season, segretario):
    turno = first_closed(season)
    url = reverse("scoring:turno_pdf", args=[turno.pk])
    before = client.get(url)
    assert StoredDocument.objects.filter(turno=turno).count() == 1

    turno_reopen(turno=turno, reason="conteggio dei fanti da rivedere", user=segretario)
    draft = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert draft.status_code == 200
    assert "ETag" not in draft
    assert "BOZZA" in pdf_text(draft.content)
    assert StoredDocument.objects.filter(turno=turno).count() == 0
    client.get(url)
    assert StoredDocument.objects.filter(turno=turno).count() == 0

    turno_close(turno=Turno.objects.get(pk=turno.pk), user=segretario)
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] not in (before["ETag"], None)
    assert after["ETag"] == f'"{hashlib.sha256(after.content).hexdigest()}"'
    assert "conteggio dei fanti da rivedere" in pdf_text(after.content)
    assert "conteggio dei fanti da rivedere" not in pdf_text(before.content)
    assert StoredDocument.objects.filter(turno=turno).count() == 1


def test_a_correction_of_what_the_verbale_shows_renders_it_again(client, season):
    turno = first_closed(season)
    url = reverse("scoring:turno_xlsx", args=[turno.pk])
    before = client.get(url)
    Turno.objects.filter(pk=turno.pk).update(table="Sala grande")  # the table's name corrected
    # every write path bumps the season's version (the fast path's key); the fingerprint then
    # tells whether this Verbale changed
    season_version_bump(season=season)
    with counting("verbale_xlsx") as renderer:
        after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
        again = client.get(url, HTTP_IF_NONE_MATCH=after["ETag"])
        assert renderer.call_count == 1
    assert after.status_code == 200 and again.status_code == 304
    assert after["ETag"] != before["ETag"]
    assert "Sala grande" in xlsx_cells(after.content)[0]
    assert "Sala grande" not in xlsx_cells(before.content)[0]
    assert StoredDocument.objects.filter(turno=turno, kind="xlsx").count() == 1


def test_each_language_has_its_own_stored_document(client, season):
    turno = first_closed(season)
    url = reverse("scoring:turno_pdf", args=[turno.pk])
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it")
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert italian["ETag"] != english["ETag"]
    assert "Verbale di Turno" in pdf_text(italian.content)
    assert sorted(StoredDocument.objects.values_list("language", flat=True)) == ["en", "it"]


def test_a_generic_game_verbale_is_stored_too(client, db):
    data = json.loads((ROOT / "fixtures" / "ramino-sample.json").read_text())
    season = season_import(data=data)
    turno = first_closed(season)
    url = reverse("scoring:turno_xlsx", args=[turno.pk])
    with mock.patch.object(
        documents.games, "verbale_xlsx", wraps=documents.games.verbale_xlsx
    ) as renderer:
        first = client.get(url)
        second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        third = client.get(url)
        assert renderer.call_count == 1
    assert (first.status_code, second.status_code, third.status_code) == (200, 304, 200)
    assert b"".join(third.streaming_content) == first.content


@pytest.mark.django_db(transaction=True)
def test_export_verbali_in_two_processes_writes_what_one_process_writes(make_season, tmp_path):
    """Rendered from nothing stored, once in this process (--jobs 1) and once by two forked
    workers (--jobs 2): the same files, the same fingerprints, the same pages; a third run
    reuses every stored document (the same bytes)."""
    season = make_season(name="2026-27", players=FOUR, giornate=3, seed=11, table_sizes=(4,))
    closed = Turno.objects.filter(season=season, status=Turno.CHIUSO).count()
    assert closed >= 2  # the pool has work for both workers

    def export(jobs: int, folder: str) -> tuple[Path, dict[tuple[int, str], str]]:
        target = tmp_path / folder
        call_command(
            "export_verbali", season.name, str(target), "--jobs", str(jobs),
            stdout=io.StringIO(), stderr=io.StringIO(),
        )  # fmt: skip
        versions = {
            (d.turno_id, d.kind): d.version for d in StoredDocument.objects.filter(language="it")
        }
        return target, versions

    one, versions_one = export(1, "uno")
    StoredDocument.objects.all().delete()
    two, versions_two = export(2, "due")
    assert len(versions_one) == 2 * closed
    assert versions_two == versions_one
    names = sorted(p.name for p in one.iterdir())
    assert names == sorted(p.name for p in two.iterdir())
    assert len(names) == 2 * closed + 2
    for name in names:
        a, b = (one / name).read_bytes(), (two / name).read_bytes()
        if name.endswith(".pdf"):
            assert without_generated(pdf_text(a)) == without_generated(pdf_text(b))
        else:
            generated = re.compile(r"generat[ao] il", re.IGNORECASE)
            cells_a, cells_b = (
                [[c for c in sheet if not (isinstance(c, str) and generated.search(c))]
                 for sheet in xlsx_cells(x)]
                for x in (a, b)
            )  # fmt: skip
            assert cells_a == cells_b

    created = dict(StoredDocument.objects.values_list("pk", "created_at"))
    three, _versions = export(2, "tre")
    assert dict(StoredDocument.objects.values_list("pk", "created_at")) == created
    for name in names:
        if name.startswith("verbale-"):
            assert (three / name).read_bytes() == (two / name).read_bytes()


@pytest.mark.parametrize("kind", ["pdf", "xlsx"])
def test_a_players_confirmation_renders_the_stored_verbale_again(client, season, kind):
    from scoring.services.confirmations import verbale_confirm

    turno = first_closed(season)
    url = reverse(f"scoring:turno_{kind}", args=[turno.pk])
    before = client.get(url)
    player = turno.seats.order_by("position").first().player
    verbale_confirm(turno=turno, player=player)
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    shown = pdf_text(after.content) if kind == "pdf" else str(xlsx_cells(after.content))
    assert f"Confermato da {player.name}" in shown
    assert StoredDocument.objects.filter(turno=turno, kind=kind).count() == 1


# -- the fast path: one query while the season keeps the version the file was checked under ----
def test_the_second_request_is_one_query_and_no_fingerprint(
    client, season, django_assert_num_queries
):
    turno = first_closed(season)
    url = reverse("scoring:turno_pdf", args=[turno.pk])
    first = client.get(url)
    stored = StoredDocument.objects.get(turno=turno)
    assert stored.season_version == season.__class__.objects.get(pk=season.pk).version
    assert stored.filename == first["Content-Disposition"].split('filename="')[1].rstrip('"')
    with counting("verbale_source") as source, django_assert_num_queries(1):
        second = client.get(url)
    assert source.call_count == 0
    assert b"".join(second.streaming_content) == first.content
    assert second["ETag"] == first["ETag"] and second["Last-Modified"] == first["Last-Modified"]
    assert second["Content-Disposition"] == first["Content-Disposition"]
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_a_new_season_version_checks_the_fingerprint_once_without_rendering(client, season):
    turno = first_closed(season)
    url = reverse("scoring:turno_xlsx", args=[turno.pk])
    first = client.get(url)
    season_version_bump(season=season)  # another turno closed: this Verbale did not change
    with counting("verbale_source") as source, counting("verbale_xlsx") as renderer:
        again = client.get(url)
        assert (source.call_count, renderer.call_count) == (1, 0)
        third = client.get(url)  # found current under the new version: the fast path again
        assert (source.call_count, renderer.call_count) == (1, 0)
    assert again["ETag"] == third["ETag"] == first["ETag"]
    stored = StoredDocument.objects.get(turno=turno)
    assert stored.season_version == season.version


def test_the_fast_path_never_serves_a_hidden_season_or_another_renderer(client, season):
    turno = first_closed(season)
    url = reverse("scoring:turno_pdf", args=[turno.pk])
    assert client.get(url).status_code == 200
    season.__class__.objects.filter(pk=season.pk).update(published=False)
    assert client.get(url).status_code == 404  # the public: "not yet published"
    season.__class__.objects.filter(pk=season.pk).update(published=True)
    StoredDocument.objects.filter(turno=turno).update(renderer="an-older-one")
    with counting("verbale_source") as source:
        assert client.get(url).status_code == 200
        assert source.call_count == 1  # checked again, not served blind
