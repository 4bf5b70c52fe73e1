"""A turno started, or deleted, on a giornata that already has a closed turno (through
``scoring.api``): a turno in corso excuses its players from the giornata's absences, so its
start and its delete recompute the season from that giornata, as a close does; the stored
Classifica equals the engine's replay (``check_ledger``) after each step."""

from __future__ import annotations

import datetime as dt
import json
import random
from decimal import Decimal
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import api
from scoring.models import Absence, Giornata, Season, Standing, Turno
from scoring.rules.caf import caf
from scoring.rules.caf.interchange import turno_to_input
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.ledger import ledger_differences

pytestmark = pytest.mark.django_db
TABLE = ["Anna", "Bruno", "Carla", "Dario"]
LATE = ["Elena", "Fabio", "Gino"]
DAY = dt.date(2026, 10, 2)
RAMINO = Path(__file__).resolve().parents[2] / "fixtures" / "ramino-sample.json"


def _closed_giornata() -> Season:
    """A C.A.F. season of seven members; a four-player turno closed on :data:`DAY` (seed 7),
    so Elena, Fabio and Gino are absent from it."""
    season = api.season_create(name="2026-27", ruleset="caf", current=False)
    for player in TABLE + LATE:
        api.member_enroll(season=season, player=player)
    record = simulate_turno(caf(), TABLE, random.Random(7), first_dealer="Anna")
    turno = api.turno_start(season=season, date=DAY, players=TABLE, first_dealer="Anna")
    for deal in turno_to_input(record)["smazzate"]:
        api.smazzata_record(turno=turno, record=deal)
    api.turno_close(turno=turno, tiebreak=record.tiebreak)
    return season


def _absences(season: Season) -> dict[str, Decimal]:
    rows = Absence.objects.filter(season=season).select_related("player")
    return {a.player.name: a.league_points for a in rows}


def _standing(season: Season) -> dict[str, tuple[int, Decimal, int, int]]:
    rows = Standing.objects.filter(season=season).select_related("player")
    return {s.player.name: (s.place, s.score, s.turni, s.absences) for s in rows}


def _classifica(season: Season) -> dict[str, tuple[str, int, int]]:
    return {
        r["player"]: (r["league_points"], r["turni"], r["absences"])
        for r in api.season_standing(season=season)
    }


def _start_late(season: Season) -> Turno:
    return api.turno_start(season=season, date=DAY, players=LATE, first_dealer="Elena")


# the table closed on DAY, with Elena, Fabio and Gino absent: the giornata's lowest score each
ABSENT = {name: Decimal("-0.14") for name in LATE}
CLOSED_ONLY = {
    "Dario": (1, Decimal("2.00"), 1, 0),
    "Anna": (2, Decimal("0.69"), 1, 0),
    "Bruno": (3, Decimal("0.45"), 1, 0),
    "Carla": (4, Decimal("-0.14"), 1, 0),
    **{name: (4, Decimal("-0.14"), 0, 1) for name in LATE},
}
# Elena, Fabio and Gino at a table in corso that day: excused, no league points yet
EXCUSED = {
    "Dario": (1, Decimal("2.00"), 1, 0),
    "Anna": (2, Decimal("0.69"), 1, 0),
    "Bruno": (3, Decimal("0.45"), 1, 0),
    **{name: (4, Decimal("0.00"), 0, 0) for name in LATE},
    "Carla": (7, Decimal("-0.14"), 1, 0),
}


def test_a_turno_started_after_a_close_on_its_giornata_excuses_its_players():
    season = _closed_giornata()
    assert _absences(season) == ABSENT
    assert _standing(season) == CLOSED_ONLY
    assert ledger_differences() == []

    _start_late(season)

    assert _absences(season) == {}
    assert _standing(season) == EXCUSED
    assert _classifica(season) == {
        "Dario": ("2.00", 1, 0),
        "Anna": ("0.69", 1, 0),
        "Bruno": ("0.45", 1, 0),
        **{name: ("0.00", 0, 0) for name in LATE},
        "Carla": ("-0.14", 1, 0),
    }
    assert ledger_differences() == []


def test_a_turno_deleted_after_a_close_on_its_giornata_leaves_its_players_absent():
    season = api.season_create(name="2026-27", ruleset="caf", current=False)
    for player in TABLE + LATE:
        api.member_enroll(season=season, player=player)
    record = simulate_turno(caf(), TABLE, random.Random(7), first_dealer="Anna")
    turno = api.turno_start(season=season, date=DAY, players=TABLE, first_dealer="Anna")
    late = _start_late(season)  # both tables in corso, then the first one closes
    for deal in turno_to_input(record)["smazzate"]:
        api.smazzata_record(turno=turno, record=deal)
    api.turno_close(turno=turno, tiebreak=record.tiebreak)
    assert _absences(season) == {}
    assert _standing(season) == EXCUSED
    assert ledger_differences() == []

    api.turno_delete(turno=late.pk)

    assert not Turno.objects.filter(pk=late.pk).exists()
    assert Giornata.objects.filter(season=season, date=DAY).count() == 1  # the closed table's
    assert _absences(season) == ABSENT
    assert _standing(season) == CLOSED_ONLY
    assert _classifica(season) == {
        "Dario": ("2.00", 1, 0),
        "Anna": ("0.69", 1, 0),
        "Bruno": ("0.45", 1, 0),
        "Carla": ("-0.14", 1, 0),
        **{name: ("-0.14", 0, 1) for name in LATE},
    }
    assert ledger_differences() == []


