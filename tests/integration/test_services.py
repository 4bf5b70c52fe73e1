"""The services: every write is one transaction, scored by the engine, all or nothing."""

from __future__ import annotations

import copy
import datetime as dt
from decimal import Decimal

import pytest

from scoring import api
from scoring.demo import simulated_season
from scoring.models import (
    Absence,
    Enrollment,
    Player,
    Result,
    Season,
    Seat,
    Smazzata,
    Standing,
    Turno,
    TurnoEvent,
)
from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.interchange import parse_document, score_document
from scoring.rules.problems import RuleViolation
from scoring.services.backup import backup_document, backup_restore
from scoring.services.interchange import season_export, season_import
from scoring.services.season import enrollment_add, season_create
from scoring.services.season_rules import season_rules_update
from scoring.services.turni import turno_close, turno_reopen, turno_start
from tests.helpers import deal_record, took
from tests.helpers import play_turno as _play

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
pytestmark = pytest.mark.django_db


def _season_with_players(names=PLAYERS) -> Season:
    for n in names:
        Player.objects.get_or_create(name=n)
    return season_create(name="2026-27")


def test_recording_stores_the_engines_points_and_running_totals():
    season = _season_with_players()
    turno, record = _play(season, dt.date(2026, 11, 20), PLAYERS, seed=7, close=False)
    expected = score_turno(caf(), record)
    assert expected.ok
    seats = {
        s.player.name: s.total for s in Seat.objects.filter(turno=turno).select_related("player")
    }
    assert seats == dict(expected.totals)
    for sm in expected.smazzate:
        stored = Smazzata.objects.get(turno=turno, number=sm.number)
        assert (stored.game, stored.caller.name, stored.dealer.name) == (
            sm.game,
            sm.caller,
            sm.dealer,
        )
        assert (stored.forced, stored.scazzata) == (sm.forced, sm.scazzata)
        points = {r.player.name: r.points for r in stored.results.select_related("player")}
        assert points == dict(sm.points)


def test_bad_smazzata_changes_nothing_and_names_every_problem():
    season = _season_with_players()
    turno = turno_start(
        season=season, date=dt.date(2026, 11, 20), players=PLAYERS, first_dealer="Anna"
    )
    with pytest.raises(RuleViolation) as exc:
        deal_record(
            turno=turno,
            game="NJ",
            caller="Bruno",
            counts={"Anna": 1, "Bruno": 5, "Carla": 0, "Dario": 0},
        )
    codes = {(p.code, p.player) for p in exc.value.problems}
    assert codes == {("COUNT_RANGE", "Bruno")}
    with pytest.raises(RuleViolation) as exc:
        deal_record(
            turno=turno,
            game="BRISCOLA",
            caller="Bruno",
            counts={"Anna": 1, "Bruno": 3, "Carla": 0, "Dario": 0},
        )
    assert {p.code for p in exc.value.problems} == {"GAME_PHASE", "TRUMP_MISSING", "COUNT_SUM"}
    assert Smazzata.objects.count() == 0
    assert list(Seat.objects.values_list("total", flat=True)) == [0, 0, 0, 0]


def test_second_submission_of_the_same_number_is_already_recorded():
    season = _season_with_players()
    turno = turno_start(
        season=season, date=dt.date(2026, 11, 20), players=PLAYERS, first_dealer="Anna"
    )
    counts = {"Anna": 1, "Bruno": 3, "Carla": 0, "Dario": 0}
    deal_record(turno=turno, game="NJ", caller="Bruno", counts=counts, number=1)
    with pytest.raises(RuleViolation) as exc:
        deal_record(turno=turno, game="NK", caller="Carla", counts=counts, number=1)
    assert exc.value.problems[0].code == "SMAZZATA_ALREADY_RECORDED"
    assert Smazzata.objects.count() == 1


