"""import_season reads a file turno by turno (ijson), never the whole document: the same season
as the in-memory import, whatever the order of the turni or the size of a round, every problem
named, nothing written when one is found."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from scoring.models import Absence, Season, Seat, TitleAward, Turno
from scoring.rules.problems import RuleViolation
from scoring.services import interchange, jsonread
from scoring.services.interchange import (
    read_document,
    season_export,
    season_import,
    season_import_file,
)
from scoring.services.ledger import ledger_differences

ROOT = Path(__file__).resolve().parents[2]
TURNI = 5  # the turni this seeded season closes
FIVE = ["Anna Bertini", "Bruno Cecchi", "Carla Dini", "Dario Fanucchi", "Elena Giusti"]


@pytest.fixture
def season(make_season):
    return make_season(name="Originale", players=FIVE, giornate=6, seed=21, table_sizes=(4,))


def stored(season: Season) -> dict[str, list]:
    """Everything the import writes that the scores decide, in an order that ignores ids."""
    seats = Seat.objects.filter(turno__season=season).order_by(
        "turno__giornata__date", "turno__number", "position"
    )
    return {
        "turni": list(
            Turno.objects.filter(season=season)
            .order_by("giornata__date", "number")
            .values_list("giornata__date", "number", "verbale_number", "winner__name", "status")
        ),
        "seats": list(
            seats.values_list(
                "player__name",
                "total",
                "penalty_total",
                "place",
                "ratio",
                "series_before",
                "series_after",
                "titles",
                "league_points",
            )
        ),
        "absences": list(
            Absence.objects.filter(season=season)
            .order_by("giornata__date", "player__name")
            .values_list("giornata__date", "player__name", "league_points")
        ),
        "titles": sorted(
            TitleAward.objects.filter(season=season).values_list("player__name", "code", "value")
        ),
    }


def write(path: Path, doc: dict) -> Path:
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def copy_of(season: Season, name: str = "Copia") -> dict:
    return {**season_export(season=season), "season": name}


def test_a_file_imports_the_same_season_as_the_document_in_memory(season, tmp_path, monkeypatch):
    def whole(*args, **kwargs):
        raise AssertionError("the file was parsed whole")

    monkeypatch.setattr(interchange, "loads", whole)
    copy = season_import_file(write(tmp_path / "s.json", copy_of(season)))
    assert copy.name == "Copia"
    assert stored(copy) == stored(season)
    assert len(stored(copy)["turni"]) == TURNI
    assert ledger_differences(seasons=[copy]) == []


def test_the_turni_are_read_twice_one_at_a_time(season, tmp_path, monkeypatch):
    opened, read = [], []
    original = jsonread.DocumentFile.turni

    def counted(self):
        opened.append(1)
        for turno in original(self):
            read.append(turno["date"])
            yield turno

    monkeypatch.setattr(jsonread.DocumentFile, "turni", counted)
    season_import_file(write(tmp_path / "s.json", copy_of(season)))
    assert len(opened) == 2
    assert len(read) == 2 * TURNI


def test_the_order_of_the_file_and_the_size_of_a_round_change_nothing(
    season, tmp_path, monkeypatch
):
    doc = copy_of(season, "Rovesciata")
    doc["turni"] = doc["turni"][::-1]
    monkeypatch.setattr(interchange, "IMPORT_CHUNK", 2)  # 5 turni in rounds of 2, 2 and 1
    copy = season_import_file(write(tmp_path / "r.json", doc))
    assert stored(copy) == stored(season)
    numbers = [t[2] for t in stored(copy)["turni"]]
    assert numbers == list(range(1, TURNI + 1))  # Verbali numbered by date, not by the file's order


def test_the_command_reads_the_file_turno_by_turno(season, tmp_path, monkeypatch):
    monkeypatch.setattr(interchange, "loads", None)  # a whole parse would fail
    out = io.StringIO()
    call_command("import_season", str(write(tmp_path / "s.json", copy_of(season))), stdout=out)
    assert out.getvalue().strip() == f"stagione Copia importata: {TURNI} turni"
    out = io.StringIO()
    path = write(tmp_path / "e.json", copy_of(season, "English"))
    call_command("import_season", str(path), language="en", stdout=out)
    assert out.getvalue().strip() == f"imported season English: {TURNI} turni"


def test_a_problem_in_the_last_turno_writes_nothing(season, tmp_path):
    doc = copy_of(season)
    last = doc["turni"][-1]
    last["smazzate"][0]["result"][last["players"][0]] += 1
    before = Season.objects.count(), Turno.objects.count()
    with pytest.raises(RuleViolation) as exc:
        season_import_file(write(tmp_path / "bad.json", doc))
    assert [p.turno for p in exc.value.problems] == [f"{last['date']} #{last['number']}"]
    assert (Season.objects.count(), Turno.objects.count()) == before
    err = io.StringIO()
    with pytest.raises(CommandError, match=r"^nulla importato: 1 problema$"):
        call_command("import_season", str(tmp_path / "bad.json"), stderr=err)
    assert f"{last['date']} #{last['number']}" in err.getvalue()
    # in English (--language en): the frame's words and the engine's, the data's names kept
    err = io.StringIO()
    with pytest.raises(CommandError, match=r"^nothing imported: 1 problem$"):
        call_command("import_season", str(tmp_path / "bad.json"), language="en", stderr=err)
    (line,) = err.getvalue().splitlines()
    assert line.startswith(f"turno {last['date']} #{last['number']}, smazzata 1: [COUNT_SUM] ")
    assert "the results add up to" in line and "la somma" not in line


@pytest.mark.parametrize(
    ("raw", "code", "message"),
    [
        (b'{"format": "kingclub/v1", "turni": []}\xff', "JSON_ENCODING", "(byte 38)"),
        (b"[1, 2]", "FORMAT", "il documento deve essere un oggetto JSON"),
        (b'{"format": "kingclub/v1", "turni": [', "JSON_SYNTAX", "JSON non valido: Expecting"),
        (b'{"format": "kingclub/v1", "turni": []} x', "JSON_SYNTAX", "JSON non valido: Extra data"),
        (
            b'{"format": "kingclub/v1", "turni": [{"date": "2026-10-01", "number": 1'
            + b"0" * 30
            + b"}]}",
            "FORMAT",
            "number: deve essere un intero da 1 a 32767",
        ),
        (
            b'{"format": "kingclub/v1", "turni": [{"a": [[[[[[[[[[1]]]]]]]]]]}]}',
            "JSON_DEPTH",
            "JSON annidato troppo in profondità",
        ),
        (b'{"format": "kingclub/v1", "turni": {}}', "FORMAT", "turni: deve essere una lista"),
        (b'{"format": "kingclub/v2", "turni": []}', "FORMAT", "formato 'kingclub/v2'"),
        (b'{"format": "kingclub/v1", "ruleset": "boh"}', "RULESET", "regolamento sconosciuto"),
    ],
)
def test_an_unreadable_file_is_named_and_writes_nothing(db, tmp_path, raw, code, message):
    path = tmp_path / "x.json"
    path.write_bytes(raw)
    with pytest.raises(RuleViolation) as exc:
        season_import_file(path)
    assert exc.value.problems[0].code == code
    assert message in exc.value.problems[0].message
    assert not Season.objects.exists()


@pytest.mark.parametrize(("lists", "code"), [(8, "FORMAT"), (9, "JSON_DEPTH")])
def test_the_depth_limit_is_the_one_of_the_whole_document(db, tmp_path, lists, code):
    """A turno nested 12 levels deep is read (and refused for its content), 13 are too deep:
    the limit :func:`read_document` applies to the whole document."""
    raw = '{"format": "kingclub/v1", "turni": [{"x": ' + "[" * lists + "1" + "]" * lists + "}]}"
    path = tmp_path / "d.json"
    path.write_text(raw)
    with pytest.raises(RuleViolation) as exc:
        season_import_file(path)
    assert exc.value.problems[0].code == code
    with pytest.raises(RuleViolation) as whole:
        season_import(data=read_document(raw.encode()))
    assert whole.value.problems[0].code == code


def test_the_size_limit_of_a_file(season, tmp_path):
    path = write(tmp_path / "s.json", copy_of(season))
    size = path.stat().st_size
    with pytest.raises(RuleViolation) as exc:
        season_import_file(path, limit=size - 1)
    assert exc.value.problems[0].message == (
        f"il documento è di {size} byte, oltre il limite di {size - 1}"
    )
    assert season_import_file(path, limit=size).name == "Copia"


def test_a_generic_game_file_is_read_whole_and_imported(db, tmp_path):
    path = ROOT / "fixtures" / "skat-sample.json"
    data = json.loads(path.read_text())
    from_file = season_import_file(path)
    in_memory = season_import(data={**data, "season": "Skat in memoria"})
    assert Turno.objects.filter(season=from_file).count() == len(data["turni"]) > 0
    assert season_export(season=from_file)["turni"] == season_export(season=in_memory)["turni"]