def test_a_turno_started_and_deleted_after_a_close_round_trips():
    season = _closed_giornata()
    late = _start_late(season)
    api.turno_delete(turno=late)
    assert _absences(season) == ABSENT
    assert _standing(season) == CLOSED_ONLY
    assert ledger_differences() == []


def _standing_queries(call) -> list[str]:
    with CaptureQueriesContext(connection) as seen:
        call()
    return [q["sql"] for q in seen.captured_queries if "scoring_standing" in q["sql"]]


def test_the_first_turno_of_a_new_date_replays_nothing():
    season = _closed_giornata()
    later = dt.date(2026, 10, 9)
    assert (
        _standing_queries(
            lambda: api.turno_start(season=season, date=later, players=LATE, first_dealer="Elena")
        )
        == []
    )
    assert _standing(season) == CLOSED_ONLY


def test_the_season_fold_reads_no_table_in_corso():
    """The other ledger ("records", Ramino 101): its standing folds the closed seats only, so a
    table started or deleted beside a closed one leaves it as it is, and reads nothing of it."""
    season = api.season_create(name="Ramino", ruleset="ramino-101", current=False)
    for player in TABLE + LATE:
        api.member_enroll(season=season, player=player)
    turno = api.turno_start(season=season, date=DAY, players=TABLE, first_dealer="Anna")
    for deal in json.loads(RAMINO.read_text())["turni"][0]["smazzate"]:
        api.smazzata_record(turno=turno, record=deal)
    api.turno_close(turno=turno)
    before = api.season_standing(season=season)
    assert [(r["player"], r["place"], r["league_points"]) for r in before] == [
        ("Carla", 1, 3),
        ("Dario", 2, 2),
        ("Anna", 3, 1),
        *[(name, 4, 0) for name in ["Bruno", *LATE]],
    ]
    late: list[Turno] = []
    assert _standing_queries(lambda: late.append(_start_late(season))) == []
    assert api.season_standing(season=season) == before
    assert ledger_differences() == []
    assert _standing_queries(lambda: api.turno_delete(turno=late[0])) == []
    assert api.season_standing(season=season) == before
    assert ledger_differences() == []


SKAT = Path(__file__).resolve().parents[2] / "fixtures" / "skat-sample.json"


def test_a_skat_season_reads_no_table_in_corso():
    """Skat declares no ``open_tables_excuse``: a table started or deleted beside a closed one
    on the same date leaves its Classifica as it is, and reads nothing of it (C.A.F.'s absences
    change in :func:`test_a_turno_started_after_a_close_on_its_giornata_excuses_its_players`)."""
    season = api.season_create(name="Skat", ruleset="skat-isko", current=False)
    for player in TABLE + LATE:
        api.member_enroll(season=season, player=player)
    first = json.loads(SKAT.read_text())["turni"][0]
    turno = api.turno_start(season=season, date=DAY, players=TABLE[:3], first_dealer="Anna")
    for deal in first["smazzate"]:
        api.smazzata_record(turno=turno, record=deal)
    api.turno_close(turno=turno)
    before = api.season_standing(season=season)
    assert [tuple(r.values()) for r in before] == [
        (1, "Bruno", 527, 1, 8, 3),
        (2, "Carla", 527, 1, 7, 2),  # the same list points, fewer games won
        (3, "Anna", 274, 1, 2, 1),
        *[(4, name, 0, 0, 0, 0) for name in ["Dario", *LATE]],
    ]
    assert list(before[0]) == ["place", "player", "list_points", "turni", "won", "lost"]
    late: list[Turno] = []
    assert _standing_queries(lambda: late.append(_start_late(season))) == []
    assert api.season_standing(season=season) == before
    assert ledger_differences() == []
    assert _standing_queries(lambda: api.turno_delete(turno=late[0])) == []
    assert api.season_standing(season=season) == before
    assert ledger_differences() == []


def test_caf_tied_rows_keep_more_scudetti_then_the_name_after_a_rename():
    """C.A.F.'s equal places are shown by more Scudetti, then name (SPEC §8.4): a member
    renamed after the refresh wrote the rows takes his new name's turn, as before the one
    standing of every game (the five others keep the order their system ranked them in)."""
    from scoring.models import Player

    season = _closed_giornata()
    _start_late(season)
    Player.objects.filter(name="Elena").update(name="Zita")
    assert [(r["place"], r["player"]) for r in api.season_standing(season=season)] == [
        (1, "Dario"),
        (2, "Anna"),
        (3, "Bruno"),
        (4, "Fabio"),
        (4, "Gino"),
        (4, "Zita"),
        (7, "Carla"),
    ]