def test_scazzata_and_totals_hand_checked():
    season = _season_with_players()
    turno = turno_start(
        season=season, date=dt.date(2026, 11, 20), players=PLAYERS, first_dealer="Anna"
    )
    # Bruno calls NJ voluntarily (dealer is Anna) and takes 3 jacks: scazzata -4*3 = -12
    deal_record(
        turno=turno,
        game="NJ",
        caller="Bruno",
        counts={"Anna": 1, "Bruno": 3, "Carla": 0, "Dario": 0},
    )
    # Bruno deals; Bruno calls NK himself: forced (the dealer), 3 kings: base -3*3 = -9
    sm = deal_record(
        turno=turno,
        game="NK",
        caller="Bruno",
        counts={"Anna": 0, "Bruno": 3, "Carla": 1, "Dario": 0},
    )
    assert sm.forced and not sm.scazzata
    api.penalita_add(turno=turno, player="Dario", points=-5, article="9", reason="carte toccate")
    totals = dict(Seat.objects.filter(turno=turno).values_list("player__name", "total"))
    assert totals == {"Anna": -3, "Bruno": -21, "Carla": -3, "Dario": -5}
    pen = turno.penalita.get()
    api.penalita_remove(penalita=pen)
    assert Seat.objects.get(turno=turno, player__name="Dario").total == 0
    assert api.smazzata_undo(turno=turno) == 2
    totals = dict(Seat.objects.filter(turno=turno).values_list("player__name", "total"))
    assert totals == {"Anna": -3, "Bruno": -12, "Carla": 0, "Dario": 0}


def test_close_requires_complete_and_spareggio_then_locks():
    season = _season_with_players()
    turno, record = _play(season, dt.date(2026, 11, 20), PLAYERS, seed=3, close=False)
    # break a tie deliberately: add penalità so that two totals are equal
    totals = score_turno(caf(), record).totals
    a, b = "Anna", "Bruno"
    diff = totals[a] - totals[b]
    if diff:
        api.penalita_add(
            turno=turno, player=a if diff > 0 else b, points=-abs(diff), article="6", reason="x"
        )
    with pytest.raises(RuleViolation) as exc:
        turno_close(turno=turno)
    assert [p.code for p in exc.value.problems] == ["TIE_UNRESOLVED"]
    assert Turno.objects.get(pk=turno.pk).status == Turno.IN_CORSO
    turno_close(turno=turno, tiebreak=[b, a])
    seats = {s.player.name: s for s in Seat.objects.filter(turno=turno).select_related("player")}
    assert seats[b].place < seats[a].place
    assert seats[b].place + 1 == seats[a].place
    # closed: nothing can be recorded
    with pytest.raises(RuleViolation) as exc:
        api.penalita_add(turno=turno, player="Anna", points=-1, article="6")
    assert exc.value.problems[0].code == "TURNO_CLOSED"
    assert Turno.objects.get(pk=turno.pk).verbale_number == 1


def test_reopen_needs_a_reason_and_recomputes_the_season_from_that_giornata():
    season = _season_with_players()
    t1, _ = _play(season, dt.date(2026, 11, 6), PLAYERS, seed=1)
    t2, _ = _play(season, dt.date(2026, 11, 13), PLAYERS, seed=2)
    before = dict(Standing.objects.filter(season=season).values_list("player__name", "score"))
    with pytest.raises(RuleViolation):
        turno_reopen(turno=t1, reason="  ")
    turno_reopen(turno=t1, reason="errore di trascrizione nella smazzata 19")
    assert TurnoEvent.objects.filter(turno=t1, kind="reopen").get().reason.startswith("errore")
    # while t1 is open, only t2 counts
    t2_points = dict(Seat.objects.filter(turno=t2).values_list("player__name", "league_points"))
    assert Seat.objects.filter(turno=t1, league_points__isnull=False).count() == 0
    # t2 is now the first giornata played: everybody starts from Serie A there
    assert set(Seat.objects.filter(turno=t2).values_list("series_before", flat=True)) == {"A"}
    turno_close(turno=t1)  # the spareggio recorded at the first close still holds
    after = dict(Standing.objects.filter(season=season).values_list("player__name", "score"))
    assert after == before
    assert t2_points  # recomputed rows exist


