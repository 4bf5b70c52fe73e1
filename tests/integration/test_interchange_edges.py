"""The import and the older backups at their edges: the size limit, texts longer than their
columns, a season without a name, which season becomes current, the spareggio ranks stored,
an older backup's members, tables and open turni, and the open turni left out of an export."""

from __future__ import annotations

import copy
import datetime as dt

import pytest

from scoring.demo import simulated_season
from scoring.models import Player, Season, Seat, Smazzata, Turno
from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.interchange import input_document
from scoring.rules.caf.records import Penalty
from scoring.rules.caf.simulator import simulate_turno
from scoring.rules.problems import RuleViolation
from scoring.services.backup import legacy_backup_restore
from scoring.services.interchange import (
    read_document,
    season_export,
    season_export_stream,
    season_import,
)
from scoring.services.jsonstream import materialize
from scoring.services.turni import turno_start
from tests.helpers import deal_record

pytestmark = pytest.mark.django_db
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


def _codes(exc) -> list[str]:
    return [p.code for p in exc.value.problems]


def test_the_size_limit_is_the_settings_unless_given(settings):
    settings.KINGCLUB_MAX_IMPORT_BYTES = 10
    assert read_document(b'{"a": 123}') == {"a": 123}  # 10 bytes
    with pytest.raises(RuleViolation) as exc:
        read_document(b'{"a": 1234}')
    assert [p.message for p in exc.value.problems] == [
        "il documento è di 11 byte, oltre il limite di 10"
    ]
    assert read_document(b'{"a": 1234}', limit=None) == {"a": 1234}
    with pytest.raises(RuleViolation):
        read_document(b'{"a": 1}', limit=7)


def _season(name: str = "S", seed: int = 5) -> dict:
    return simulated_season(name=name, players=PLAYERS, giornate=1, seed=seed, attendance=1.0)


def test_a_text_longer_than_its_column_is_named_before_anything_is_written():
    doc = _season(name="S" * 41)
    with pytest.raises(RuleViolation) as exc:
        season_import(data=doc)
    assert [(p.code, p.message) for p in exc.value.problems] == [
        ("TEXT_TOO_LONG", "season: al massimo 40 caratteri (sono 41)")
    ]
    assert _codes(exc) == ["TEXT_TOO_LONG"]
    assert Season.objects.count() == 0


def test_a_season_without_a_name_is_the_imported_season_and_the_first_becomes_current():
    first = _season(name="")
    assert season_import(data=first).name == "stagione importata"
    second = season_import(data=_season(name="Seconda", seed=6))
    assert list(Season.objects.order_by("pk").values_list("name", "is_current")) == [
        ("stagione importata", True),
        ("Seconda", False),
    ]
    assert season_import(data=_season(name="Terza", seed=7), current=True).is_current
    second.refresh_from_db()
    assert not second.is_current


def test_the_spareggio_of_an_imported_turno_is_stored_ranked_from_one():
    import random

    for seed in range(100):  # a turno with four different totals, then two of them made equal
        record = simulate_turno(caf(), PLAYERS, random.Random(seed), first_dealer="Anna")
        totals = score_turno(caf(), record, require_complete=True).totals
        if len(set(totals.values())) == len(PLAYERS):
            break
    low, high = sorted(PLAYERS, key=lambda p: totals[p])[:2]
    gap = totals[high] - totals[low]
    penalties = (Penalty(player=high, points=-gap, article="1"),) if gap else ()
    tied = record.__class__(
        players=record.players,
        first_dealer=record.first_dealer,
        smazzate=record.smazzate,
        penalties=penalties,
        tiebreak=(low, high),
        date=dt.date(2026, 11, 20),
        number=1,
    )
    season_import(data=input_document("S", PLAYERS, [tied]))
    ranks = dict(Seat.objects.values_list("player__name", "tiebreak_rank"))
    assert ranks == {p: {low: 1, high: 2}.get(p) for p in PLAYERS}


def _legacy(tables: dict | None = None, **extra) -> dict:
    doc = copy.deepcopy(_season())
    doc.update(current=True, open_turni=[], tables=tables)
    legacy = {"format": "kingclub/v1-backup", "seasons": [doc]}
    legacy.update(extra)
    return legacy


