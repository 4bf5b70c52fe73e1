"""King C.A.F.'s deals keep their record (issue 24, the switch, step 1): every way a C.A.F.
smazzata is written (recorded, corrected, imported, restored from a backup of this release or
of the one before, migrated by 0019) stores ``Smazzata.record`` as every game does, the deal's
interchange record with its players by seat; the engine's replay, the Verbale and
``check_ledger`` read it, and a record that disagrees with what is stored is a difference."""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils.html import escape

from scoring import api
from scoring.audit import turno_history
from scoring.demo import simulated_season
from scoring.models import Result, Season, Seat, Smazzata, Standing, Turno
from scoring.records import record_names, seat_names
from scoring.rules.systems import get_system
from scoring.selectors import turno_with_everything
from scoring.services.backup import backup_document, backup_restore
from scoring.services.interchange import season_import
from scoring.services.ledger import ledger_differences
from scoring.verbale import verbale

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
TABLE = ["Dario", "Anna", "Franco", "Carla"]  # seat order: Dario sits at 0, Carla at 3
BEFORE = [("scoring", "0018_giornata_totals")]
AFTER = [("scoring", "0020_caf_history_records")]


def migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def expected_record(sm: Smazzata) -> dict:
    """What the record of a stored C.A.F. smazzata must be: its game, chiamante, trump and
    each player's count (``Result.count``, still kept beside it), players by seat."""
    seat = {s.player_id: s.position for s in sm.turno.seats.all()}
    return {
        "game": sm.game,
        "caller": seat[sm.caller_id],
        **({"trump": sm.trump} if sm.trump else {}),
        "result": {str(seat[r.player_id]): r.count for r in sm.results.all()},
    }


def records() -> dict[int, dict]:
    return dict(Smazzata.objects.values_list("pk", "record"))


def history_records() -> dict[int, dict]:
    return dict(Smazzata.history.values_list("history_id", "record"))


def every_row() -> tuple:
    """Everything else a replay or a page reads, by row (the migration must not touch it)."""
    return (
        list(
            Turno.objects.order_by("pk").values_list(
                "pk", "status", "verbale_number", "closed_at", "winner_id"
            )
        ),
        list(
            Seat.objects.order_by("pk").values_list(
                "pk", "player_id", "position", "total", "place", "ratio", "league_points", "extra"
            )
        ),
        list(
            Smazzata.objects.order_by("pk").values_list(
                "pk",
                "game",
                "caller_id",
                "dealer_id",
                "trump",
                "forced",
                "scazzata",
                "cappotto_id",
                "recorded_at",
            )
        ),
        list(Result.objects.order_by("pk").values_list("pk", "player_id", "count", "points")),
        list(
            Standing.objects.order_by("pk").values_list(
                "player_id", "place", "score", "series", "turni", "absences", "scudetti"
            )
        ),
    )


def club_with_an_open_turno() -> tuple[Season, Turno, list[dict]]:
    """An imported C.A.F. season and a turno in corso after it: five deals recorded through
    the api, the second corrected (another count), as the live screen records them."""
    season = season_import(
        data=simulated_season(name="caf", players=PLAYERS, giornate=3, attendance=0.8, seed=4)
    )
    system = get_system("caf")
    deals = system.random_turno(random.Random(7), TABLE, season.ruleset)["smazzate"][:5]
    last = Turno.objects.filter(season=season).order_by("-giornata__date").first()
    turno = api.turno_start(
        season=season,
        date=last.giornata.date + dt.timedelta(days=7),
        players=TABLE,
        first_dealer="Dario",
    )
    for deal in deals:
        api.smazzata_record(turno=turno, record=deal)
    return season, turno, deals


