"""King C.A.F.'s deals keep their record (issue 24, the switch, step 1): every way a C.A.F.
smazzata is written (recorded, corrected, imported, restored from a backup of this release or
of the ones before, migrated by 0019) stores ``Smazzata.record`` as every game does, the deal's
interchange record with its players by seat; the engine's replay, the Verbale and
``check_ledger`` read it, and a record that disagrees with what is stored is a difference.
Since 0021 the record is the only place a count is kept (``Result.count`` is gone); going back
before it fills the counts again from the records."""

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
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import get_system
from scoring.selectors import turno_with_everything
from scoring.services.backup import backup_document, backup_restore
from scoring.services.interchange import season_import
from scoring.services.ledger import ledger_differences
from scoring.verbale import verbale

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
TABLE = ["Dario", "Anna", "Franco", "Carla"]  # seat order: Dario sits at 0, Carla at 3
BEFORE = [("scoring", "0018_giornata_totals")]


def migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def migrate_latest() -> None:
    """The schema the code reads (and the next test expects): every migration applied."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def by_seat(deal: dict, players: list[str]) -> dict:
    """A deal as the interchange file holds it, as stored: every player by their seat."""
    seat = {name: k for k, name in enumerate(players)}
    return {
        "game": deal["game"],
        "caller": seat[deal["caller"]],
        **({"trump": deal["trump"]} if deal.get("trump") else {}),
        "result": {str(seat[p]): c for p, c in deal["result"].items()},
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
        list(Result.objects.order_by("pk").values_list("pk", "player_id", "points")),
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
    assert stored == [by_seat(d, TABLE) for d in deals]
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
    fixed = [changed if k == number else d for k, d in enumerate(deals, start=1)]
    assert [sm.record for sm in sorted(full.smazzate.all(), key=lambda sm: sm.number)] == [
        by_seat(d, TABLE) for d in fixed
    ]  # the others as they were
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
    data = simulated_season(name="caf", players=PLAYERS, giornate=3, attendance=0.8, seed=5)
    season = season_import(data=data)
    stored = {
        (sm.turno.giornata.date.isoformat(), sm.turno.number, sm.number): sm.record
        for sm in Smazzata.objects.filter(turno__season=season).select_related("turno__giornata")
    }
    assert len(stored) > 30
    assert stored == {
        (t["date"], t["number"], k): by_seat(deal, t["players"])
        for t in data["turni"]
        for k, deal in enumerate(t["smazzate"], start=1)
    }
    assert any("trump" in record for record in stored.values())
    assert ledger_differences(seasons=[season]) == []


def first_swappable(deals: list) -> tuple[int, dict]:
    """The number of the first deal whose counts can be swapped, and the deal swapped."""
    return next(
        (k, swapped)
        for k, swapped in enumerate(map(swap_two_counts, deals), start=1)
        if swapped is not None
    )


def counts_column(table: str, key: str) -> dict[int, tuple[int, int, int | None]]:
    """The ``count`` column a release before 0021 keeps: row -> (smazzata, player, count)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {key}, smazzata_id, player_id, count FROM {table}")
        return {row: (sm, player, count) for row, sm, player, count in cursor.fetchall()}


@pytest.mark.django_db(transaction=True)
def test_the_migrations_keep_every_count_both_ways():
    """Back to 0018 (before the records): 0021 fills ``Result.count`` and its past versions
    from the records, exactly the counts the deals had when each row was written, then
    0020-0019 empty the records; forwards 0019-0020 write them again from those counts and 0021
    drops the column: every record and every past version as the services wrote them."""
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
    # the counts each row had, from the deals as recorded (players by id)
    seat = {s.position: s.player_id for s in Seat.objects.filter(turno=turno)}
    ids = {name: seat[k] for k, name in enumerate(TABLE)}
    corrected = Smazzata.objects.get(turno=turno, number=number).pk
    undone = max(Smazzata.history.filter(turno=turno).values_list("id", flat=True))
    swapped = {p for p in TABLE if changed["result"][p] != deals[number - 1]["result"][p]}
    assert len(swapped) == 2
    expected_now = {}  # (smazzata, player) -> count, every C.A.F. result of the club
    for sm in Smazzata.objects.filter(turno__season=season).prefetch_related("turno__seats"):
        by_position = {s.position: s.player_id for s in sm.turno.seats.all()}
        for k, count in sm.record["result"].items():
            expected_now[(sm.pk, by_position[int(k)])] = count
    try:
        migrate(BEFORE)
        # as the counts ledger wrote them: no record, the counts on the Result rows (and their
        # past versions on the Result rows' history)
        assert set(map(json.dumps, records().values())) == {"{}"}
        assert set(map(json.dumps, history_records().values())) == {"{}"}
        assert every_row() == rows
        now = counts_column("scoring_result", "id")
        assert len(now) == len(expected_now)
        assert {(sm, p): c for sm, p, c in now.values()} == expected_now
        past: dict[tuple[int, int], list] = {}
        for _hid, (sm, player, count) in sorted(
            counts_column("scoring_historicalresult", "history_id").items()
        ):
            past.setdefault((sm, player), []).append(count)
        # the corrected deal: its two swapped players' three versions (recorded, corrected,
        # corrected back), the others' one
        for name, player in ids.items():
            first = deals[number - 1]["result"][name]
            assert past.pop((corrected, player)) == (
                [first, changed["result"][name], first] if name in swapped else [first]
            ), name
        # the undone deal: created, then deleted, with the counts it was recorded with
        for name, player in ids.items():
            assert past.pop((undone, player)) == [deals[-1]["result"][name]] * 2, name
        # every other: one version, its count as now
        assert past == {key: [count] for key, count in expected_now.items() if key in past}
        assert len(past) == len(expected_now) - len(TABLE)
    finally:
        migrate_latest()
    assert records() == kept  # exactly what recording and importing write
    assert history_records() == history  # and every past version, as the services wrote it
    assert every_row() == rows
    assert ledger_differences(seasons=[season]) == []
    closed = Turno.objects.filter(season=season, status=Turno.CHIUSO).order_by("pk").last()
    api.turno_reopen(turno=closed, reason="prova")
    api.turno_close(turno=closed)
    assert ledger_differences(seasons=[season]) == []


EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
parse = dt.datetime.fromisoformat


def release_before(data: dict, *, records: bool) -> dict:
    """A backup of this release as the release before 0021 wrote it: each result (and each
    past version of one) with its ``count`` column, the count of the deal's record as it stood
    when the row was written (the deal's latest version at or before it); with ``records``
    False, as the release before 0019 wrote it too: no record on any deal or past version."""
    tables = data["tables"]

    def column(label: str, name: str) -> int:
        return tables[label]["columns"].index(name)

    names = {
        r[column("scoring.player", "id")]: r[column("scoring.player", "name")]
        for r in tables["scoring.player"]["rows"]
    }
    for label, deals, dated in (
        ("scoring.result", "scoring.smazzata", False),
        ("scoring.historicalresult", "scoring.historicalsmazzata", True),
    ):
        versions: dict[int, list] = {}  # smazzata -> [(date, history id, record)]
        for r in tables[deals]["rows"]:
            when = (
                (parse(r[column(deals, "history_date")]), r[column(deals, "history_id")])
                if dated
                else (EPOCH, 0)
            )
            versions.setdefault(r[column(deals, "id")], []).append(
                (*when, r[column(deals, "record")])
            )
        for kept in versions.values():
            kept.sort(key=lambda v: (v[0], v[1]))
        for r in tables[label]["rows"]:
            date = parse(r[column(label, "history_date")]) if dated else EPOCH
            *_, record = [v for v in versions[r[column(label, "smazzata")]] if v[0] <= date][-1]
            r.append(record["result"][names[r[column(label, "player")]]])
        tables[label]["columns"].append("count")
    if not records:
        for label in ("scoring.smazzata", "scoring.historicalsmazzata"):
            for r in tables[label]["rows"]:
                r[column(label, "record")] = {}
    return data


@pytest.mark.django_db
@pytest.mark.parametrize("with_records", [True, False], ids=["0020", "0018"])
def test_a_backup_of_a_release_before_restores_the_records(with_records):
    """A backup of the release before 0021 (the counts on the results beside the records)
    restores exactly; one of the release before 0019 (the counts only) too, every record and
    every past version of one written from its counts."""
    _season, turno, deals = club_with_an_open_turno()
    number, changed = first_swappable(deals)
    api.smazzata_correct(turno=turno, number=number, record=changed)
    api.smazzata_undo(turno=turno)
    kept, history = records(), history_records()
    rows = every_row()
    data = json.loads(json.dumps(backup_document()))
    for label in ("scoring.result", "scoring.historicalresult"):  # this release keeps no count
        assert "count" not in data["tables"][label]["columns"]
    for label in ("scoring.smazzata", "scoring.historicalsmazzata"):
        table = data["tables"][label]
        at = table["columns"].index("record")
        # this release writes the records with names, as the interchange file does
        assert all(set(PLAYERS) & set(r[at]["result"]) for r in table["rows"])
    old = release_before(data, records=with_records)
    backup_restore(data=old, force=True)
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


@pytest.mark.django_db
def test_a_count_of_a_release_before_is_checked_as_its_column_was(db_dump):
    """The ``count`` column of a release before is read only where it was (the results and
    their past versions) and checked as it was kept (an integer 0-52, or empty): a bad one is
    refused naming the table, the row and the column, and nothing is written."""
    club_with_an_open_turno()
    old = release_before(json.loads(json.dumps(backup_document())), records=False)
    old["tables"]["scoring.historicalresult"]["rows"][0][-1] = "tre"
    old["tables"]["scoring.result"]["rows"][2][-1] = 53
    old["tables"]["scoring.result"]["rows"][3][-1] = None  # empty: as the other games' were
    seats = old["tables"]["scoring.seat"]
    seats["columns"].append("count")
    for r in seats["rows"]:
        r.append(1)
    before = db_dump()
    with pytest.raises(RuleViolation) as exc:
        backup_restore(data=old, force=True)
    assert [p.message for p in exc.value.problems] == [
        "scoring.historicalresult, riga 1, count: deve essere un intero, non 'tre'",
        "scoring.result, riga 3, count: Assicurati che questo valore sia minore o uguale a 52.",
        "scoring.seat: colonne sconosciute o mancanti: count",  # a seat never had one
    ]
    assert db_dump() == before