def test_import_is_all_or_nothing_and_export_round_trips():
    doc = simulated_season(
        name="2025-26", players=[*PLAYERS, "Elena"], giornate=4, seed=11, attendance=1.0
    )
    bad = copy.deepcopy(doc)
    bad["turni"][2]["smazzate"][0]["result"][bad["turni"][2]["players"][0]] = 99
    bad["turni"][3]["first_dealer"] = "Nessuno"
    with pytest.raises(RuleViolation) as exc:
        season_import(data=bad)
    assert len(exc.value.problems) >= 2
    assert {p.turno for p in exc.value.problems} >= {
        f"{bad['turni'][2]['date']} #1",
        f"{bad['turni'][3]['date']} #1",
    }
    assert (
        Season.objects.count() == 0 and Turno.objects.count() == 0 and Result.objects.count() == 0
    )

    season = season_import(data=doc)
    exported = season_export(season=season)
    assert exported["turni"] == doc["turni"]
    assert sorted(exported["roster"]) == sorted(doc["roster"])
    # and the stored classifica equals the pure engine's
    engine = score_document(parse_document(doc)).season.classifica
    stored = list(
        Standing.objects.filter(season=season).values_list("place", "player__name", "score")
    )
    assert stored == [(place, s.player, s.score) for place, s in engine]


def test_late_joiner_takes_the_lowest_score_of_every_earlier_giornata():
    season = _season_with_players()
    _play(season, dt.date(2026, 11, 6), PLAYERS, seed=1)
    _play(season, dt.date(2026, 11, 13), PLAYERS, seed=2)
    late = Player.objects.create(name="Zeno")
    enrollment_add(season=season, player=late)
    lows = [
        min(Seat.objects.filter(turno__giornata__date=d).values_list("league_points", flat=True))
        for d in (dt.date(2026, 11, 6), dt.date(2026, 11, 13))
    ]
    got = list(
        Absence.objects.filter(player=late)
        .order_by("giornata__date")
        .values_list("league_points", flat=True)
    )
    assert got == lows
    st = Standing.objects.get(season=season, player=late)
    assert (st.score, st.series, st.turni, st.absences) == (sum(lows, Decimal(0)), "A", 0, 2)
    assert Enrollment.objects.filter(season=season).count() == 5


def test_rules_locked_after_first_close_unless_recomputed():
    season = _season_with_players()
    rules = caf().to_dict()
    rules["games"]["NQS"]["per_unit"] = -10
    season_rules_update(season=season, rules=rules)  # free before the first close
    assert Season.objects.get(pk=season.pk).rules["games"]["NQS"]["per_unit"] == -10
    turno, _ = _play(season, dt.date(2026, 11, 6), PLAYERS, seed=5)
    rules["games"]["NQS"]["per_unit"] = -8
    with pytest.raises(RuleViolation) as exc:
        season_rules_update(season=season, rules=rules)
    assert exc.value.problems[0].code == "RULESET_LOCKED"
    season_rules_update(season=season, rules=rules, recompute=True, reason="torna a -8")
    nqs = Smazzata.objects.get(turno=turno, game="NQS")
    taker = took(nqs, 1)
    assert taker.points in (-8, -12)  # -12 when the voluntary caller took it (scazzata)


def test_backup_restore_gives_the_same_database(make_season):
    make_season(giornate=3, seed=4)
    doc = backup_document()
    with pytest.raises(RuleViolation) as exc:
        backup_restore(data=doc)
    assert exc.value.problems[0].code == "DATABASE_NOT_EMPTY"
    backup_restore(data=doc, force=True)
    assert backup_document() == doc


def test_restore_into_an_empty_database_gives_identical_pages(make_season, client):
    import re

    from scoring.services.backup import wipe_club as _wipe

    make_season(giornate=3, seed=8)
    doc = backup_document()

    def pages() -> dict[str, str]:
        out = {}
        turni = Turno.objects.order_by("giornata__date", "number")
        players = Player.objects.order_by("name")
        urls = ["/", "/serie/", "/turni/", "/giocatori/"]
        urls += [f"/turni/{t.pk}/" for t in turni] + [f"/giocatori/{p.pk}/" for p in players]
        for i, url in enumerate(urls):
            html = client.get(url).content.decode()
            html = re.sub(r"/(turni|giocatori|classifica)/\d+/", r"/\1/N/", html)
            # only primary keys and CSRF tokens may differ after a restore
            html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
            html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
            html = re.sub(r'(value|data-turno|data-player)="\d+"', r'\1="N"', html)
            out[str(i)] = html
        return out

    before = pages()
    _wipe()
    assert Season.objects.count() == 0
    backup_restore(data=doc)
    assert pages() == before