@pytest.mark.django_db
def test_a_recorded_and_a_corrected_deal_keep_their_record_by_seat():
    season, turno, deals = club_with_an_open_turno()
    seat = {name: k for k, name in enumerate(TABLE)}
    stored = [
        sm.record for sm in Smazzata.objects.filter(turno=turno).order_by("number")
    ]  # exactly the deals given, every player by their seat
    assert stored == [
        {
            "game": d["game"],
            "caller": seat[d["caller"]],
            **({"trump": d["trump"]} if d.get("trump") else {}),
            "result": {str(seat[p]): c for p, c in d["result"].items()},
        }
        for d in deals
    ]
    assert all(name not in json.dumps(stored) for name in TABLE)
    # a correction: another legal count for the same call (two players' counts swapped)
    number, changed = first_swappable(deals)
    api.smazzata_correct(turno=turno, number=number, record=changed)
    row = Smazzata.objects.get(turno=turno, number=number)
    assert row.record["result"] == {str(seat[p]): c for p, c in changed["result"].items()}
    full = turno_with_everything(Turno.objects.filter(pk=turno.pk)).get()
    assert record_names(season.system, row.record, seat_names(full.seats.all())) == changed
    # the Verbale's counts are the record's
    cells = verbale(full).rows[number - 1].cells
    assert [c.count for c in cells] == [changed["result"][p] for p in TABLE]
    for sm in full.smazzate.all():
        assert sm.record == expected_record(sm)
    # the change trail shows the corrected record, by name
    (entry,) = [
        e
        for e in turno_history(turno)
        if e.what == f"smazzata {number}" and e.detail.startswith("registrazione: ")
    ]
    old, new = entry.detail.removeprefix("registrazione: ").split(" → ")
    for p in TABLE:
        assert f"'{p}': {deals[number - 1]['result'][p]}" in old
        assert f"'{p}': {changed['result'][p]}" in new
    assert ledger_differences(seasons=[season]) == []


def swap_two_counts(deal: dict) -> dict | None:
    """``deal`` with the counts of two players that differ swapped (the same total)."""
    result = dict(deal["result"])
    players = list(result)
    for a in players:
        for b in players:
            if result[a] != result[b]:
                result[a], result[b] = result[b], result[a]
                return {**deal, "result": result}
    return None


@pytest.mark.django_db
def test_an_imported_season_keeps_every_record():
    season = season_import(
        data=simulated_season(name="caf", players=PLAYERS, giornate=3, attendance=0.8, seed=5)
    )
    smazzate = Smazzata.objects.filter(turno__season=season).prefetch_related(
        "turno__seats", "results"
    )
    assert smazzate.count() > 30
    for sm in smazzate:
        assert sm.record == expected_record(sm)
    assert any("trump" in sm.record for sm in smazzate)
    assert ledger_differences(seasons=[season]) == []


def first_swappable(deals: list) -> tuple[int, dict]:
    """The number of the first deal whose counts can be swapped, and the deal swapped."""
    return next(
        (k, swapped)
        for k, swapped in enumerate(map(swap_two_counts, deals), start=1)
        if swapped is not None
    )


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_every_record_from_the_counts():
    season, turno, deals = club_with_an_open_turno()
    # the audit history: corrections of the counts (twice the same deal), an undo
    number, changed = first_swappable(deals)
    api.smazzata_correct(turno=turno, number=number, record=changed)
    api.smazzata_correct(turno=turno, number=number, record=deals[number - 1])
    api.smazzata_undo(turno=turno)
    kept, history = records(), history_records()
    rows = every_row()
    assert len(kept) > 30 and all(kept.values())
    assert len(history) == len(kept) + 3 + 1 and all(history.values())
    try:
        migrate(BEFORE)
        # as the counts ledger wrote them: no record, the counts on the Result rows (and their
        # past versions on the Result rows' history)
        assert set(map(json.dumps, records().values())) == {"{}"}
        assert set(map(json.dumps, history_records().values())) == {"{}"}
        assert every_row() == rows
    finally:
        migrate(AFTER)
    assert records() == kept  # exactly what recording and importing write
    assert history_records() == history  # and every past version, as the services wrote it
    assert every_row() == rows
    assert ledger_differences(seasons=[season]) == []
    closed = Turno.objects.filter(season=season, status=Turno.CHIUSO).order_by("pk").last()
    api.turno_reopen(turno=closed, reason="prova")
    api.turno_close(turno=closed)
    assert ledger_differences(seasons=[season]) == []