def test_an_older_backups_members_are_active_unless_it_says_not():
    data = _legacy(members=[{"name": "Anna"}, {"name": "Zeno", "active": False}])
    legacy_backup_restore(data=data)
    assert dict(Player.objects.values_list("name", "active")) == {
        "Anna": True,
        "Zeno": False,
        "Bruno": True,
        "Carla": True,
        "Dario": True,
    }


def test_an_older_backup_is_refused_over_a_club_unless_forced():
    legacy_backup_restore(data=_legacy())
    with pytest.raises(RuleViolation) as exc:
        legacy_backup_restore(data=_legacy())
    assert _codes(exc) == ["DATABASE_NOT_EMPTY"]
    assert len(legacy_backup_restore(data=_legacy(), force=True)) == 1
    assert Season.objects.count() == 1


@pytest.mark.parametrize(
    "members", [[{"name": "Anna", "active": "sì"}], [{"name": "Anna"}, {"name": "Anna"}], "Anna"]
)
def test_an_older_backups_bad_members_are_named(members):
    with pytest.raises(RuleViolation) as exc:
        legacy_backup_restore(data=_legacy(members=members))
    assert _codes(exc) == ["FORMAT"]
    assert Season.objects.count() == 0


def test_an_older_backup_without_seasons_as_a_list_is_refused():
    with pytest.raises(RuleViolation) as exc:
        legacy_backup_restore(data={"format": "kingclub/v1-backup", "seasons": {"a": 1}})
    assert [p.message for p in exc.value.problems] == ["seasons: deve essere una lista di stagioni"]


def test_an_older_backups_tables_are_put_back_and_may_be_blank():
    date = _season()["turni"][0]["date"]
    legacy_backup_restore(data=_legacy(tables={f"{date}#1": "Tavolo verde"}))
    assert Turno.objects.get().table == "Tavolo verde"
    legacy_backup_restore(data=_legacy(tables={f"{date}#1": ""}), force=True)
    assert Turno.objects.get().table == ""


def _open_copy(turno: dict, date: str, smazzate: int) -> dict:
    """A closed turno of the document replayed on another day, left open after ``smazzate``."""
    return {**copy.deepcopy(turno), "date": date, "smazzate": turno["smazzate"][:smazzate]}


def test_an_older_backups_open_turni_are_recorded_from_smazzata_one():
    data = _legacy()
    doc = data["seasons"][0]
    doc["open_turni"] = [_open_copy(doc["turni"][0], "2026-09-11", 3)]
    legacy_backup_restore(data=data)
    turno = Turno.objects.get(status=Turno.IN_CORSO)
    assert str(turno.giornata.date) == "2026-09-11"
    stored = [
        (sm.number, sm.game, sm.caller.name)
        for sm in Smazzata.objects.filter(turno=turno).order_by("number")
    ]
    wanted = doc["open_turni"][0]["smazzate"]
    assert stored == [(k, sm["game"], sm["caller"]) for k, sm in enumerate(wanted, start=1)]


def test_the_export_leaves_the_open_turni_out_unless_asked():
    doc = _season()
    season = season_import(data=doc)
    played = _open_copy(doc["turni"][0], "2026-09-11", 2)
    turno = turno_start(
        season=season,
        date=dt.date(2026, 9, 11),
        players=played["players"],
        first_dealer=played["first_dealer"],
    )
    for sm in played["smazzate"]:
        deal_record(turno=turno, game=sm["game"], caller=sm["caller"], counts=sm["result"])
    assert season_export(season=season)["turni"] == doc["turni"]
    assert materialize(season_export_stream(season=season))["turni"] == doc["turni"]
    both = season_export(season=season, include_open=True)["turni"]
    assert [(t["date"], len(t["smazzate"])) for t in both] == [
        (doc["turni"][0]["date"], len(doc["turni"][0]["smazzate"])),
        ("2026-09-11", 2),
    ]
    assert both[1]["smazzate"] == played["smazzate"]
