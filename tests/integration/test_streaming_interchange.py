"""Streaming interchange: export_season and backup written batch by batch, compact by default or
indented on request, the same documents as before; import_season takes a file of any size from
the command line while the web keeps its limit."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from scoring.models import Season, StoredDocument, Turno
from scoring.rules.problems import RuleViolation
from scoring.services import recording
from scoring.services.backup import backup_document
from scoring.services.interchange import read_document, season_export, season_import
from scoring.services.jsonstream import Stream, write_json

ROOT = Path(__file__).resolve().parents[2]
FOUR = ["Anna Bertini", "Bruno Cecchi", "Carla Dini", "Dario Fanucchi", "Elena Giusti"]


@pytest.fixture
def season(make_season):
    return make_season(name="2026-27", players=FOUR, giornate=6, seed=11, table_sizes=(4,))


def export(name: str, path: Path, *extra: str) -> str:
    call_command("export_season", name, str(path), *extra, stderr=io.StringIO())
    return path.read_text(encoding="utf-8")


def test_export_is_compact_by_default_and_indented_on_request(season, tmp_path):
    compact = export(season.name, tmp_path / "compact.json")
    indented = export(season.name, tmp_path / "indented.json", "--indent", "2")
    doc = season_export(season=season)
    assert json.loads(compact) == json.loads(indented) == doc
    assert len(doc["turni"]) == Turno.objects.filter(season=season, status="chiuso").count() > 2
    assert compact == json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert indented == json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    assert compact.count("\n") == 1


def test_export_to_stdout_is_the_same_document(season, tmp_path):
    out = io.StringIO()
    call_command("export_season", season.name, "--indent", "4", stdout=out)
    assert json.loads(out.getvalue()) == season_export(season=season)
    assert out.getvalue().startswith('{\n    "format": "kingclub/v1",')


def test_the_export_reads_the_season_in_batches_in_date_order(season, monkeypatch):
    whole = season_export(season=season)
    monkeypatch.setattr(recording, "EXPORT_BATCH", 2)  # the export of every ledger
    assert season_export(season=season) == whole
    dates = [(t["date"], t["number"]) for t in whole["turni"]]
    assert dates == sorted(dates)


def test_a_generic_season_streams_too(db, tmp_path):
    data = json.loads((ROOT / "fixtures" / "skat-sample.json").read_text())
    season = season_import(data=data)
    compact = export(season.name, tmp_path / "skat.json")
    indented = export(season.name, tmp_path / "skat-2.json", "--indent", "2")
    assert json.loads(compact) == json.loads(indented) == season_export(season=season)
    assert len(json.loads(compact)["turni"]) == len(data["turni"])


def test_backup_compact_and_indented_hold_the_same_document(season, client, tmp_path):
    turno = Turno.objects.filter(season=season, status="chiuso").first()
    assert client.get(f"/turni/{turno.pk}/verbale.xlsx").status_code == 200
    assert StoredDocument.objects.count() == 1  # a stored document is not part of a backup
    out = io.StringIO()
    call_command("backup", str(tmp_path / "a.json"), stdout=out)
    call_command("backup", str(tmp_path / "b.json"), "--indent", "1", stdout=io.StringIO())
    compact = (tmp_path / "a.json").read_text(encoding="utf-8")
    indented = (tmp_path / "b.json").read_text(encoding="utf-8")
    doc = backup_document()
    assert json.loads(compact) == json.loads(indented) == doc
    assert "scoring.storeddocument" not in doc["tables"]
    assert compact == json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    assert indented == json.dumps(doc, ensure_ascii=False, indent=1)
    turni = Turno.objects.count()
    assert turni > 1 and out.getvalue().strip().endswith(f"1 stagione, {turni} turni")


def test_a_file_above_the_web_limit_imports_through_the_command(season, settings, tmp_path):
    doc = season_export(season=season)
    doc["season"] = "2026-27 copia"
    path = tmp_path / "grande.json"
    with path.open("w", encoding="utf-8") as fh:
        write_json(fh.write, {**doc, "turni": Stream(iter(doc["turni"]))})
    size = path.stat().st_size
    settings.KINGCLUB_MAX_IMPORT_BYTES = size - 1  # the web's limit, below the file

    with pytest.raises(RuleViolation) as refused:  # an upload through the web: refused
        read_document(path.read_bytes())
    assert refused.value.problems[0].code == "JSON_TOO_LARGE"

    with pytest.raises(CommandError, match="nulla importato"):
        call_command("import_season", str(path), "--max-size", "1K", stderr=io.StringIO())
    assert not Season.objects.filter(name="2026-27 copia").exists()

    out = io.StringIO()
    call_command("import_season", str(path), stdout=out)
    copy = Season.objects.get(name="2026-27 copia")
    assert out.getvalue().strip() == f"stagione 2026-27 copia importata: {len(doc['turni'])} turni"
    again = season_export(season=copy)
    assert again["turni"] == doc["turni"]