@pytest.mark.django_db
def test_a_backup_of_the_release_before_restores_the_records():
    _season, turno, deals = club_with_an_open_turno()
    number, changed = first_swappable(deals)
    api.smazzata_correct(turno=turno, number=number, record=changed)
    api.smazzata_undo(turno=turno)
    kept, history = records(), history_records()
    rows = every_row()
    data = json.loads(json.dumps(backup_document()))
    for label in ("scoring.smazzata", "scoring.historicalsmazzata"):
        table = data["tables"][label]
        at = table["columns"].index("record")
        # this release writes the records with names, as the interchange file does
        assert all(set(PLAYERS) & set(r[at]["result"]) for r in table["rows"])
        for r in table["rows"]:  # as the release before wrote a C.A.F. smazzata: no record
            r[at] = {}
    backup_restore(data=data, force=True)
    assert records() == kept
    assert history_records() == history
    assert every_row() == rows
    assert ledger_differences(seasons=list(Season.objects.all())) == []


@pytest.mark.django_db
def test_a_backup_restores_the_records():
    club_with_an_open_turno()
    kept = records()
    backup_restore(data=json.loads(json.dumps(backup_document())), force=True)
    assert records() == kept


@pytest.mark.django_db
def test_a_record_that_disagrees_with_the_stored_points_is_a_difference(ledger_unchecked):
    season, _turno, _deals = club_with_an_open_turno()
    closed = Turno.objects.filter(season=season, status=Turno.CHIUSO).order_by("pk").first()
    sm = Smazzata.objects.filter(turno=closed).order_by("number").first()
    changed = swap_two_counts({**sm.record})
    assert changed is not None
    Smazzata.objects.filter(pk=sm.pk).update(record=changed)
    found = [str(d) for d in ledger_differences(seasons=[season])]
    assert any(f"smazzata {sm.number}" in line and "punti" in line for line in found), found


@pytest.mark.django_db
@pytest.mark.parametrize(
    "broken",
    [
        {"game": "NJ", "caller": 9, "result": {"0": 1}},  # a seat not at the table
        {"game": "NJ", "caller": 0, "result": [1, 2, 3, 4]},  # counts of the wrong shape
        {"caller": {"a": 1}},  # no game, a caller of the wrong type
        ["not", "an", "object"],
    ],
    ids=["seat", "shape", "types", "list"],
)
def test_a_record_the_engine_cannot_replay_is_a_difference_never_a_traceback(
    broken, ledger_unchecked
):
    season, turno, _deals = club_with_an_open_turno()
    for t in (turno, Turno.objects.filter(season=season, status=Turno.CHIUSO).first()):
        sm = Smazzata.objects.filter(turno=t).order_by("number").first()
        Smazzata.objects.filter(pk=sm.pk).update(record=broken)
    found = [d.text() for d in ledger_differences(seasons=[season])]  # reported, not raised
    closed = Turno.objects.filter(season=season, status=Turno.CHIUSO).first()
    assert any(closed.label in line for line in found), found
    assert any(turno.label in line for line in found), found


@pytest.mark.django_db
def test_the_admin_shows_the_record_by_name(admin_client):
    _season, turno, deals = club_with_an_open_turno()
    sm = Smazzata.objects.get(turno=turno, number=1)
    page = admin_client.get(reverse("admin:scoring_smazzata_change", args=[sm.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert escape(json.dumps(deals[0], ensure_ascii=False)) in html  # by name, not by seat
